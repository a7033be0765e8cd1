package dev.domino.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A clean {@code compile}, {@code mask}, {@code inspect} and every command's {@code --help} print no
 * warning lines (issue 18: SLF4J's "No SLF4J providers" lines on every call with a
 * {@code tokenizer.json}, picocli's "Could not format" lines). The commands run in a fresh JVM
 * with the CLI's class path, as {@code domino.jar} would (SLF4J and picocli print such warnings
 * to the process's own standard error, once per process), through {@link Driver}.
 */
class NoWarningsTest {
    private static final Path TOKENIZER = Path.of("..", "compiler", "src", "test", "resources", "vocab", "tiny-bytelevel-tokenizer.json");
    private static final Path GRAMMAR = Path.of("..", "grammars", "arithmetic.gbnf");

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard: the run takes a few seconds
    void cleanRunsPrintNoWarnings(@TempDir Path dir) throws Exception {
        Path artifact = dir.resolve("arithmetic.domino");
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path")
                + (System.getProperty("jdk.module.path") == null ? "" : File.pathSeparator + System.getProperty("jdk.module.path"));
        List<String> command = new ArrayList<>(List.of(javaCommand, "-Xmx512m", "-cp", classPath, Driver.class.getName(),
                "compile " + GRAMMAR + " --vocab " + TOKENIZER + " -o " + artifact,
                "mask " + artifact + " --vocab " + TOKENIZER + " --prefix 1+",
                "inspect artifact " + artifact,
                "inspect terminals " + artifact));
        command.addAll(Driver.helpCommandLines());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("exit 0: compile", "exit 0: mask", "exit 0: inspect artifact", "exit 0: --help", "exit 0: sample --help");
        List<String> warnings = output.lines()
                .filter(l -> l.contains("SLF4J") || l.contains("WARN") || l.toLowerCase(java.util.Locale.ROOT).contains("warning"))
                .toList();
        assertThat(warnings).as("warning lines").isEmpty();
    }

    /** Runs each argument as one command line (split at spaces) through {@link Main#run}; exits 1 at the first failure. */
    public static final class Driver {
        public static void main(String[] commandLines) {
            for (String line : commandLines) {
                StringWriter out = new StringWriter(), err = new StringWriter();
                int code = Main.run(line.split(" "), new PrintWriter(out, true), new PrintWriter(err, true));
                System.out.println(err); // the commands' own error stream: a warning there counts too
                System.out.println("exit " + code + ": " + line);
                if (code != 0) System.exit(1);
            }
            System.out.flush();
        }

        /** {@code --help} of the main command and of every subcommand, nested ones included. */
        static List<String> helpCommandLines() {
            List<String> lines = new ArrayList<>();
            addHelp(new CommandLine(new Main()), "", lines);
            return lines;
        }

        private static void addHelp(CommandLine c, String path, List<String> lines) {
            lines.add((path + " --help").trim());
            for (var e : c.getSubcommands().entrySet()) addHelp(e.getValue(), (path + " " + e.getKey()).trim(), lines);
        }
    }
}
