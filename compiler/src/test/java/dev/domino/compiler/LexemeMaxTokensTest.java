package dev.domino.compiler;

import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.TreeDemand;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * llguidance's {@code max_tokens=N} on a lexeme (its docs/syntax.md, "Lexeme options"): one match
 * overlaps at most N tokens, the token holding its first byte counted; after the N-th it ends at
 * that token's end. Masks of eager trees, lazy trees and the tree-free walk against a token-level
 * reference written here from that definition (regular expressions of java.util.regex over the
 * lexemes of a grammar given as a graph, counting the tokens of each lexeme; no code shared with the
 * compiler or the runtime), at every prefix of random walks, on small vocabularies.
 */
class LexemeMaxTokensTest {

    // ------------------------------------------------------------------ the reference

    /** A lexeme of the reference grammar: its language and its token limit (0: none). */
    private record Seg(Pattern regex, int limit) {
        boolean full(String s) { return regex.matcher(s).matches(); }

        boolean prefix(String s) {
            java.util.regex.Matcher m = regex.matcher(s);
            return m.matches() || m.hitEnd();
        }
    }

    /**
     * A grammar as lexemes in a graph: {@code next[i]} may follow lexeme i, {@code first} may start
     * the output, {@code last} may end it. Lexing is free (any split), as Domino's.
     */
    private record RefGrammar(Seg[] segs, int[][] next, int[] first, Set<Integer> last) {}

    /**
     * Where the output stands: inside lexeme {@code seg} with {@code text} so far and {@code count} tokens
     * overlapped before the current token (-1: it started in the current token); or, with {@code ended},
     * just after lexeme {@code seg} (-1: at the start).
     */
    private record St(int seg, String text, int count, boolean ended) {}

    private static final class Reference {
        final RefGrammar g;
        final byte[][] tokens;
        final int eos;

        Reference(RefGrammar g, byte[][] tokens, int eos) {
            this.g = g;
            this.tokens = tokens;
            this.eos = eos;
        }

        Set<St> start() { return Set.of(new St(-1, "", 0, true)); }

        private int[] following(int seg) { return seg < 0 ? g.first : g.next[seg]; }

        /** The states after the bytes, counts not yet moved to the token's end. */
        Set<St> bytes(Set<St> from, byte[] bytes) {
            Set<St> cur = from;
            for (byte value : bytes) {
                String ch = new String(new byte[] {value}, StandardCharsets.ISO_8859_1);
                Set<St> next = new HashSet<>();
                for (St s : cur) {
                    if (!s.ended) {
                        String longer = s.text + ch;
                        if (g.segs[s.seg].prefix(longer)) next.add(new St(s.seg, longer, s.count, false));
                    }
                    if (s.ended || g.segs[s.seg].full(s.text)) {
                        for (int j : following(s.ended ? s.seg : s.seg)) {
                            if (g.segs[j].prefix(ch)) next.add(new St(j, ch, -1, false));
                        }
                    }
                }
                cur = next;
            }
            return cur;
        }

        /** After a token: counts moved on, lexemes at their limit ended, the others kept if they can finish. */
        Set<St> token(Set<St> from, int id) {
            Set<St> out = new HashSet<>();
            for (St s : bytes(from, tokens[id])) {
                if (s.ended || g.segs[s.seg].limit == 0) { out.add(s.ended ? s : new St(s.seg, s.text, 0, false)); continue; }
                int n = g.segs[s.seg].limit;
                int count = Math.max(0, s.count) + 1;
                if (count >= n) {
                    if (g.segs[s.seg].full(s.text)) out.add(new St(s.seg, "", 0, true));
                } else if (canFinish(s.seg, s.text, n - count)) {
                    out.add(new St(s.seg, s.text, count, false));
                }
            }
            return out;
        }

