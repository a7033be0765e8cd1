package dev.domino.cli.bench;

import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactFormatException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Hostile inputs from a seed: grammar text (GBNF, Lark, regex), JSON Schemas and artifact bytes,
 * each a small valid input mutated at random (edits biased toward what breaks parsers: brackets,
 * quotes, huge counts, lone surrogates, deep nesting). A case compiles against a small vocabulary,
 * then walks a few masks; artifact cases load mutated bytes (the checksum mostly recomputed, so the
 * structural checks are what is tested) and, if they load, walk masks too.
 *
 * <p>Every case must end in one of the outcomes the CLI turns into a one-line error (a
 * {@link GrammarException} or {@link IllegalArgumentException}: exit 2; an
 * {@link ArtifactFormatException}: exit 3) or succeed; anything else is a crash. Used by the jqwik
 * property test and by {@code bench fuzz}.
 */
public final class Fuzz {
    private Fuzz() {}

    public enum Kind { GRAMMAR, SCHEMA, ARTIFACT, REQUEST }

    /** How a case ended. {@code CRASH} means an exception the CLI would not classify; {@code TIMEOUT}, a request past its compile budget. */
    public enum Outcome { OK, BAD_INPUT, BAD_ARTIFACT, TIMEOUT, CRASH }

    public record Result(Kind kind, Outcome outcome, String input, Throwable error) {
        String describe() {
            String shown = input.length() > 300 ? input.substring(0, 300) + "..." : input;
            return kind + " " + outcome + ": " + (error == null ? "" : error) + "\n  input: " + shown.replace("\n", "\\n");
        }
    }

    static final String[] GRAMMARS = {
            "root ::= \"a\" | \"b\"",
            "root ::= obj\nobj ::= \"{\" ws pair (\",\" ws pair)* \"}\"\npair ::= str ws \":\" ws val\nstr ::= \"\\\"\" [a-z ]* \"\\\"\"\n"
                    + "val ::= str | [0-9]+ | obj\nws ::= [ ]?",
            "root ::= [a-z]{2,20} (\"-\" [0-9]{1,3})?",
            "root ::= expr\nexpr ::= term ((\"+\" | \"-\") term)*\nterm ::= [0-9]+ | \"(\" expr \")\"",
            "root ::= (\"ab\" | \"cd\")* \"!\"",
            "root ::= s\ns ::= s s | \"a\"",
            "root ::= [^\\n]{0,40} \"\\n\"",
    };
    static final String[] LARK = {
            "start: item+\nitem: WORD \",\"\n%import common.WORD\n%ignore \" \"",
            "start: \"a\" (\"b\" | \"c\")* [\"d\"]",
            "start: NUMBER (\"+\" NUMBER)*\n%import common.NUMBER",
    };
    static final String[] REGEXES = {"[a-z]+@[a-z]+\\.(com|org)", "(ab|c)*d{2,5}", "\\d{3}-\\d{4}", "[^\"]{0,30}"};
    static final String[] SCHEMAS = {
            "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\",\"maxLength\":20},\"age\":{\"type\":\"integer\"}},"
                    + "\"required\":[\"name\"]}",
            "{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"b\",1,null]},\"minItems\":1,\"maxItems\":4}",
            "{\"type\":\"string\",\"pattern\":\"^[a-z]{1,8}$\"}",
            "{\"anyOf\":[{\"type\":\"number\",\"minimum\":0},{\"type\":\"boolean\"}]}",
            "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\",\"minLength\":2}}",
            "{\"type\":\"string\",\"format\":\"date\"}",
    };
    /** Pieces the mutations insert: syntax, huge or odd numbers, unusual characters. */
    static final String[] PIECES = {
            "(", ")", "[", "]", "{", "}", "|", "*", "+", "?", "\"", "'", "\\", "/", ":", "::=", ",", "-", "^", "$", ".", " ", "\n",
            "{0,999999999}", "{2147483648}", "{-1}", "{3,1}", "999999999999", "4294967296", "-5", "1e9", "1.5", "0",
            "\uD800", "\uDFFF", "\u0000", "\uFFFF", "é", "😀", "\"minLength\":", "\"maxLength\":", "\"enum\":[", "\"$ref\":\"#\"",
            "\"type\":", "\"items\":", "root", "x", "%ignore", "%import", "->", "~", "..", "\\u", "\\x", "\\p{L}", "(?i)",
    };

    /** A small vocabulary: every byte, printable pairs and some words, so compiles and masks are fast. */
    public static Vocabulary smallVocabulary() {
        List<byte[]> tokens = new ArrayList<>();
        for (int b = 0; b < 256; b++) tokens.add(new byte[] {(byte) b});
        String chars = "abcdez019 \"{}[]:,-.\n";
        for (char x : chars.toCharArray()) for (char y : chars.toCharArray()) tokens.add(new String(new char[] {x, y}).getBytes(StandardCharsets.UTF_8));
        for (String w : List.of("true", "false", "null", "name", "age", "ab", "cd", "\": \"", "\", \"", "é", "😀")) {
            tokens.add(w.getBytes(StandardCharsets.UTF_8));
        }
        tokens.add(new byte[0]); // EOS
        int eos = tokens.size() - 1;
        return new Vocabulary("fuzz-small", tokens.toArray(new byte[0][]), new BitSet(), new int[] {eos});
    }

