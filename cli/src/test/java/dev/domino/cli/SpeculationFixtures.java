package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Shared test fixtures: o200k_base and grammars compiled once per JVM. */
final class SpeculationFixtures {
    private SpeculationFixtures() {}

    private static Tokenizer o200k;
    private static final Map<String, Artifact> ARTIFACTS = new HashMap<>();

    static synchronized Tokenizer o200k() {
        if (o200k == null) o200k = VocabularyLoader.load("o200k_base", null);
        return o200k;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = SpeculationFixtures.class.getResourceAsStream("/speculation/" + name)) {
            if (in == null) throw new IOException("missing test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Path resourcePath(String name) {
        try {
            return Path.of(SpeculationFixtures.class.getResource("/speculation/" + name).toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A GBNF grammar from the test resources, compiled against o200k_base (cached). */
    static synchronized Artifact artifact(String resourceName) throws IOException {
        Artifact a = ARTIFACTS.get(resourceName);
        if (a == null) {
            a = compile(resource(resourceName), resourceName);
            ARTIFACTS.put(resourceName, a);
        }
        return a;
    }

    static Artifact compile(String gbnf, String name) {
        return GrammarCompiler.compile(GbnfParser.parse(gbnf), o200k().vocabulary(), name, "gbnf", gbnf, CompileOptions.defaults());
    }

    static Path write(Path dir, Artifact a, String name) throws IOException {
        Path p = dir.resolve(name);
        dev.domino.runtime.internal.format.ArtifactFormat.write(a, p);
        return p;
    }

    static void copy(String resourceName, Path to) throws IOException { Files.writeString(to, resource(resourceName)); }
}
