package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small JSON-like grammar compiled once per test JVM against o200k_base, and its file. */
final class TestArtifacts {
    static final String GBNF = String.join("\n",
            "root ::= obj",
            "obj  ::= \"{\" ws pair (\",\" ws pair)* \"}\"",
            "pair ::= str ws \":\" ws val ws",
            "str  ::= \"\\\"\" [a-z ]* \"\\\"\"",
            "val  ::= str | [0-9]+ | \"true\" | \"false\" | obj",
            "ws   ::= [ ]?");

    private static Tokenizer tokenizer;
    private static Artifact artifact;
    private static byte[] bytes;
    private static Path file;

    private TestArtifacts() {}

    static synchronized Tokenizer tokenizer() {
        if (tokenizer == null) tokenizer = VocabularyLoader.load("o200k_base", null);
        return tokenizer;
    }

    static synchronized Artifact artifact() {
        if (artifact == null) {
            artifact = GrammarCompiler.compile(GbnfParser.parse(GBNF), tokenizer().vocabulary(), "pairs.gbnf", "gbnf", GBNF,
                    CompileOptions.defaults());
        }
        return artifact;
    }

    static synchronized byte[] bytes() {
        if (bytes == null) bytes = ArtifactFormat.toBytes(artifact());
        return bytes.clone();
    }

    /** The artifact written to a temporary file (deleted on exit). */
    static synchronized Path file() {
        if (file == null) {
            try {
                Path dir = Files.createTempDirectory("domino-test");
                file = dir.resolve("pairs.domino");
                ArtifactFormat.write(artifact(), file);
                file.toFile().deleteOnExit();
                dir.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return file;
    }
}
