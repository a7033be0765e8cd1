package dev.domino.runtime;

import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;

import java.util.Arrays;
import java.util.List;

/**
 * Grammar-based speculative decoding (DOMINO §3.6): proposes draft tokens from
 * {@link SpeculationPriors} counts and from the grammar itself (forced tokens), for a server to
 * verify with one forward pass of the model.
 *
 * <pre>{@code
 * Speculator spec = new Speculator(artifact, priors);
 * Speculator.Proposal p = spec.propose(matcher, 10, 0.5);  // matcher is not changed
 * int accepted = model.verify(p.tokens());                // longest prefix the model agrees with
 * for (int i = 0; i < accepted; i++) matcher.acceptToken(p.tokens()[i]);
 * int own = model.nextToken();                            // from the same forward pass
 * if (!matcher.tryAcceptToken(own)) { matcher.fillNextTokenBitmask(mask, row); ... resample ... }
 * }</pre>
 *
 * Every draft is legal given the drafts before it (checked by stepping a fork of the matcher),
 * so verifying drafts never needs a mask. Thread-safe if the priors are (they are).
 */
public final class Speculator {
    private final Artifact artifact;
    private final SpeculationPriors priors;
    /** Grammar token ids sorted by their bytes (unsigned lexicographic): prefix = contiguous range. */
    private final int[] sortedIds;
    private final byte[][] sortedBytes;
    /** Index range in sortedIds of the tokens starting with byte b: [start[b], start[b+1]). */
    private final int[] firstByteStart;
    /** Per terminal: the bytes its automaton can start with. */
    private final long[][] firstBytes;
    private static final byte[][] SINGLE = new byte[256][];
    static {
        for (int b = 0; b < 256; b++) SINGLE[b] = new byte[] {(byte) b};
    }

    public Speculator(Artifact artifact, SpeculationPriors priors) {
        priors.checkMatches(artifact);
        this.artifact = artifact;
        this.priors = priors;
        Vocabulary v = artifact.vocabulary();
        Integer[] ids = new Integer[v.size()];
        int n = 0;
        for (int t = 0; t < v.size(); t++) if (v.isGrammarToken(t)) ids[n++] = t;
        Integer[] grammarIds = Arrays.copyOf(ids, n);
        Arrays.sort(grammarIds, (a, b) -> {
            int c = Arrays.compareUnsigned(v.bytes(a), v.bytes(b));
            return c != 0 ? c : Integer.compare(a, b);
        });
        firstBytes = new long[artifact.scanner.terminals().length][4];
        for (int t = 0; t < artifact.scanner.terminals().length; t++) {
            ByteDfa dfa = artifact.scanner.terminal(t).dfa();
            for (int b = 0; b < 256; b++) if (dfa.step(dfa.start(), b) >= 0) firstBytes[t][b >>> 6] |= 1L << b;
        }
        sortedIds = new int[n];
        sortedBytes = new byte[n][];
        for (int i = 0; i < n; i++) { sortedIds[i] = grammarIds[i]; sortedBytes[i] = v.bytes(grammarIds[i]); }
        firstByteStart = new int[257];
        for (int b = 0, i = 0; b <= 256; b++) {
            while (i < n && (sortedBytes[i][0] & 0xFF) < b) i++;
            firstByteStart[b] = i;
        }
    }

    public Artifact artifact() { return artifact; }
    public SpeculationPriors priors() { return priors; }

    /**
     * Draft tokens.
     *
     * @param tokens        the drafts, in order; each is legal after the ones before it
     * @param probabilities P(token | α, β) of each draft (1 for forced tokens)
     * @param forced        whether each draft was the only legal token in its state
     */
    public record Proposal(int[] tokens, double[] probabilities, boolean[] forced) {
        public int size() { return tokens.length; }
        public int forcedCount() {
            int n = 0;
            for (boolean f : forced) if (f) n++;
            return n;
        }
    }

    private static final Proposal EMPTY = new Proposal(new int[0], new double[0], new boolean[0]);

    /**
     * Up to {@code maxTokens} drafts after the matcher's current output, chosen greedily: in each
     * state, the forced token if there is exactly one legal token, else the most frequent legal
     * token of that context if its P ≥ {@code minProbability}; stops at the first state with
     * neither. The matcher is not changed (drafts are stepped on a fork).
     */
    public Proposal propose(Matcher matcher, int maxTokens, double minProbability) {
        if (maxTokens <= 0 || matcher.isTerminated()) return EMPTY;
        Matcher f = matcher.fork();
        int[] tokens = new int[maxTokens];
        double[] probs = new double[maxTokens];
        boolean[] forced = new boolean[maxTokens];
        int n = 0;
        while (n < maxTokens && !f.isTerminated()) {
            int token = forcedToken(f);
            double p = 1;
            boolean isForced = token >= 0;
            if (!isForced) {
                long key = SpeculationContext.of(f);
                List<SpeculationPriors.Candidate> cands = priors.candidates(key, minProbability, 4);
                for (SpeculationPriors.Candidate c : cands) {
                    if (f.isAllowed(c.token())) { token = c.token(); p = c.probability(); break; }
                }
            }
            if (token < 0 || !f.acceptToken(token)) break;
            tokens[n] = token;
            probs[n] = p;
            forced[n] = isForced;
            n++;
        }
        return n == 0 ? EMPTY : new Proposal(Arrays.copyOf(tokens, n), Arrays.copyOf(probs, n), Arrays.copyOf(forced, n));
    }

