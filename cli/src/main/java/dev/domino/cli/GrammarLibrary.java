package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory of grammars (the project's {@code grammars/}, or a user's), compiled into one
 * artifact per grammar: {@code NAME.domino}, where NAME is the file name without its extension
 * and with remaining dots turned into {@code _} ({@code gsm8k.schema.json} → {@code gsm8k_schema});
 * when a GBNF file and a file of another format share a name, the other one gets {@code _FORMAT}
 * appended ({@code json.gbnf} → {@code json}, {@code json.lark} → {@code json_lark}). A grammar's
 * examples, if any, are in {@code NAME.examples.json}: {@code {"positive": [...], "negative": [...]}}.
 *
 * <p>{@link #main} is the build-time runner ({@code mvn -Pgrammars package}):
 * {@code GrammarLibrary GRAMMARS_DIR ARTIFACTS_DIR [VOCAB]}, VOCAB defaulting to {@code o200k_base}.
 * JSON Schema files are skipped while the JSON Schema front-end is not available.
 */
public final class GrammarLibrary {
    /** The message of the JSON Schema front-end placeholder; such grammars are skipped, not failed. */
    public static final String SCHEMA_UNAVAILABLE = "JSON Schema front-end not available yet";
    public static final String EXAMPLES_SUFFIX = ".examples.json";

    private GrammarLibrary() {}

    /** One grammar file of a library directory. */
    public record Entry(Path file, String name, SourceFormat format) {
        public String text() {
            try {
                return dev.domino.compiler.SourceFiles.readUtf8(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The sibling examples file (it may not exist). */
        public Path examplesFile() { return file.resolveSibling(name + EXAMPLES_SUFFIX); }

        public Path artifactIn(Path dir) { return dir.resolve(name + ".domino"); }

        public GrammarSources.Parsed parse() { return GrammarSources.parse(text(), format, CompileOptions.defaults()); }

        /** Compiles against a vocabulary, recording the file name and format like {@code domino compile} does. */
        public Artifact compile(Tokenizer tokenizer, CompileOptions options) {
            return DominoCompiler.forVocabulary(tokenizer.vocabulary()).compile(file.getFileName().toString(), text(), format, options);
        }
    }

    /** The grammars of a directory, sorted by file name; examples files and other files are left out. */
    public static List<Entry> list(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> formatOf(p.getFileName().toString()) != null)
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .toList();
        }
        Map<String, Integer> stems = new HashMap<>();
        for (Path p : files) stems.merge(stem(p.getFileName().toString()), 1, Integer::sum);
        List<Entry> entries = new ArrayList<>();
        for (Path p : files) {
            String fileName = p.getFileName().toString();
            SourceFormat format = formatOf(fileName);
            String name = stem(fileName);
            if (stems.get(name) > 1 && format != SourceFormat.GBNF) name = name + "_" + format.id().replace('-', '_');
            entries.add(new Entry(p, name, format));
        }
        return entries;
    }

    static SourceFormat formatOf(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(EXAMPLES_SUFFIX) || n.startsWith(".")) return null;
        try {
            return SourceFormat.fromFileName(fileName);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String stem(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return (dot > 0 ? fileName.substring(0, dot) : fileName).replace('.', '_');
    }

    /** True if a grammar failed only because the JSON Schema front-end has not landed yet. */
    public static boolean isSchemaUnavailable(Entry entry, RuntimeException e) {
        return entry.format() == SourceFormat.JSON_SCHEMA && e instanceof GrammarException
                && e.getMessage() != null && e.getMessage().contains(SCHEMA_UNAVAILABLE);
    }

    /** Compiles every grammar of {@code args[0]} into {@code args[1]}; prints seconds and bytes per grammar. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException("usage: GrammarLibrary GRAMMARS_DIR ARTIFACTS_DIR [VOCAB]");
        }
        Path grammars = Path.of(args[0]);
        Path artifacts = Path.of(args[1]);
        String vocab = args.length > 2 ? args[2] : "o200k_base";
        Files.createDirectories(artifacts);
        long t0 = System.nanoTime();
        Tokenizer tokenizer = VocabularyLoader.load(vocab, null);
        System.out.printf("vocabulary %s (%d tokens) loaded in %.2f s%n", tokenizer.vocabulary().name(),
                tokenizer.vocabulary().size(), (System.nanoTime() - t0) / 1e9);
        int failures = 0;
        for (Entry entry : list(grammars)) {
            long t = System.nanoTime();
            try {
                Artifact artifact = entry.compile(tokenizer, CompileOptions.defaults());
                Path out = entry.artifactIn(artifacts);
                artifact.save(out);
                System.out.printf("%-40s -> %-28s %7.2f s %,12d bytes%n", entry.file().getFileName(), out.getFileName(),
                        (System.nanoTime() - t) / 1e9, Files.size(out));
            } catch (RuntimeException e) {
                if (isSchemaUnavailable(entry, e)) {
                    System.out.printf("%-40s skipped: %s%n", entry.file().getFileName(), e.getMessage());
                } else {
                    failures++;
                    System.out.printf("%-40s FAILED: %s%n", entry.file().getFileName(), Errors.describe(e));
                }
            }
        }
        System.out.printf("done in %.2f s%n", (System.nanoTime() - t0) / 1e9);
        if (failures > 0) {
            // an exception, not System.exit: exec:java runs inside Maven's JVM
            throw new IllegalStateException(failures + " grammar(s) failed to compile");
        }
    }
}
