package dev.domino.bench;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shared setup for the benchmarks: vocabularies, compiled grammars, representative prefixes,
 * and a tokenizer-free greedy tokenization (longest vocabulary entry first), so the benchmarks
 * need no native HuggingFace tokenizer and work with any vocabulary.
 */
public final class Fixtures {
    private Fixtures() {}

    /** Default vocabulary; {@code -p vocab=../shared/vocab/llama3-tokenizer.json} for Llama 3. */
    public static final String DEFAULT_VOCAB = "o200k_base";

    private static final Map<String, Vocabulary> VOCABS = new ConcurrentHashMap<>();
    private static final Map<String, Artifact> ARTIFACTS = new ConcurrentHashMap<>();
    private record TokenIndex(Map<String, Integer> ids, int maxLen) {}
    private static final Map<Vocabulary, TokenIndex> TOKEN_INDEX = new ConcurrentHashMap<>();

    public static Vocabulary vocabulary(String spec) {
        return VOCABS.computeIfAbsent(spec, s -> VocabularyLoader.load(s, null).vocabulary());
    }

    /** The grammars directory: {@code -Ddomino.grammars=DIR}, else {@code grammars/} or {@code ../grammars/}. */
    public static Path grammarsDir() {
        String p = System.getProperty("domino.grammars");
        if (p != null) return Path.of(p);
        for (String c : new String[] {"grammars", "../grammars", "../../grammars"}) {
            if (Files.isRegularFile(Path.of(c, "json.gbnf"))) return Path.of(c);
        }
        throw new IllegalStateException("grammars/ not found: run from the repository root or pass -Ddomino.grammars=DIR");
    }

    /** Grammar names: {@code json} (grammars/json.gbnf), {@code gsm8k_schema} (grammars/gsm8k.schema.json), {@code reasoning} (grammars/reasoning.lark). */
    public static Path grammarFile(String grammar) {
        return switch (grammar) {
            case "json" -> grammarsDir().resolve("json.gbnf");
            case "gsm8k_schema" -> grammarsDir().resolve("gsm8k.schema.json");
            case "reasoning" -> grammarsDir().resolve("reasoning.lark");
            default -> throw new IllegalArgumentException("unknown grammar " + grammar + " (json, gsm8k_schema, reasoning)");
        };
    }

    /** The artifact's file bytes (what {@link Artifact#save} writes). */
    public static byte[] bytes(Artifact a) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            a.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The grammar compiled once per JVM (shared by the benchmarks of a fork). */
    public static Artifact compile(String grammar, String vocab, boolean lazy) {
        return ARTIFACTS.computeIfAbsent(grammar + "|" + vocab + "|" + lazy, k -> compileNew(grammar, vocab, CompileOptions.builder().lazy(lazy).build()));
    }

    /** A new artifact of the grammar, not shared: for benchmarks that change its settings (such as its tree demand). */
    public static Artifact compileNew(String grammar, String vocab, CompileOptions options) {
        Path file = grammarFile(grammar);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SourceFormat format = grammar.equals("json") ? SourceFormat.GBNF : grammar.equals("reasoning") ? SourceFormat.LARK : SourceFormat.JSON_SCHEMA;
        return DominoCompiler.forVocabulary(vocabulary(vocab)).compile(file.getFileName().toString(), text, format, options);
    }

    /** A representative decoding state: the text so far and what the model writes next. */
    public record Point(String prefix, String continuation) {}

    /**
     * States named {@code start} (nothing written), {@code key} (between members, a key comes next),
     * {@code colon} (JSON only: right after a key's colon, before its value), {@code string} (inside a string value), {@code number} (inside a number), {@code value}
     * (inside an array, after a comma: any value may start).
     */
    public static Point point(String grammar, String state) {
        if (grammar.equals("reasoning")) {
            // string: inside the free reasoning text; number: inside the constrained answer
            return switch (state) {
                case "start" -> new Point("", "<think>ok</think>\n{\"answer\": 1}");
                case "string" -> new Point("<think>\nThe question asks for six times seven, so", " it is 42.</think>\n{\"answer\": 42}");
                case "number" -> new Point("<think>42</think>\n{\"answer\": 4", "2}");
                default -> throw new IllegalArgumentException("unknown state " + state + " for reasoning (start, string, number)");
            };
        }
        if (grammar.equals("json")) {
            return switch (state) {
                case "start" -> new Point("", "{\"a\": 1}");
                case "key" -> new Point("{\"id\": 7, ", "\"name\": \"x\"}");
                case "colon" -> new Point("{\"name\":", " \"x\"}");
                case "string" -> new Point("{\"name\": \"Jo", "hn Smith\"}");
                case "number" -> new Point("{\"age\": 4", "2}");
                case "value" -> new Point("{\"items\": [1, \"two\", ", "3.5]}");
                default -> throw new IllegalArgumentException("unknown state " + state);
            };
        }
        String step = "{\"thoughts\": [{\"step\": \"Add the apples\", \"calculation\": \"3 + 4\", \"result\": 7}";
        return switch (state) {
            case "start" -> new Point("", "{\"thoughts\": []}");
            case "key" -> new Point("{\"thoughts\": [{\"step\": \"Add\", ", "\"calculation\": \"1\", \"result\": 1}], \"answer\": 1}");
            case "string" -> new Point("{\"thoughts\": [{\"step\": \"Add the", " apples\", \"calculation\": \"1\", \"result\": 1}], \"answer\": 1}");
            case "number" -> new Point(step.substring(0, step.length() - 2), "7}], \"answer\": 7}");
            case "value" -> new Point(step + ", ", "{\"step\": \"x\", \"calculation\": \"1\", \"result\": 1}], \"answer\": 1}");
            default -> throw new IllegalArgumentException("unknown state " + state);
        };
    }