    /** Learns that the model chose {@code token} at the matcher's state, then commits it. */
    public boolean acceptAndObserve(Matcher matcher, int token) {
        long key = SpeculationContext.of(matcher);
        if (!matcher.acceptToken(token)) return false;
        priors.observe(key, token);
        return true;
    }

    // ------------------------------------------------------------------ forced tokens

    /**
     * The only legal next token (EOS included), or -1 when there are none or several. Costs far
     * less than a mask: a depth-first walk over the vocabulary sorted by bytes, stepping the live
     * configurations one byte at a time and stopping as soon as a second legal token is found, so
     * wide states (inside a string) end after a few steps and narrow ones explore only their
     * viable byte paths.
     */
    public int forcedToken(Matcher matcher) {
        if (matcher.isTerminated()) return -1;
        // lexemes limited in tokens: the byte walk below does not count their tokens
        if (matcher.artifact().lexemeLimits != null) return -1;
        // a token reference expected here (<|eom_id|>, !<[id]>) adds tokens this byte walk does not see
        if (matcher.expectsTokenTerminal()) return -1;
        int[] found = {-1, 0}; // first legal token, number found
        if (matcher.isAccepting()) {
            for (int eos : matcher.stopTokens()) {
                if (found[1]++ == 0) found[0] = eos;
            }
            if (found[1] >= 2) return -1;
        }
        Configurations c = matcher.configurations();
        long[] first = viableFirstBytes(c);
        // depth 0 by hand: only bytes that can start the continuation are stepped
        for (int w = 0; w < 4 && found[1] < 2; w++) {
            for (long bits = first[w]; bits != 0 && found[1] < 2; bits &= bits - 1) {
                int b = (w << 6) + Long.numberOfTrailingZeros(bits);
                int i = firstByteStart[b], j = firstByteStart[b + 1];
                if (i == j) continue;
                Configurations next = matcher.advance(c, SINGLE[b]);
                if (next != null) walk(matcher, next, i, j, 1, found);
            }
        }
        return found[1] == 1 ? found[0] : -1;
    }

    /**
     * A superset of the bytes that can come next (exact up to parser checks of the terminal that
     * would start): computed from the scanner automata without stepping configurations.
     */
    private long[] viableFirstBytes(Configurations c) {
        long[] bits = new long[4];
        EarleyParser parser = artifact.parser;
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = c.parsers[i];
            int q = c.scanStates[i];
            if (q == Artifact.BETWEEN) {
                startBytes(p, bits);
            } else {
                int t = artifact.scanner.terminalOf(q);
                Terminal dfa = artifact.scanner.terminal(t);
                int s = artifact.scanner.localOf(q);
                for (int b = 0; b < 256; b++) if (dfa.step(s, b) >= 0) bits[b >>> 6] |= 1L << b;
                if (dfa.isAccepting(s)) {
                    EarleyState p2 = parser.scan(p, t);
                    if (!parser.isDead(p2)) startBytes(p2, bits);
                }
            }
        }
        return bits;
    }

    private void startBytes(EarleyState p, long[] bits) {
        for (int t = 0; t < artifact.scanner.terminals().length; t++) {
            if (p.expects(t)) {
                long[] f = firstBytes[t];
                for (int w = 0; w < 4; w++) bits[w] |= f[w];
            }
        }
    }

    /** First index in [from, hi) whose byte at {@code depth} is above {@code b} (binary search). */
    private int groupEnd(int from, int hi, int depth, int b) {
        int lo = from;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if ((sortedBytes[mid][depth] & 0xFF) <= b) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** Tokens in [lo, hi) share their first {@code depth} bytes, which are viable ({@code c}). */
    private void walk(Matcher m, Configurations c, int lo, int hi, int depth, int[] found) {
        int i = lo;
        while (i < hi && sortedBytes[i].length == depth) { // tokens that are exactly this prefix
            if (found[1]++ == 0) found[0] = sortedIds[i];
            if (found[1] >= 2) return;
            i++;
        }
        while (i < hi) {
            int b = sortedBytes[i][depth] & 0xFF;
            int j = groupEnd(i + 1, hi, depth, b);
            Configurations next = m.advance(c, SINGLE[b]);
            if (next != null) {
                walk(m, next, i, j, depth + 1, found);
                if (found[1] >= 2) return;
            }
            i = j;
        }
    }
}
