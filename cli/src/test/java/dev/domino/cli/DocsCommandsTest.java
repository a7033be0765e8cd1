package dev.domino.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code domino.jar} command line in README.md and docs/*.md names a real subcommand and only
 * options that subcommand has: moving or renaming an option cannot leave the documentation behind.
 * (Running them needs the shared data sets and minutes each; the set-up commands run in CI.)
 */
class DocsCommandsTest {
    private static final Path ROOT = Path.of("..");
    /** {@code java -jar cli/target/domino.jar ARGS} or the README figures' {@code $D ARGS}. */
    private static final Pattern COMMAND = Pattern.compile("(?:cli/target/domino\\.jar|\\$D)\\s+([^`|#&;]*)");

    @Test void documentedCommandsExist() throws Exception {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        TreeSet<String> problems = new TreeSet<>();
        int checked = 0;
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                Matcher m = COMMAND.matcher(line);
                while (m.find()) {
                    String problem = check(m.group(1));
                    checked++;
                    if (problem != null) problems.add(f.getFileName() + ": " + problem + " in: " + m.group(1).strip());
                }
            }
        }
        assertThat(checked).isGreaterThan(20);
        assertThat(problems).isEmpty();
    }

    /** Null when the words name a subcommand and its options; else what is wrong. */
    static String check(String args) {
        CommandLine cmd = new CommandLine(new Main());
        CommandSpec spec = cmd.getCommandSpec();
        String[] words = args.strip().split("\\s+");
        int i = 0;
        while (i < words.length && spec.subcommands().containsKey(words[i])) spec = spec.subcommands().get(words[i++]).getCommandSpec();
        if (spec == cmd.getCommandSpec()) return "no subcommand";
        for (; i < words.length; i++) {
            String w = words[i].replaceAll("^[\\[(]+|[\\])]+$", "");
            if (!w.startsWith("-") || w.equals("-") || w.matches("-\\d.*")) continue;
            String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
            for (String alt : name.split("\\|")) {
                if (alt.startsWith("-") && spec.findOption(alt) == null) return "unknown option " + alt + " of " + spec.qualifiedName();
            }
        }
        return null;
    }
}