    /** A longer valid document of a grammar: batch prefixes are cut from it. */
    public static String document(String grammar) {
        if (grammar.equals("json")) {
            return "{\"name\": \"Jo Smith\", \"age\": 42, \"scores\": [1, 2.5e3, -0.75, true, null],"
                    + " \"address\": {\"street\": \"1 Main St\", \"city\": \"Springfield\", \"zip\": \"12345\"},"
                    + " \"tags\": [\"alpha\", \"b\\u00e9ta\", \"\\n\"], \"nested\": {\"x\": {\"y\": [[], {}, \"z\"]}},"
                    + " \"description\": \"A fairly long free text value, with punctuation: commas, dots. And more words.\","
                    + " \"matrix\": [[1, 2, 3], [4, 5, 6]], \"ok\": false, \"ratio\": 0.125}";
        }
        return "{\"thoughts\": [{\"step\": \"Natalia sold 48 clips in April\", \"calculation\": \"48 / 2\", \"result\": 24},"
                + " {\"step\": \"She sold half as many in May\", \"calculation\": \"48 + 24\", \"result\": 72},"
                + " {\"step\": \"Total over both months\", \"calculation\": \"72\", \"result\": 72.0}], \"answer\": 72}";
    }

    /** Greedy longest-match tokenization of text (every token is a real vocabulary entry). */
    public static int[] tokenize(Vocabulary v, String text) {
        TokenIndex ti = TOKEN_INDEX.computeIfAbsent(v, Fixtures::indexOf);
        Map<String, Integer> index = ti.ids();
        int maxLen = ti.maxLen();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<Integer> out = new ArrayList<>();
        int i = 0;
        while (i < bytes.length) {
            int found = -1, len = 0;
            for (int l = Math.min(maxLen, bytes.length - i); l >= 1 && found < 0; l--) {
                Integer id = index.get(new String(bytes, i, l, StandardCharsets.ISO_8859_1));
                if (id != null) { found = id; len = l; }
            }
            if (found < 0) throw new IllegalStateException("byte " + (bytes[i] & 0xFF) + " has no token in " + v.name());
            out.add(found);
            i += len;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static TokenIndex indexOf(Vocabulary v) {
        Map<String, Integer> m = new HashMap<>();
        int maxLen = 0;
        for (int id = 0; id < v.size(); id++) {
            if (!v.isGrammarToken(id)) continue;
            byte[] b = v.bytes(id);
            m.putIfAbsent(new String(b, StandardCharsets.ISO_8859_1), id);
            maxLen = Math.max(maxLen, b.length);
        }
        return new TokenIndex(m, maxLen);
    }

    /** A matcher that has committed the greedy tokens of {@code prefix}; fails loudly if the grammar refuses one. */
    public static Matcher matcherAfter(Artifact a, String prefix) {
        Matcher m = a.newMatcher();
        int[] tokens = tokenize(a.vocabulary(), prefix);
        for (int i = 0; i < tokens.length; i++) {
            if (!m.acceptToken(tokens[i])) {
                throw new IllegalStateException("token " + i + " '" + a.vocabulary().display(tokens[i]) + "' of prefix '" + prefix + "' refused");
            }
        }
        return m;
    }

    /** A grammar token the matcher refuses: a plausible wrong guess first, else the first refused token. */
    public static int disallowedToken(Matcher m) {
        Vocabulary v = m.artifact().vocabulary();
        for (String guess : new String[] {"}}", "]]", "@", "::", "zzz", "{{", "\"", "1", "a"}) {
            int[] t = tokenize(v, guess);
            if (t.length == 1 && !m.isAllowed(t[0])) return t[0];
        }
        for (int id = 0; id < v.size(); id++) if (v.isGrammarToken(id) && !m.isAllowed(id)) return id;
        throw new IllegalStateException("every token is allowed here");
    }
}
