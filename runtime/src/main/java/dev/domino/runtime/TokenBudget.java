package dev.domino.runtime;

import dev.domino.runtime.internal.mask.ByteStep;
import dev.domino.runtime.internal.mask.Configurations;
import dev.domino.runtime.internal.parse.EarleyParser;
import dev.domino.runtime.internal.parse.EarleyState;
import dev.domino.runtime.internal.vocab.ForcedTokens;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.parse.ShortestCompletion;
import dev.domino.runtime.internal.vocab.VocabTrie;


/**
 * The token budget of a {@link Matcher} ({@link Matcher#setTokenBudget}): which tokens keep a
 * completion of the output within the tokens left. The budget counts every token still to come,
 * the stop token (EOS) included; a completion of n bytes needs at most n tokens (every single
 * byte is a token of the vocabulary, checked) and then the stop token. So a token is allowed when,
 * after it, the shortest completion ({@link ShortestCompletion}) has at most {@code left - 2} bytes
 * ({@code left} before the token), and a stop token when the output is a sentence and
 * {@code left >= 1}. Following the shortest completion byte by byte keeps this true at every step,
 * so a matcher whose budget fitted at the start always has an allowed token and reaches EOS within
 * its budget.
 *
 * <p>Masks: the grammar's mask, then, for each token it allows, the cost after its bytes, in one
 * depth-first walk of the vocabulary's byte trie that steps the configurations once per trie node
 * (tokens sharing a prefix share its steps) and stops where none survives. The walk runs only when
 * the budget may bite (see {@link Matcher#setTokenBudget}).
 *
 * <p>Thread-safe (the per-artifact tables are shared; each call works on its own stack).
 */
final class TokenBudget {
    private TokenBudget() {}

    /** The artifact's shortest-completion tables (built on first use, shared by its matchers). */
    static ShortestCompletion of(Artifact a) { return a.shortestCompletion(); }

    /** Whether every byte value is a grammar token of its own (so n bytes take at most n tokens). */
    static boolean hasEverySingleByte(Vocabulary v) { return v.hasEverySingleByte(); }

    /**
     * Clears from the mask the non-stop tokens after which the shortest completion exceeds
     * {@code maxCost} bytes; returns how many it cleared.
     */
    static int filter(Matcher m, ShortestCompletion sc, Configurations c, int[] mask, int base, int maxCost) {
        Artifact a = m.artifact();
        Vocabulary v = a.vocabulary();
        VocabTrie trie = VocabTrie.of(v);
        ByteStep step = new ByteStep(a.scanner, a.parser);
        if (mostAfterOneToken(sc, step, trie, m, c) <= maxCost) return 0; // far from the end: nothing to remove
        Walk w = new Walk(sc, step, trie, mask, base, maxCost, m);
        w.levels[0] = new Configurations.Builder();
        for (int i = 0; i < c.size(); i++) w.levels[0].add(c.parsers[i], c.scanStates[i]);
        w.walk(0, 0);
        // tokens the byte trie does not hold (special tokens a token terminal allows): one by one
        for (int word = 0; word < m.bitmaskInts(); word++) {
            for (int bits = mask[base + word]; bits != 0; bits &= bits - 1) {
                int id = (word << 5) + Integer.numberOfTrailingZeros(bits);
                if (id >= v.size() || v.isGrammarToken(id) || m.isStopToken(id)) continue;
                Configurations next = m.successors(c, id);
                if (next == null || sc.cost(next) > maxCost) { mask[base + word] &= ~(1 << (id & 31)); w.cleared++; }
            }
        }
        return w.cleared;
    }