    /** Small budgets: a fuzz case tests that passing one is a clean error, and stays fast. */
    static final CompileLimits.Values LIMITS = CompileLimits.Values.DEFAULTS
            .with("repeat-count=5000").with("source-bytes=200000").with("automaton-states=20000");

    /** Runs case {@code seed}; never throws (the outcome says how the case ended). */
    public static Result run(long seed, Vocabulary vocab, List<byte[]> artifactSeeds) {
        Random rnd = new Random(seed);
        Kind kind = Kind.values()[rnd.nextInt(3)];
        String input = "";
        try {
            if (kind == Kind.ARTIFACT) {
                byte[] bytes = mutateArtifact(artifactSeeds.get(rnd.nextInt(artifactSeeds.size())), rnd);
                input = bytes.length + " artifact bytes";
                Artifact a;
                try {
                    a = Artifact.load(new ByteArrayInputStream(bytes));
                } catch (ArtifactFormatException e) {
                    return new Result(kind, Outcome.BAD_ARTIFACT, input, e);
                }
                walkMasks(a, rnd, false); // altered trees may disagree with the grammar: only no crash is asked
                return new Result(kind, Outcome.OK, input, null);
            }
            SourceFormat format;
            String text;
            if (kind == Kind.SCHEMA) {
                format = SourceFormat.JSON_SCHEMA;
                text = SCHEMAS[rnd.nextInt(SCHEMAS.length)];
            } else {
                int f = rnd.nextInt(3);
                format = f == 0 ? SourceFormat.GBNF : f == 1 ? SourceFormat.LARK : SourceFormat.REGEX;
                String[] pool = f == 0 ? GRAMMARS : f == 1 ? LARK : REGEXES;
                text = pool[rnd.nextInt(pool.length)];
            }
            text = kind == Kind.SCHEMA && rnd.nextBoolean() ? mutateJson(text, rnd) : mutate(text, rnd);
            input = format.id() + ": " + text;
            CompileOptions options = CompileOptions.builder().threads(1).lazy(rnd.nextBoolean()).limits(LIMITS).build();
            Artifact a = DominoCompiler.forVocabulary(vocab).compile("fuzz", text, format, options);
            Artifact loaded = Artifact.load(new ByteArrayInputStream(bytes(a)));
            walkMasks(loaded, rnd, true);
            return new Result(kind, Outcome.OK, input, null);
        } catch (GrammarException | IllegalArgumentException e) {
            return new Result(kind, Outcome.BAD_INPUT, input, e);
        } catch (ArtifactFormatException e) {
            return new Result(kind, Outcome.BAD_ARTIFACT, input, e);
        } catch (Throwable e) {
            return new Result(kind, Outcome.CRASH, input, e);
        }
    }

    /** A few steps of decoding (with {@code consistent}, every token the mask allows must be accepted): mask, pick an allowed token, accept it; strings with odd characters too. */
    static void walkMasks(Artifact a, Random rnd, boolean consistent) {
        Matcher m = a.newMatcher();
        Vocabulary v = a.vocabulary();
        int[] mask = new int[m.bitmaskInts()];
        for (int step = 0; step < 12 && !m.isTerminated(); step++) {
            java.util.Arrays.fill(mask, 0);
            m.fillNextTokenBitmask(mask, 0);
            List<Integer> allowed = new ArrayList<>();
            for (int id = 0; id < v.size(); id++) if ((mask[id >>> 5] >>> (id & 31) & 1) != 0) allowed.add(id);
            if (allowed.isEmpty()) break;
            int id = allowed.get(rnd.nextInt(allowed.size()));
            if (!m.acceptToken(id) && consistent) throw new IllegalStateException("mask allowed token " + id + " but acceptToken refused it");
        }
        Matcher other = a.newMatcher();
        try {
            other.acceptString(PIECES[rnd.nextInt(PIECES.length)] + PIECES[rnd.nextInt(PIECES.length)]);
        } catch (IllegalArgumentException expected) {
            // a lone surrogate: refused, as documented
        }
        other.nextTokenMask();
        try {
            other.fillNextTokenBitmask(mask, rnd.nextBoolean() ? Integer.MAX_VALUE / 3 : -1);
            throw new IllegalStateException("a row outside the bitmask was accepted");
        } catch (IllegalArgumentException expected) {
            // the row is checked before anything is written
        }
    }

