package dev.domino.runtime;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * Per-request grammar state: which tokens may come next, and committing them.
 * Not thread-safe (one request, one thread at a time); {@link #fork()} gives an independent
 * copy in O(1), and {@link #rollback(int)} undoes commits in O(n) pointer steps, because all
 * history is immutable and shared.
 *
 * <p>Mask = union over live configurations (P, q) of a walk of tree T_q: a group (t, tokens)
 * is allowed when P can accept terminal t next; an edge t is followed when P can scan t, with
 * the scanned parser state. EOS is allowed when the output so far is a sentence.
 */
public final class Matcher {
    public static final int UNLIMITED_LOOKAHEAD = Integer.MAX_VALUE;

    private final Artifact artifact;
    private final EarleyParser parser;
    private final int lookahead;
    private History history;

    /** Immutable history node: the configurations after {@code depth} committed tokens. */
    private record History(Configurations configs, History previous, int depth, boolean terminated) {}

    Matcher(Artifact artifact, int lookahead) {
        if (lookahead < 0) throw new IllegalArgumentException("lookahead must be >= 0");
        this.artifact = artifact;
        this.parser = artifact.parser;
        this.lookahead = lookahead;
        reset();
    }

    private Matcher(Matcher other) {
        this.artifact = other.artifact;
        this.parser = other.parser;
        this.lookahead = other.lookahead;
        this.history = other.history;
    }

    public Artifact artifact() { return artifact; }
    public int lookahead() { return lookahead; }

    /** Back to the start of the output. */
    public void reset() {
        Configurations.Builder b = new Configurations.Builder();
        b.add(parser.initial(), Artifact.BETWEEN);
        history = new History(b.build(), null, 0, false);
    }

    /** An independent matcher at the same point (shares all history). */
    public Matcher fork() { return new Matcher(this); }

    /** Number of tokens committed since the start (or reset). */
    public int committedTokens() { return history.depth; }

    public boolean isTerminated() { return history.terminated; }

    /** True when the output so far is a complete sentence (EOS would be allowed). */
    public boolean isAccepting() { return !history.terminated && isSentence(history.configs); }

    /** Undoes the last {@code n} commits (EOS included). */
    public void rollback(int n) {
        if (n < 0 || n > history.depth) {
            throw new IllegalArgumentException("cannot roll back " + n + " tokens: only " + history.depth + " committed");
        }
        History h = history;
        for (int i = 0; i < n; i++) h = h.previous;
        history = h;
    }

    // ---------------------------------------------------------------- commit

    /**
     * Commits a token if the grammar allows it. Returns false, leaving the state unchanged,
     * when it does not.
     *
     * @throws IllegalArgumentException for an id outside the vocabulary
     * @throws IllegalStateException    after EOS was accepted
     */
    public boolean acceptToken(int tokenId) {
        checkToken(tokenId);
        if (history.terminated) throw new IllegalStateException("the output is already terminated (EOS accepted)");
        Vocabulary v = artifact.vocabulary();
        if (v.isEos(tokenId)) {
            if (!isSentence(history.configs)) return false;
            history = new History(history.configs, history, history.depth + 1, true);
            return true;
        }
        if (!v.isGrammarToken(tokenId)) return false;
        Configurations next = advance(history.configs, v.bytes(tokenId));
        if (next == null) return false;
        history = new History(next, history, history.depth + 1, false);
        return true;
    }

    /**
     * Commits raw text (not tokens): useful for forced prefixes. Counts as one commit for
     * {@link #rollback(int)}. Returns false, state unchanged, if the text leads nowhere.
     */
    public boolean acceptString(String text) { return acceptBytes(text.getBytes(StandardCharsets.UTF_8)); }

    public boolean acceptBytes(byte[] bytes) {
        if (history.terminated) throw new IllegalStateException("the output is already terminated (EOS accepted)");
        Configurations next = advance(history.configs, bytes);
        if (next == null) return false;
        history = new History(next, history, history.depth + 1, false);
        return true;
    }

    /** Opportunistic check: would {@link #acceptToken} succeed? No state change, no full mask. */
    public boolean isAllowed(int tokenId) {
        checkToken(tokenId);
        if (history.terminated) return false;
        Vocabulary v = artifact.vocabulary();
        if (v.isEos(tokenId)) return isSentence(history.configs);
        if (!v.isGrammarToken(tokenId)) return false;
        return isViable(history.configs, v.bytes(tokenId));
    }

    private void checkToken(int tokenId) {
        if (tokenId < 0 || tokenId >= artifact.vocabulary().size()) {
            throw new IllegalArgumentException("token id " + tokenId + " outside the vocabulary (size " + artifact.vocabulary().size() + ")");
        }
    }

    // ---------------------------------------------------------------- mask

    /** Number of ints one row of an int bitmask needs (32 tokens per int). */
    public int bitmaskInts() { return (artifact.vocabulary().size() + 31) >>> 5; }

    /**
     * Fills row {@code row} of a vLLM/XGrammar-layout bitmask: 32 tokens per int, bit set =
     * allowed. The row starts at {@code row * bitmaskInts()}.
     */
    public void fillNextTokenBitmask(int[] bitmask, int row) {
        long[] words = computeMask();
        int ints = bitmaskInts();
        int base = row * ints;
        if (base < 0 || base + ints > bitmask.length) throw new IllegalArgumentException("bitmask too small for row " + row);
        for (int i = 0; i < ints; i++) {
            long w = words[i >>> 1];
            bitmask[base + i] = (i & 1) == 0 ? (int) w : (int) (w >>> 32);
        }
    }

    /** The mask as 64 tokens per long (bit set = allowed); {@code words.length >= (V+63)/64}. */
    public void fillNextTokenMask(long[] words) {
        long[] mask = computeMask();
        System.arraycopy(mask, 0, words, 0, mask.length);
    }

    public BitSet nextTokenMask() { return BitSet.valueOf(computeMask()); }

    /** Number of tokens the next mask allows. */
    public int countAllowed() {
        int n = 0;
        for (long w : computeMask()) n += Long.bitCount(w);
        return n;
    }

    private long[] computeMask() {
        long[] mask = new long[artifact.vocabWords];
        if (history.terminated) return mask;
        Configurations c = history.configs;
        Vocabulary v = artifact.vocabulary();
        for (int i = 0; i < c.size(); i++) {
            TokenTree tree = artifact.treeOfState(c.scanStates[i]);
            walk(tree, 0, c.parsers[i], 0, mask);
            if (tree.dynamicTokens.length > 0) {
                Configurations single = new Configurations(new EarleyState[] {c.parsers[i]}, new int[] {c.scanStates[i]});
                for (int token : tree.dynamicTokens) {
                    if ((mask[token >>> 6] & (1L << token)) == 0 && isViable(single, v.bytes(token))) {
                        mask[token >>> 6] |= 1L << token;
                    }
                }
            }
        }
        if (isSentence(c)) for (int eos : v.eosIds()) mask[eos >>> 6] |= 1L << eos;
        return mask;
    }

    private void walk(TokenTree tree, int node, EarleyState p, int depth, long[] mask) {
        TokenSets sets = tree.sets;
        for (int g = tree.groupStart[node], end = tree.groupStart[node + 1]; g < end; g++) {
            if (p.expects(tree.groupTerminal[g])) sets.orInto(tree.groupSet[g], mask);
        }
        if (depth >= lookahead) return;
        for (int e = tree.edgeStart[node], end = tree.edgeStart[node + 1]; e < end; e++) {
            int t = tree.edgeTerminal[e];
            if (!p.expects(t)) continue;
            EarleyState next = parser.scan(p, t);
            if (next != parser.dead) walk(tree, tree.edgeChild[e], next, depth + 1, mask);
        }
    }

    // ---------------------------------------------------------------- byte-level scanning

    private boolean isSentence(Configurations c) {
        for (int i = 0; i < c.size(); i++) {
            int q = c.scanStates[i];
            EarleyState p = c.parsers[i];
            if (q == Artifact.BETWEEN) {
                if (p.accepting) return true;
            } else {
                int t = artifact.stateTerminal(q);
                if (artifact.terminal(t).dfa().isAccepting(artifact.stateLocal(q)) && parser.scan(p, t).accepting) return true;
            }
        }
        return false;
    }

    private boolean isViable(Configurations c, byte[] bytes) { return advance(c, bytes) != null; }

    /** Steps every configuration over the bytes; null when none survives. */
    Configurations advance(Configurations start, byte[] bytes) {
        if (bytes.length == 0) return start;
        Configurations.Builder cur = new Configurations.Builder();
        Configurations.Builder next = new Configurations.Builder();
        for (int i = 0; i < start.size(); i++) cur.add(start.parsers[i], start.scanStates[i]);
        for (byte value : bytes) {
            int b = value & 0xFF;
            next.clear();
            for (int i = 0; i < cur.size; i++) stepByte(cur.parsers[i], cur.scanStates[i], b, next);
            if (next.size == 0) return null;
            Configurations.Builder swap = cur; cur = next; next = swap;
        }
        return cur.build();
    }

    private void stepByte(EarleyState p, int q, int b, Configurations.Builder out) {
        if (q == Artifact.BETWEEN) {
            startTerminal(p, b, out);
            return;
        }
        int t = artifact.stateTerminal(q);
        ByteDfa dfa = artifact.terminal(t).dfa();
        int s = artifact.stateLocal(q);
        int s2 = dfa.step(s, b);
        if (s2 >= 0) out.add(p, artifact.stateOffset(t) + s2);
        if (dfa.isAccepting(s)) {
            EarleyState p2 = parser.scan(p, t);
            if (p2 != parser.dead) startTerminal(p2, b, out);
        }
    }

    private void startTerminal(EarleyState p, int b, Configurations.Builder out) {
        for (int t : artifact.terminalsByFirstByte[b]) {
            if (p.expects(t)) {
                ByteDfa dfa = artifact.terminal(t).dfa();
                out.add(p, artifact.stateOffset(t) + dfa.step(dfa.start(), b));
            }
        }
    }

    /** Live configurations, for inspection: pairs {scannerState, parserItemCount}. */
    public int[][] liveConfigurations() {
        Configurations c = history.configs;
        int[][] out = new int[c.size()][];
        for (int i = 0; i < c.size(); i++) out[i] = new int[] {c.scanStates[i], c.parsers[i].itemCount()};
        return out;
    }
}