    /**
     * An upper bound of the cost after any grammar token: per configuration, the most any token viable
     * from it alone leaves (a token's cost is the least over the configurations it survives from, so
     * at most that of any one of them). Memoized per configuration on its parser state: inside a
     * terminal the parser state stays the same from byte to byte, so a long string or number pays one
     * walk per scanner state, not one per token.
     */
    private static int mostAfterOneToken(ShortestCompletion sc, ByteStep step, VocabTrie trie, Matcher m, Configurations c) {
        int most = 0;
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = c.parsers[i];
            int q = c.scanStates[i];
            int known = sc.memoizedMostAfterOneToken(p, q);
            if (known < 0) {
                Walk w = new Walk(sc, step, trie, null, 0, 0, m);
                w.levels[0] = new Configurations.Builder();
                w.levels[0].add(p, q);
                w.walk(0, 0);
                known = w.most;
                sc.memoizeMostAfterOneToken(p, q, known);
            }
            most = Math.max(most, known);
        }
        return most;
    }

    /**
     * The depth-first walk of the vocabulary trie, one configuration set per depth: clears the mask's
     * tokens that cost too much, or, without a mask, finds the most any token costs.
     */
    private static final class Walk {
        final ShortestCompletion sc;
        final ByteStep step;
        final VocabTrie trie;
        final int[] mask;
        final int base, maxCost;
        final Matcher m;
        final Configurations.Builder[] levels;
        int cleared;
        int most;

        Walk(ShortestCompletion sc, ByteStep step, VocabTrie trie, int[] mask, int base, int maxCost, Matcher m) {
            this.sc = sc; this.step = step; this.trie = trie; this.mask = mask; this.base = base; this.maxCost = maxCost; this.m = m;
            this.levels = new Configurations.Builder[trie.maxTokenBytes() + 2];
        }

        void walk(int node, int depth) {
            Configurations.Builder here = levels[depth];
            int cost = -1;
            for (int i = trie.tokenStart(node), end = trie.tokenEnd(node); i < end; i++) {
                int id = trie.token(i);
                if (mask == null) {
                    if (!m.isStopToken(id)) most = Math.max(most, cost < 0 ? (cost = cost(here)) : cost);
                    continue;
                }
                int word = base + (id >>> 5), bit = 1 << id;
                if ((mask[word] & bit) == 0 || m.isStopToken(id)) continue;
                if (cost < 0) cost = costWithin(m, sc, step, trie, here.parsers, here.scanStates, here.size, maxCost);
                if (cost > maxCost) { mask[word] &= ~bit; cleared++; }
            }
            if (levels[depth + 1] == null) levels[depth + 1] = new Configurations.Builder();
            Configurations.Builder next = levels[depth + 1];
            for (int e = trie.firstChild(node), end = trie.endChild(node); e < end; e++) {
                int b = trie.childByte(e);
                next.clear();
                for (int i = 0; i < here.size; i++) step.addAll(here.parsers[i], here.scanStates[i], b, next);
                if (next.size > 0) walk(trie.childNode(e), depth + 1);
            }
        }

        int cost(Configurations.Builder c) {
            int best = ShortestCompletion.INF;
            for (int i = 0; i < c.size; i++) best = Math.min(best, sc.cost(c.parsers[i], c.scanStates[i]));
            return best;
        }
    }

    /** {@link #costWithin(Matcher, ShortestCompletion, ByteStep, VocabTrie, EarleyState[], int[], int, int)} of a set. */
    static int costWithin(Matcher m, Configurations c, int maxCost) {
        Artifact a = m.artifact();
        ShortestCompletion sc = of(a);
        return costWithin(m, sc, new ByteStep(a.scanner, a.parser), VocabTrie.of(a.vocabulary()), c.parsers, c.scanStates, c.size(), maxCost);
    }

    /**
     * Tokens (EOS not counted) that surely finish the output from the configurations: the fewest bytes
     * when they fit in {@code maxCost}; else, where tokens can be counted, the fewer of that and the
     * tokens of a spelled completion ({@link #tokensToFinish}).
     */
    static int costWithin(Matcher m, ShortestCompletion sc, ByteStep step, VocabTrie trie,
                          EarleyState[] ps, int[] qs, int n, int maxCost) {
        int bytes = ShortestCompletion.INF;
        for (int i = 0; i < n; i++) bytes = Math.min(bytes, sc.cost(ps[i], qs[i]));
        if (bytes <= maxCost || bytes >= ShortestCompletion.INF || !countsTokens(m)) return bytes;
        int tokens = bytes;
        for (int i = 0; i < n && tokens > maxCost; i++) tokens = Math.min(tokens, tokensToFinish(sc, step, trie, m.artifact().vocabulary(), ps[i], qs[i]));
        return tokens;
    }

    /**
     * Whether completions can be counted in tokens: only every viable token is allowed (unlimited
     * lookahead: a spelling's longer tokens might complete too many terminals otherwise) and the
     * grammar names no token (its costs are bytes throughout).
     */
    static boolean countsTokens(Matcher m) { return m.lookahead() == Matcher.UNLIMITED_LOOKAHEAD && m.artifact().tokenTerminals.length == 0; }

    /**
     * Tokens that spell configuration (p, q)'s lexicographically smallest shortest completion w,
     * longest vocabulary entry first (memoized on p). Why this stays true along the output: if the
     * next token is the spelling's first one, x, the smallest shortest completion after x is the rest
     * of w (a smaller or shorter one after x would, after x, be one from (p, q)), among the
     * configurations x leads to; spelled longest entry first it takes one token less. So a budget
     * that fits this count keeps fitting, token after token, as the bytes count does byte after byte.
     */
    static int tokensToFinish(ShortestCompletion sc, ByteStep step, VocabTrie trie, Vocabulary v, EarleyState p, int q) {
        int known = sc.memoizedTokensToFinish(p, q);
        if (known >= 0) return known;
        int bytes = sc.cost(p, q);
        int result;
        if (bytes >= ShortestCompletion.INF) {
            result = ShortestCompletion.INF;
        } else {
            byte[] w = new byte[bytes];
            Configurations.Builder cur = new Configurations.Builder(), next = new Configurations.Builder();
            cur.add(p, q);
            boolean spelled = true;
            for (int k = 0; k < bytes && spelled; k++) {
                spelled = false;
                for (int b = 0; b < 256; b++) {
                    next.clear();
                    for (int i = 0; i < cur.size; i++) step.addAll(cur.parsers[i], cur.scanStates[i], b, next);
                    if (next.size == 0) continue;
                    int c = ShortestCompletion.INF;
                    for (int i = 0; i < next.size; i++) c = Math.min(c, sc.cost(next.parsers[i], next.scanStates[i]));
                    if (c != bytes - k - 1) continue;
                    w[k] = (byte) b;
                    Configurations.Builder swap = cur; cur = next; next = swap;
                    spelled = true;
                    break;
                }
            }
            int[] tokens = spelled ? ForcedTokens.greedy(trie, w) : null;
            int covered = 0;
            if (tokens != null) for (int t : tokens) covered += v.bytes(t).length;
            result = tokens != null && covered == bytes ? tokens.length : bytes;
        }
        sc.memoizeTokensToFinish(p, q, result);
        return result;
    }

}