    static final String[] NUMBERS = {"0", "-1", "1.5", "1e9", "4294967296", "4294967299", "2147483648", "999999999999999999999",
            "1000000000", "5000", "-0", "1E400", "\"abc\"", "null", "true", "[]", "{}"};
    static final String[] KEYWORDS = {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
            "minimum", "maximum", "multipleOf", "pattern", "enum", "const", "required", "type", "items", "properties",
            "additionalProperties", "anyOf", "oneOf", "allOf", "$ref", "format", "prefixItems", "uniqueItems", "not"};

    /** Edits that keep a schema valid JSON: numbers swapped for odd ones, keywords added with odd values. */
    static String mutateJson(String text, Random rnd) {
        String s = text;
        int edits = 1 + rnd.nextInt(3);
        for (int i = 0; i < edits; i++) {
            if (rnd.nextBoolean()) {
                s = s.replaceFirst("(?<=[:\\[,])\\d+", java.util.regex.Matcher.quoteReplacement(NUMBERS[rnd.nextInt(NUMBERS.length)]));
            } else {
                int brace = s.indexOf('{', rnd.nextInt(Math.max(1, s.length())));
                if (brace < 0) brace = 0;
                String value = rnd.nextBoolean() ? NUMBERS[rnd.nextInt(NUMBERS.length)]
                        : "\"" + PIECES[rnd.nextInt(PIECES.length)].replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
                s = s.substring(0, brace + 1) + "\"" + KEYWORDS[rnd.nextInt(KEYWORDS.length)] + "\":" + value
                        + (brace + 1 < s.length() && s.charAt(brace + 1) == '}' ? "" : ",") + s.substring(brace + 1);
            }
        }
        return s;
    }

    static String mutate(String text, Random rnd) {
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + rnd.nextInt(4);
        for (int i = 0; i < edits; i++) {
            int at = s.length() == 0 ? 0 : rnd.nextInt(s.length() + 1);
            switch (rnd.nextInt(6)) {
                case 0, 1 -> s.insert(at, PIECES[rnd.nextInt(PIECES.length)]);
                case 2 -> { // delete a range
                    int end = Math.min(s.length(), at + 1 + rnd.nextInt(8));
                    if (at < end) s.delete(at, end);
                }
                case 3 -> { // duplicate a range (repeats, nesting)
                    int end = Math.min(s.length(), at + 1 + rnd.nextInt(12));
                    if (at < end) s.insert(end, s.substring(at, end));
                }
                case 4 -> { // a random character
                    s.insert(at, (char) (rnd.nextBoolean() ? 32 + rnd.nextInt(95) : rnd.nextInt(0x3000)));
                }
                default -> { // nesting: wrap a range in brackets many times
                    int end = Math.min(s.length(), at + rnd.nextInt(6));
                    int depth = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 20);
                    String open = rnd.nextBoolean() ? "(" : "[";
                    String close = open.equals("(") ? ")" : "]";
                    s.insert(end, close.repeat(depth));
                    s.insert(at, open.repeat(depth));
                }
            }
        }
        return s.toString();
    }

    /** Flips, inserts or deletes a few bytes of the payload; mostly recomputes the checksum so loading gets past it. */
    static byte[] mutateArtifact(byte[] original, Random rnd) {
        final int header = 24;
        byte[] b = original.clone();
        int edits = 1 + rnd.nextInt(4);
        for (int i = 0; i < edits && b.length > header; i++) { // a truncation may leave the header alone
            int pos = header + rnd.nextInt(b.length - header);
            switch (rnd.nextInt(4)) {
                case 0 -> b[pos] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[pos] = (byte) rnd.nextInt(256);
                case 2 -> b[pos] = (byte) (rnd.nextBoolean() ? 0 : 0x7F);
                default -> { // truncate or extend the payload
                    int n = header + rnd.nextInt(b.length - header);
                    b = java.util.Arrays.copyOf(b, rnd.nextBoolean() ? n : b.length + rnd.nextInt(16));
                }
            }
        }
        if (rnd.nextInt(10) != 0) {
            ByteBuffer h = ByteBuffer.wrap(b);
            int payload = b.length - header;
            h.putLong(12, payload);
            CRC32C crc = new CRC32C();
            crc.update(b, header, payload);
            h.putInt(20, (int) crc.getValue());
        }
        return b;
    }

    /** Artifacts the artifact cases mutate: each seed grammar compiled eagerly and lazily. */
    public static List<byte[]> artifactSeeds(Vocabulary vocab) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String text = GRAMMARS[i];
            for (boolean lazy : new boolean[] {false, true}) {
                out.add(bytes(DominoCompiler.forVocabulary(vocab).compile("seed", text, SourceFormat.GBNF,
                        CompileOptions.builder().threads(1).lazy(lazy).limits(LIMITS).build())));
            }
        }
        return out;
    }

    private static byte[] bytes(Artifact a) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            a.write(out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array stream does not throw
        }
        return out.toByteArray();
    }

    /** For tests: the header layout this class assumes (magic 8, version 4, payload length 8, CRC32C 4). */
    static boolean headerLayoutHolds(byte[] artifact) {
        return ByteBuffer.wrap(artifact).getLong(12) == artifact.length - 24;
    }
}