        /** Whether the lexeme, at text, can end within {@code left} more tokens (by brute force over the vocabulary). */
        boolean canFinish(int seg, String text, int left) {
            if (g.segs[seg].full(text)) return true;
            if (left == 0) return false;
            St s = new St(seg, text, 0, false);
            for (int id = 0; id < tokens.length; id++) {
                if (tokens[id] == null) continue;
                for (St after : bytes(Set.of(s), tokens[id])) {
                    if (after.count < 0) return true; // it ended inside the token
                    if (canFinish(after.seg, after.text, left - 1)) return true;
                }
            }
            return false;
        }

        boolean sentence(Set<St> states) {
            for (St s : states) {
                if (s.ended ? s.seg >= 0 && g.last.contains(s.seg) : g.last.contains(s.seg) && g.segs[s.seg].full(s.text)) return true;
            }
            return false;
        }

        BitSet mask(Set<St> states) {
            BitSet m = new BitSet();
            for (int id = 0; id < tokens.length; id++) if (tokens[id] != null && !token(states, id).isEmpty()) m.set(id);
            if (sentence(states)) m.set(eos);
            return m;
        }
    }

    // ------------------------------------------------------------------ fixtures

    private static Vocabulary vocabulary(boolean everySingleByte, String... texts) {
        List<byte[]> list = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (everySingleByte) for (int b = 0; b < 256; b++) { list.add(new byte[] {(byte) b}); seen.add(new String(new byte[] {(byte) b}, StandardCharsets.ISO_8859_1)); }
        for (String t : texts) if (seen.add(t)) list.add(t.getBytes(StandardCharsets.ISO_8859_1));
        list.add(null); // EOS
        BitSet special = new BitSet();
        special.set(list.size() - 1);
        return new Vocabulary("fixture", list.toArray(new byte[0][]), special, new int[] {list.size() - 1});
    }

    private static final String[] WORDS = {"a", "b", "c", "<", ">", ",", ";", ".", "+", "0", "1", "2", "3",
            "ab", "abc", "ba", "ca", "<a", "a,", "ab,", "c;", "12", "23", "+1", "1+", "bab", "cab", "b>", "abca", ",c", "cc", "b;", "bca"};

