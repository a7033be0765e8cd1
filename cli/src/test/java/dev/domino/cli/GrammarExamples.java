package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A grammar's examples file, and the checks the library tests run on each example. */
record GrammarExamples(List<String> positive, List<String> negative) {
    /** The repository root (tests run in cli/). */
    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("grammars"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("no grammars/ directory above " + Path.of("").toAbsolutePath());
        return p;
    }

    static GrammarExamples read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        return new GrammarExamples(strings(root.get("positive")), strings(root.get("negative")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * Feeds the tokenizer's own encoding of the text to a fresh matcher. Returns null if every token is
     * accepted, the output is a sentence and EOS ends it; otherwise why not. Also checks, before every
     * token, that the token mask agrees with {@link Matcher#acceptToken}.
     */
    static String runtimeRejection(Artifact artifact, Tokenizer tokenizer, String text) {
        Matcher m = artifact.newMatcher();
        int[] tokens = tokenizer.encode(text);
        for (int i = 0; i < tokens.length; i++) {
            boolean inMask = m.nextTokenMask().get(tokens[i]);
            boolean accepted = m.acceptToken(tokens[i]);
            if (inMask != accepted) {
                throw new AssertionError("mask says " + inMask + " but acceptToken says " + accepted + " for token " + i
                        + " '" + artifact.vocabulary().display(tokens[i]) + "' of " + quote(text));
            }
            if (!accepted) return "token " + i + " '" + artifact.vocabulary().display(tokens[i]) + "' rejected";
        }
        if (!m.isAccepting()) return "not a complete sentence at the end";
        int eos = artifact.vocabulary().eosIds()[0];
        if (!m.nextTokenMask().get(eos) || !m.acceptToken(eos) || !m.isTerminated()) {
            throw new AssertionError("accepting but EOS not allowed after " + quote(text));
        }
        return null;
    }

    static boolean oracleAccepts(ByteEarleyOracle oracle, String text) { return oracle.isSentence(text); }

    static String quote(String s) {
        String q = s.replace("\n", "\\n").replace("\t", "\\t");
        return "\"" + (q.length() > 120 ? q.substring(0, 117) + "..." : q) + "\"";
    }
}
