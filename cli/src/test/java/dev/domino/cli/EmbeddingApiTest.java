package dev.domino.cli;

import com.esotericsoftware.kryo.Kryo;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's embedding example compiles against the runtime's exported API only: it is compiled
 * as a module that requires {@code dev.domino.runtime}, with the runtime on the module path, so a
 * type of a package the runtime does not export (its internals) would be a compile error. Also
 * checks that an internal type is refused that way.
 */
class EmbeddingApiTest {
    private static final Path README = Path.of("..", "README.md");

    @Test void readmeExampleUsesTheExportedApiOnly() throws Exception {
        String block = embeddingBlock(Files.readString(README));
        assertThat(compileAgainstApi(block, "")).isEmpty();
    }

    @Test void internalsAreNotReachable() throws Exception {
        String errors = compileAgainstApi("dev.domino.runtime.internal.parse.EarleyParser p = null;", "");
        assertThat(errors).contains("dev.domino.runtime.internal");
    }

    /** The first java block of the README's "Embedding the runtime in a server" section. */
    static String embeddingBlock(String readme) {
        int section = readme.indexOf("## Embedding the runtime in a server");
        assertThat(section).as("README section").isNotNegative();
        int start = readme.indexOf("```java\n", section) + "```java\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }

    /** Compiler errors of the code as the body of a method in a module that requires the runtime; empty when it compiles. */
    static String compileAgainstApi(String body, String extra) throws Exception {
        Path dir = Files.createTempDirectory("embedding");
        Path src = dir.resolve("src"), out = dir.resolve("out");
        Files.createDirectories(src.resolve("example"));
        Files.createDirectories(out);
        Files.writeString(src.resolve("module-info.java"), "module example { requires dev.domino.runtime; }\n");
        Files.writeString(src.resolve("example/Example.java"), """
                package example;

                import dev.domino.runtime.*;
                import java.nio.file.Path;

                class Example {
                    interface Log { void warn(String format, Object... args); }
                    static Log log;
                    static int batchSize, row, rejectedDrafts;
                    static float[] logits;
                    static int sampleWithMask(float[] logits, int[] bitmask, int row) { return 0; }
                    static void finish() {}

                    void run() throws Exception {
                """ + body + "\n    }\n" + extra + "}\n");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            String modulePath = location(Artifact.class) + java.io.File.pathSeparator + location(Kryo.class);
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(src.resolve("module-info.java"), src.resolve("example/Example.java"));
            boolean ok = javac.getTask(errors, files, null,
                    List.of("--module-path", modulePath, "-d", out.toString(), "-proc:none"), null, units).call();
            return ok ? "" : errors.toString();
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