    private static Artifact[] compileAll(String lark, Vocabulary v) {
        Grammar g = LarkParser.parse(lark);
        CompileOptions options = CompileOptions.defaults().withThreads(1);
        Artifact eager = GrammarCompiler.compile(g, v, "t", "lark", "t", options.withLazy(false));
        Artifact lazy = GrammarCompiler.compile(g, v, "t", "lark", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(lazy).treeDemand().setMode(TreeDemand.Mode.BUILD_ON_FIRST_USE);
        Artifact direct = GrammarCompiler.compile(g, v, "t", "lark", "t", options.withLazy(true).withPrebuildMillis(0));
        RuntimeAccess.of(direct).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
        return new Artifact[] {eager, lazy, direct};
    }

    /** Random walks: at every prefix, each artifact's mask equals the reference's; then a random allowed token. */
    private static void againstReference(String lark, RefGrammar g, Vocabulary v, int walks, long seed) {
        Artifact[] artifacts = compileAll(lark, v);
        byte[][] bytes = new byte[v.size()][];
        for (int id = 0; id < v.size(); id++) bytes[id] = v.isGrammarToken(id) ? v.bytes(id) : null;
        int eos = v.eosIds()[0];
        Reference ref = new Reference(g, bytes, eos);
        Random random = new Random(seed);
        int compared = 0;
        for (int w = 0; w < walks; w++) {
            Matcher[] m = new Matcher[artifacts.length];
            for (int a = 0; a < m.length; a++) m[a] = artifacts[a].newMatcher();
            Set<St> state = ref.start();
            StringBuilder out = new StringBuilder();
            for (int step = 0; step < 14; step++) {
                BitSet expected = ref.mask(state);
                for (int a = 0; a < m.length; a++) {
                    assertThat(m[a].nextTokenMask()).as("mask %d after '%s'", a, out).isEqualTo(expected);
                }
                compared++;
                // isAllowed agrees with the mask
                for (int id = 0; id < v.size(); id++) assertThat(m[2].isAllowed(id)).as("isAllowed(%d) after '%s'", id, out).isEqualTo(expected.get(id));
                List<Integer> allowed = new ArrayList<>();
                for (int id = expected.nextSetBit(0); id >= 0; id = expected.nextSetBit(id + 1)) if (id != eos) allowed.add(id);
                if (allowed.isEmpty()) break;
                int id = allowed.get(random.nextInt(allowed.size()));
                for (Matcher x : m) assertThat(x.acceptToken(id)).isTrue();
                state = ref.token(state, id);
                out.append(new String(v.bytes(id), StandardCharsets.ISO_8859_1)).append('|');
            }
        }
        assertThat(compared).isGreaterThan(walks);
    }

    private static Seg seg(String regex, int limit) { return new Seg(Pattern.compile(regex, Pattern.DOTALL), limit); }

    // ------------------------------------------------------------------ grammars of the syntax reference's shape

    /** A list of limited lexemes between literals: a lexeme may straddle token boundaries at both ends. */
    private static final String LIST = """
            start: "<" x ("," x)* ">"
            x[max_tokens=2]: /[abc]+/
            """;
    private static final RefGrammar LIST_REF = new RefGrammar(
            new Seg[] {seg("<", 0), seg("[abc]+", 2), seg(",", 0), seg(">", 0)},
            new int[][] {{1}, {2, 3}, {1}, {}}, new int[] {0}, Set.of(3));

    @Test void aListOfLimitedLexemesMasksAgainstTheReference() {
        againstReference(LIST, LIST_REF, vocabulary(false, WORDS), 40, 3901);
        againstReference(LIST, LIST_REF, vocabulary(true, WORDS), 25, 3902);
    }

    /** At its limit a lexeme must accept: (ab)+c? after three tokens ends there or the path is dead. */
    @Test void aLexemeThatMustAcceptAtItsLimit() {
        String lark = """
                start: y ";"
                y[max_tokens=3]: /(ab)+c?/
                """;
        RefGrammar ref = new RefGrammar(new Seg[] {seg("(ab)+c?", 3), seg(";", 0)}, new int[][] {{1}, {}}, new int[] {0}, Set.of(1));
        againstReference(lark, ref, vocabulary(false, WORDS), 40, 3903);
        againstReference(lark, ref, vocabulary(true, WORDS), 25, 3904);
    }

    /**
     * A lexeme that needs more bytes than its tokens left can spell: the token leading there is refused
     * ahead (a token may also end it and go on past it, 'b;').
     */
    @Test void tokensAfterWhichALexemeCannotFinishAreRefusedAhead() {
        String lark = """
                start: w ";" w2 ";"
                w[max_tokens=2]: /abcab/
                w2[max_tokens=3]: /abcabcab/
                """;
        RefGrammar ref = new RefGrammar(new Seg[] {seg("abcab", 2), seg(";", 0), seg("abcabcab", 3), seg(";", 0)},
                new int[][] {{1}, {2}, {3}, {}}, new int[] {0}, Set.of(3));
        againstReference(lark, ref, vocabulary(false, WORDS), 60, 3909);
        againstReference(lark, ref, vocabulary(true, WORDS), 20, 3910);
        Vocabulary v = vocabulary(false, WORDS);
        Artifact a = compileAll(lark, v)[0];
        assertThat(accepts(a, v, "abca", "b;", "abc", "abca", "b;")).isTrue();
        assertThat(accepts(a, v, "abc", "ab", ";", "ab", "ca", "bca", "b;")).isFalse(); // four tokens overlap w2
        Matcher m = a.newMatcher();
        assertThat(m.isAllowed(tokenId(v, "a"))).isFalse(); // "bcab" is no token, nor a start of one ending w
        assertThat(m.isAllowed(tokenId(v, "ab"))).isTrue();  // then "cab"
    }

    private static int tokenId(Vocabulary v, String t) {
        for (int i = 0; i < v.size(); i++) if (v.isGrammarToken(i) && new String(v.bytes(i), StandardCharsets.ISO_8859_1).equals(t)) return i;
        throw new AssertionError(t);
    }

    /** max_tokens=1 on a lexeme that repeats: every match lies in one token. */
    @Test void limitOfOneTokenOnARepeatedLexeme() {
        String lark = """
                start: z+ "."
                z[max_tokens=1]: /[ab]{1,3}/
                """;
        RefGrammar ref = new RefGrammar(new Seg[] {seg("[ab]{1,3}", 1), seg("\\.", 0)}, new int[][] {{0, 1}, {}}, new int[] {0}, Set.of(1));
        againstReference(lark, ref, vocabulary(false, WORDS), 40, 3905);
        againstReference(lark, ref, vocabulary(true, WORDS), 25, 3906);
    }

    /**
     * Limits 1 to 4 on lexemes that need several bytes to accept, two of them limited and able to meet
     * in one token: the limit may bite at every step (without every single byte as a token, always),
     * so every mask goes through the trie walk and its per-configuration results kept by the artifact.
     */
    @Test void limitsOneToFourWhereTheFilterBitesAtEveryStep() {
        for (int n = 1; n <= 4; n++) {
            String lark = "start: u (\",\" v)* \";\"\n"
                    + "u[max_tokens=" + n + "]: /(ab|c)+/\n"
                    + "v[max_tokens=" + (5 - n) + "]: /[abc]*a/\n";
            RefGrammar ref = new RefGrammar(new Seg[] {seg("(ab|c)+", n), seg(",", 0), seg("[abc]*a", 5 - n), seg(";", 0)},
                    new int[][] {{1, 3}, {2}, {1, 3}, {}}, new int[] {0}, Set.of(3));
            againstReference(lark, ref, vocabulary(false, WORDS), 30, 3920 + n);
            againstReference(lark, ref, vocabulary(true, WORDS), 15, 3930 + n);
        }
    }

    /** UTF-8 as bytes read as ISO-8859-1 characters, for the reference: any character but a newline. */
    private static final String UTF8_NOT_NEWLINE = "(?:[\\x00-\\x09\\x0B-\\x7F]|[\\xC2-\\xDF][\\x80-\\xBF]|\\xE0[\\xA0-\\xBF][\\x80-\\xBF]"
            + "|[\\xE1-\\xEC\\xEE\\xEF][\\x80-\\xBF]{2}|\\xED[\\x80-\\x9F][\\x80-\\xBF]|\\xF0[\\x90-\\xBF][\\x80-\\xBF]{2}"
            + "|[\\xF1-\\xF3][\\x80-\\xBF]{3}|\\xF4[\\x80-\\x8F][\\x80-\\xBF]{2})";

    /** Tokens that split UTF-8 characters (é = C3 A9, € = E2 82 AC), as byte-level vocabularies have them. */
    private static final String[] SPLIT_CHARACTERS = {"a", "b", "\n", "ab", "\u00C3", "\u00A9", "\u00C3\u00A9", "a\u00C3", "\u00A9b",
            "\u00E2", "\u00E2\u0082", "\u0082\u00AC", "\u00AC", "\u00E2\u0082\u00AC", "\u00AC\n", "\u00A9\na", "b\nab", "\na", "ba"};

    /**
     * A free-text lexeme limited to 1-3 tokens over tokens that end inside a character: a token is
     * decided by the automaton state it ends in (inside a character the lexeme cannot end yet), and a
     * token holding the lexeme's end goes on into the next lexemes.
     */
    @Test void aFreeTextLexemeOverTokensThatSplitCharacters() {
        for (int n = 1; n <= 3; n++) {
            String lark = "start: t \"\\n\" w\n"
                    + "t[max_tokens=" + n + "]: /[^\\n]+/\n"
                    + "w: /[a-z]+/\n";
            RefGrammar ref = new RefGrammar(new Seg[] {seg(UTF8_NOT_NEWLINE + "+", n), seg("\n", 0), seg("[a-z]+", 0)},
                    new int[][] {{1}, {2}, {}}, new int[] {0}, Set.of(2));
            againstReference(lark, ref, vocabulary(false, SPLIT_CHARACTERS), 30, 3950 + n);
            againstReference(lark, ref, vocabulary(true, SPLIT_CHARACTERS), 10, 3960 + n);
        }
    }

    /**
     * Two limited lexemes that can each end and start at almost every byte, so a token holds many
     * splits between them and several configurations are walked together.
     */
    @Test void ambiguousSplitsBetweenTwoLimitedLexemes() {
        for (int n = 1; n <= 3; n++) {
            String lark = "start: (x | y)+ \";\"\n"
                    + "x[max_tokens=" + n + "]: /[ab]+/\n"
                    + "y[max_tokens=" + (4 - n) + "]: /b[abc]*c/\n";
            RefGrammar ref = new RefGrammar(new Seg[] {seg("[ab]+", n), seg("b[abc]*c", 4 - n), seg(";", 0)},
                    new int[][] {{0, 1, 2}, {0, 1, 2}, {}}, new int[] {0, 1}, Set.of(2));
            againstReference(lark, ref, vocabulary(false, WORDS), 30, 3970 + n);
            againstReference(lark, ref, vocabulary(true, WORDS), 10, 3980 + n);
        }
    }

    /**
     * With token terminals beside limited lexemes (ids 0-3 are also the texts "a", "b", "c", "<"), a
     * token the walk of the bytes refuses may still pass as a token terminal: every mask bit equals
     * {@code isAllowed}, which steps the token alone, along random walks.
     */
    @Test void tokenTerminalsBesideLimitedLexemesAgreeWithIsAllowed() {
        String lark = """
                start: x <[0-3]> x ";"
                x[max_tokens=2]: /[abc]+/
                """;
        Vocabulary v = vocabulary(false, WORDS);
        Random random = new Random(3940);
        for (Artifact a : compileAll(lark, v)) {
            for (int w = 0; w < 20; w++) {
                Matcher m = a.newMatcher();
                for (int step = 0; step < 10; step++) {
                    BitSet mask = m.nextTokenMask();
                    for (int id = 0; id < v.size(); id++) assertThat(mask.get(id)).as("token %d at step %d", id, step).isEqualTo(m.isAllowed(id));
                    List<Integer> allowed = new ArrayList<>();
                    for (int id = mask.nextSetBit(0); id >= 0; id = mask.nextSetBit(id + 1)) if (id != v.eosIds()[0]) allowed.add(id);
                    if (allowed.isEmpty()) break;
                    assertThat(m.acceptToken(allowed.get(random.nextInt(allowed.size())))).isTrue();
                }
            }
        }
    }

    /** On an uppercase terminal, with lazy and suffix= together with it (the limit counts the suffix too). */
    @Test void onTerminalsAndWithLazyAndSuffix() {
        String lark = """
                start: N ("+" N)* s
                N[max_tokens=2]: /[0-3]+/
                s[suffix=";", max_tokens=2]: /[abc]*/
                """;
        RefGrammar ref = new RefGrammar(new Seg[] {seg("[0-3]+", 2), seg("\\+", 0), seg("[abc]*?;", 2)},
                new int[][] {{1, 2}, {0}, {}}, new int[] {0}, Set.of(2));
        // the suffix's lexeme is lazy: it ends at the first ';', which [abc]* cannot contain anyway
        againstReference(lark, ref, vocabulary(false, WORDS), 40, 3907);
        againstReference(lark, ref, vocabulary(true, WORDS), 25, 3908);
    }

    /** Whole texts as a user sees them: the same bytes, allowed or not by how they are tokenized. */
    @Test void theSameTextByItsTokens() {
        Vocabulary v = vocabulary(false, WORDS);
        Artifact a = compileAll(LIST, v)[0];
        assertThat(accepts(a, v, "<", "abc", ">")).isTrue();           // one token
        assertThat(accepts(a, v, "<", "ab", "c", ">")).isTrue();       // two
        assertThat(accepts(a, v, "<", "a", "b", "c", ">")).isFalse();  // three
        assertThat(accepts(a, v, "<a", "b", ">")).isTrue();           // the start token counts
        assertThat(accepts(a, v, "<a", "b", "c", ">")).isFalse();
        assertThat(accepts(a, v, "<", "a", "b>")).isTrue();            // a token ending it and going on counts once
        assertThat(accepts(a, v, "<", "ab,", "c", "a", ">")).isTrue();
        assertThat(accepts(a, v, "<", "ab", ",c", "a", ">")).isTrue();        // ',c' holds its first byte: two tokens
        assertThat(accepts(a, v, "<", "ab", ",c", "a", "b", ">")).isFalse();  // three
    }

    private static boolean accepts(Artifact a, Vocabulary v, String... tokens) {
        Matcher m = a.newMatcher();
        for (String t : tokens) {
            int id = -1;
            for (int i = 0; i < v.size(); i++) if (v.isGrammarToken(i) && new String(v.bytes(i), StandardCharsets.ISO_8859_1).equals(t)) id = i;
            assertThat(id).as("token %s in the fixture", t).isNotNegative();
            if (!m.acceptToken(id)) return false;
        }
        return m.isAccepting();
    }

    /** The limit travels in the artifact file (format 14): a loaded artifact masks as the compiled one. */
    @Test void theLimitSurvivesTheArtifactFile() throws Exception {
        Vocabulary v = vocabulary(false, WORDS);
        Artifact a = compileAll(LIST, v)[0];
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        a.write(out);
        Artifact loaded = Artifact.load(new java.io.ByteArrayInputStream(out.toByteArray()));
        assertThat(accepts(loaded, v, "<", "ab", "c", ">")).isTrue();
        assertThat(accepts(loaded, v, "<", "a", "b", "c", ">")).isFalse();
        Matcher x = a.newMatcher(), y = loaded.newMatcher();
        for (String t : new String[] {"<", "a", "b"}) {
            assertThat(y.nextTokenMask()).isEqualTo(x.nextTokenMask());
            x.acceptToken(tokenId(v, t));
            y.acceptToken(tokenId(v, t));
        }
        assertThat(y.nextTokenMask()).isEqualTo(x.nextTokenMask());
    }

    @Test void badValuesAreOneLineErrorsWithLineAndColumn() {
        assertError("start: x\nx[max_tokens=0]: /a/\n", "line 2, column 14: max_tokens=0: not a positive integer");
        assertError("start: x\nx[max_tokens=-3]: /a/\n", "line 2, column 14: max_tokens=-3: not a positive integer");
        assertError("start: x\nx[max_tokens=2.5]: /a/\n", "line 2, column 14: max_tokens=2.5: not a positive integer");
        assertError("start: x\nx[max_tokens=\"4\"]: /a/\n", "line 2, column 14: max_tokens=\"4\": not a positive integer");
        assertError("start: x\nx[max_tokens]: /a/\n", "line 2, column 3: max_tokens takes a positive integer");
        assertError("start: x\nx[max_tokens=99999999999999999999]: /a/\n",
                "line 2, column 14: max_tokens=99999999999999999999 is above the limit lexeme-max-tokens (1048576)");
        assertError("start: A\nA: \"<\" x\nx[max_tokens=3]: /a/\n", "terminal 'A' cannot use lexeme 'x' with max_tokens=: it needs to be a lexeme of its own");
        assertError("start: x\nx[max_tokens=3]: y \"a\"\ny: \"b\"\n", "terminal 'x' cannot reference rule 'y'");
        assertError("start: x\nx[max_tokens=3]: %json {\"type\": \"string\"}\n", "line 2, column 18: %json cannot be used in terminal 'x'");
    }

    private static void assertError(String lark, String expected) {
        assertThatThrownBy(() -> LarkParser.parse(lark)).isInstanceOf(GrammarException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(expected).doesNotContain("\n"));
    }
}
