package dev.domino.runtime;

import dev.domino.runtime.internal.mask.ByteStep;
import dev.domino.runtime.internal.mask.Configurations;
import dev.domino.runtime.internal.parse.EarleyParser;
import dev.domino.runtime.internal.parse.EarleyState;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lexemes limited in tokens (llguidance's {@code max_tokens=N} on a lexeme, {@link Terminal#maxTokens()}):
 * one match may overlap at most N tokens, the token holding its first byte counted even when the
 * lexeme starts inside it. As in llguidance, after the N-th token the lexeme ends at that token's
 * end: where its automaton accepts there, the output goes on after it; where it does not, that path is
 * dead. Unlike llguidance (whose mask lets such a token through and then rejects the parse), a token is
 * allowed only when some path after it can still finish every limited lexeme in its tokens: exact at
 * the mask, looking ahead as far as a limit reaches.
 *
 * <p>State: per configuration, how many tokens the limited lexeme it is inside of has overlapped so far
 * (0 elsewhere; the limit itself: it ends before the next byte, at an accepting state), carried beside the configurations in the matcher's history. Two paths to the same
 * configuration keep the smaller count: it allows everything the larger allows.
 *
 * <p>Cost: none for grammars without such lexemes (the artifact holds no instance). With them,
 * commits step the token's bytes with counts; a mask is the grammar's mask, then, only when a limit
 * may bite within the next token (see {@link #mayBite}), the tokens that pass from each configuration,
 * found by one walk of the vocabulary trie and kept per artifact (see {@link #filter}).
 */
final class LexemeTokenLimits {
    private final ScannerStates scanner;
    private final EarleyParser parser;
    private final Vocabulary vocabulary;
    /** Per terminal: its max_tokens, or 0. */
    private final int[] limit;
    /** Per limited terminal: for each local state, the fewest bytes to an accepting state; null for the others. */
    private final int[][] bytesToAccept;
    /** Per limited terminal: the most of {@link #bytesToAccept} over its states. */
    private final int[] mostBytesToAccept;
    /** Whether every limited lexeme started inside a token can surely finish (with one-byte tokens). */
    private final boolean startsSafe;

    /** Counted configurations: {@code counts[i]} belongs to configuration i. */
    record Counted(Configurations configs, int[] counts) {}

    private LexemeTokenLimits(ScannerStates scanner, EarleyParser parser, Vocabulary vocabulary, int[] limit) {
        this.scanner = scanner;
        this.parser = parser;
        this.vocabulary = vocabulary;
        this.limit = limit;
        bytesToAccept = new int[limit.length][];
        mostBytesToAccept = new int[limit.length];
        boolean safe = vocabulary.hasEverySingleByte();
        for (int t = 0; t < limit.length; t++) {
            if (limit[t] == 0) continue;
            bytesToAccept[t] = bytesToAccept(scanner.terminal(t));
            for (int d : bytesToAccept[t]) mostBytesToAccept[t] = Math.max(mostBytesToAccept[t], d);
            safe &= 1L + mostBytesToAccept[t] <= limit[t];
        }
        startsSafe = safe;
    }

    /** The limits of an artifact's terminals; null when none is limited. */
    static LexemeTokenLimits of(ScannerStates scanner, EarleyParser parser, Vocabulary vocabulary, Terminal[] terminals) {
        int[] limit = new int[terminals.length];
        boolean any = false;
        for (int t = 0; t < terminals.length; t++) {
            limit[t] = terminals[t].maxTokens();
            any |= limit[t] > 0;
        }
        return any ? new LexemeTokenLimits(scanner, parser, vocabulary, limit) : null;
    }

    /** Fewest bytes from each state to an accepting one (breadth-first over reversed transitions). */
    private static int[] bytesToAccept(Terminal t) {
        int n = t.stateCount();
        List<List<Integer>> into = new ArrayList<>(n);
        for (int s = 0; s < n; s++) into.add(new ArrayList<>());
        for (int s = 0; s < n; s++) {
            for (int b = 0; b < 256; b++) {
                int s2 = t.step(s, b);
                if (s2 >= 0) into.get(s2).add(s);
            }
        }
        int[] d = new int[n];
        java.util.Arrays.fill(d, Integer.MAX_VALUE);
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        for (int s = 0; s < n; s++) if (t.isAccepting(s)) { d[s] = 0; queue.add(s); }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int from : into.get(s)) if (d[from] == Integer.MAX_VALUE) { d[from] = d[s] + 1; queue.add(from); }
        }
        return d;
    }

    /** The counts of a matcher's first configurations (none inside a lexeme). */
    static int[] initialCounts(Configurations c) { return new int[c.size()]; }

    private int limitOf(int q) { return q == ScannerStates.BETWEEN ? 0 : limit[scanner.terminalOf(q)]; }

    // ---------------------------------------------------------------- stepping

    /** Where the output stands after token {@code id} (not a stop token); null when the token is not allowed. */
    Counted successors(Matcher m, Configurations c, int[] counts, int id) {
        return successors(m, c, counts, id, new HashMap<>());
    }

    private Counted successors(Matcher m, Configurations c, int[] counts, int id, Map<Long, Map<EarleyState, Boolean>> memo) {
        Counted bytes = null;
        if (vocabulary.isGrammarToken(id) && m.withinLookaheadOf(c, vocabulary.bytes(id))) bytes = step(c, counts, vocabulary.bytes(id));
        Configurations special = m.tokenTerminalSuccessors(c, id);
        if (special != null) {
            // a token terminal is a lexeme of its own: it ends any lexeme before it, and is never limited
            Level out = new Level();
            if (bytes != null) for (int i = 0; i < bytes.configs.size(); i++) out.add(bytes.configs.parsers[i], bytes.configs.scanStates[i], bytes.counts[i]);
            for (int i = 0; i < special.size(); i++) out.add(special.parsers[i], special.scanStates[i], -1);
            bytes = out.build();
        }
        return bytes == null ? null : endOfToken(m, bytes, memo);
    }

    /** Forced text (not a token): stepped as one token. */
    Counted advanceBytes(Matcher m, Configurations c, int[] counts, byte[] text) {
        if (text.length == 0) return new Counted(c, counts);
        Counted stepped = step(c, counts, text);
        return stepped == null ? null : endOfToken(m, stepped, new HashMap<>());
    }

    /** The configurations after the bytes, each with the count of its lexeme before them (-1: started in them). */
    private Counted step(Configurations c, int[] counts, byte[] bytes) {
        ByteStep cursor = new ByteStep(scanner, parser);
        Level cur = new Level(), next = new Level();
        for (int i = 0; i < c.size(); i++) cur.add(c.parsers[i], c.scanStates[i], counts[i]);
        for (byte value : bytes) {
            next.clear();
            stepByte(cur, value & 0xFF, cursor, next);
            if (next.size == 0) return null;
            Level swap = cur; cur = next; next = swap;
        }
        return cur.build();
    }

    /** Steps counted configurations over one byte of a token. */
    private void stepByte(Level cur, int b, ByteStep cursor, Level next) {
        for (int i = 0; i < cur.size; i++) {
            int n = limitOf(cur.scanStates[i]);
            boolean atLimit = n > 0 && cur.counts[i] >= n; // it ends before this byte: no continuing it
            cursor.reset(cur.parsers[i], cur.scanStates[i], b);
            while (cursor.next()) {
                if (cursor.started() >= 0) next.add(cursor.parser(), cursor.state(), -1);
                else if (!atLimit) next.add(cursor.parser(), cursor.state(), cur.counts[i]);
            }
        }
    }

    /**
     * The token ended: each limited lexeme in progress has overlapped one more token. At its limit it
     * ends here (if it may); below it, it stays only if it can still finish in the tokens left.
     */
    private Counted endOfToken(Matcher m, Counted stepped, Map<Long, Map<EarleyState, Boolean>> memo) {
        Level out = new Level();
        Configurations c = stepped.configs;
        for (int i = 0; i < c.size(); i++) {
            int count = countAtEnd(m, c.parsers[i], c.scanStates[i], stepped.counts[i], memo);
            if (count >= 0) out.add(c.parsers[i], c.scanStates[i], count);
        }
        return out.size == 0 ? null : out.build();
    }

    /** Whether some configuration of the stepped token outlives its end ({@link #endOfToken} not null). */
    private boolean outlivesEnd(Matcher m, Level stepped, Map<Long, Map<EarleyState, Boolean>> memo) {
        for (int i = 0; i < stepped.size; i++) {
            if (countAtEnd(m, stepped.parsers[i], stepped.scanStates[i], stepped.counts[i], memo) >= 0) return true;
        }
        return false;
    }

    /** The count of configuration (p, q) after the token's end (its count before it: {@code before}); -1 when it dies there. */
    private int countAtEnd(Matcher m, EarleyState p, int q, int before, Map<Long, Map<EarleyState, Boolean>> memo) {
        int n = limitOf(q);
        if (n == 0) return 0;
        int count = Math.max(0, before) + 1;
        int t = scanner.terminalOf(q), local = q - scanner.offset(t);
        if (count >= n) {
            // at its limit: it ends here, lazily as every terminal does (the next byte may not continue it)
            return scanner.terminal(t).isAccepting(local) ? n : -1;
        }
        return canFinish(m, p, q, n - count, memo) ? count : -1;
    }

    /**
     * Whether the lexeme that configuration (p, q) is inside of can end within {@code left} more tokens:
     * now (it accepts), inside a token (which then goes on past it), or after a token that stays inside
     * it and leaves a state from which that holds again. Lexemes started after it are not looked at
     * here (they are checked when their token comes).
     */
    private boolean canFinish(Matcher m, EarleyState p, int q, int left, Map<Long, Map<EarleyState, Boolean>> memo) {
        int t = scanner.terminalOf(q), local = q - scanner.offset(t);
        int need = bytesToAccept[t][local];
        if (need == 0) return true;
        if (need <= left && vocabulary.hasEverySingleByte()) return true; // one byte per token gets there
        if (left <= 0) return false;
        // a shortest way to the end visits each state at most once between tokens: more tokens than
        // states change nothing (and the search's depth stays bounded by the automaton)
        left = Math.min(left, scanner.terminal(t).stateCount());
        Map<EarleyState, Boolean> known = memo.computeIfAbsent(((long) q << 32) | left, k -> new HashMap<>());
        Boolean k = known.get(p);
        if (k != null) return k;
        boolean can = searchesByWalks(m) ? canFinishByWalks(m, p, q, left, memo) : canFinishTokenByToken(m, p, q, left, memo);
        known.put(p, can);
        return can;
    }

    /**
     * Whether {@link #canFinish} may search with the per-state walks of the trie: every token it may use
     * is a grammar token in the trie, with nothing else to check (no lookahead bound, no token
     * terminals, no stop token among the grammar tokens).
     */
    private boolean searchesByWalks(Matcher m) {
        if (m.lookahead() != Matcher.UNLIMITED_LOOKAHEAD || m.artifact().tokenTerminals.length > 0) return false;
        for (int id : m.stopTokens()) if (id < vocabulary.size() && vocabulary.isGrammarToken(id)) return false;
        return true;
    }

    /**
     * {@link #canFinish} from the walks of the lexeme's automaton: a token that stays inside and ends
     * where the lexeme accepts or can still finish in one token less, or a token in which the lexeme
     * ends and whose rest the parser takes.
     */
    private boolean canFinishByWalks(Matcher m, EarleyState p, int q, int left, Map<Long, Map<EarleyState, Boolean>> memo) {
        int t = scanner.terminalOf(q), offset = scanner.offset(t);
        LexemeInsideWalks walks = insideWalks(m);
        LexemeInsideWalks.Inside in = walks.inside(t, q - offset);
        Terminal automaton = scanner.terminal(t);
        for (int x : in.endStates()) {
            if (automaton.isAccepting(x)) return true;
            if (left > 1 && canFinish(m, p, offset + x, left - 1, memo)) return true;
        }
        if (in.endNodeChildren() == 0) return false;
        EarleyState after = parser.scan(p, t);
        if (after == parser.dead) return false;
        return endingInside(walks, in, after, new TrieWalk(m, walks.trie(), memo, null));
    }

    /** {@link #canFinish}, trying the vocabulary's tokens one by one. */
    private boolean canFinishTokenByToken(Matcher m, EarleyState p, int q, int left, Map<Long, Map<EarleyState, Boolean>> memo) {
        int t = scanner.terminalOf(q);
        Configurations single = new Configurations(new EarleyState[] {p}, new int[] {q});
        int[] inside = {0};
        boolean can = false;
        for (int id = 0; id < vocabulary.size() && !can; id++) {
            if (m.isStopToken(id)) continue;
            if (m.tokenTerminalSuccessors(single, id) != null) { can = true; break; }
            if (!vocabulary.isGrammarToken(id) || !m.withinLookaheadOf(single, vocabulary.bytes(id))) continue;
            Counted after = step(single, inside, vocabulary.bytes(id));
            if (after == null) continue;
            for (int i = 0; i < after.configs.size() && !can; i++) {
                if (after.counts[i] < 0) { can = true; break; } // it ended inside the token
                int q2 = after.configs.scanStates[i];
                int local2 = q2 - scanner.offset(t);
                can = left == 1 ? scanner.terminal(t).isAccepting(local2) : canFinish(m, p, q2, left - 1, memo);
            }
        }
        return can;
    }

    // ---------------------------------------------------------------- masks

    /**
     * Whether a limit may remove a token from the next mask: a lexeme in progress near its limit, or a
     * lexeme that might not finish in its tokens when it starts inside the next token.
     */
    boolean mayBite(Configurations c, int[] counts) {
        if (!startsSafe) return true;
        for (int i = 0; i < c.size(); i++) {
            int q = c.scanStates[i];
            int n = limitOf(q);
            if (n == 0) continue;
            int t = scanner.terminalOf(q);
            if ((long) counts[i] + 1 + mostBytesToAccept[t] > n) return true;
        }
        return false;
    }

    /**
     * Clears from the mask the tokens (not stop tokens) that no path can take within the limits. Paths
     * from different configurations never meet before the token's end except where one keeps the
     * smaller count, which lets through all the other does; so the tokens that pass are the union,
     * over the configurations, of the tokens that pass from each alone ({@link #passedFrom}, kept per
     * artifact: a lexeme near its limit comes back to the same few configurations). Tokens the
     * vocabulary trie does not hold (special tokens a token terminal may allow) are decided one by one
     * by {@link #successors}.
     */
    void filter(Matcher m, Configurations c, int[] counts, int[] mask, int base) {
        if (!mayBite(c, counts)) return;
        Map<Long, Map<EarleyState, Boolean>> memo = new HashMap<>();
        int[] stopIds = m.stopTokens();
        String stops = java.util.Arrays.toString(stopIds);
        int words = m.bitmaskInts();
        int[] passed = null;
        for (int i = 0; i < c.size(); i++) {
            int[] one = passedFrom(m, c.parsers[i], c.scanStates[i], counts[i], stops, memo);
            if (passed == null) { passed = one; continue; }
            if (i == 1) passed = passed.clone();
            for (int w = 0; w < words; w++) passed[w] |= one[w];
        }
        if (passed == null) passed = new int[words];
        boolean tokenTerminals = m.artifact().tokenTerminals.length > 0;
        if (!tokenTerminals && m.lookahead() == Matcher.UNLIMITED_LOOKAHEAD) {
            // the common case, word by word: only grammar tokens can pass, stop tokens are left as they are
            boolean[] stopWas = new boolean[stopIds.length];
            for (int k = 0; k < stopIds.length; k++) stopWas[k] = stopIds[k] < words * 32 && (mask[base + (stopIds[k] >>> 5)] & (1 << stopIds[k])) != 0;
            for (int w = 0; w < words; w++) mask[base + w] &= passed[w];
            for (int k = 0; k < stopIds.length; k++) if (stopWas[k]) mask[base + (stopIds[k] >>> 5)] |= 1 << stopIds[k];
            return;
        }
        for (int word = 0; word < words; word++) {
            for (int bits = mask[base + word]; bits != 0; bits &= bits - 1) {
                int id = (word << 5) + Integer.numberOfTrailingZeros(bits);
                if (id >= vocabulary.size() || m.isStopToken(id)) continue;
                boolean byBytes = (passed[word] & (1 << id)) != 0
                        && (m.lookahead() == Matcher.UNLIMITED_LOOKAHEAD || m.withinLookaheadOf(c, vocabulary.bytes(id)));
                if (byBytes) continue;
                boolean special = tokenTerminals && m.tokenTerminalSuccessors(c, id) != null;
                if (!special || successors(m, c, counts, id, memo) == null) mask[base + word] &= ~(1 << (id & 31));
            }
        }
    }

    /** A configuration with its count, as the matcher that asks sees it (lookahead and stop tokens bear on {@link #canFinish}). */
    private record PassKey(EarleyState parser, int scanState, int count, int lookahead, String stops) {}

    /** Per configuration: the grammar tokens whose bytes some path from it alone outlives, 32 a word as masks are. */
    private final BoundedCache<PassKey, int[]> passedCache = new BoundedCache<>("lexeme token limits", 8L << 20);

    /** Per (terminal, state): the walk of the automaton alone over the trie (built on first use). */
    private volatile LexemeInsideWalks insideWalks;

    private LexemeInsideWalks insideWalks(Matcher m) {
        LexemeInsideWalks w = insideWalks;
        if (w == null) insideWalks = w = new LexemeInsideWalks(scanner, VocabTrie.of(vocabulary), m.bitmaskInts());
        return w;
    }

    /**
     * The tokens that pass from configuration (p, q) with its count: those that stay inside q's
     * lexeme to their last byte, decided by the state they end in (one look-up per end state, the
     * tokens from {@link LexemeInsideWalks}), and those in which the lexeme ends: the parser is
     * stepped only from there, through the rest of the token (a {@link TrieWalk} of that subtree).
     * The same tokens as one walk stepping (p, q) through the whole trie: paths that stay inside and
     * paths that leave never share a configuration except where one keeps the smaller count.
     */
    private int[] passedFrom(Matcher m, EarleyState p, int q, int count, String stops, Map<Long, Map<EarleyState, Boolean>> memo) {
        PassKey key = new PassKey(p, q, count, m.lookahead(), stops);
        int[] passed = passedCache.get(key);
        if (passed != null) return passed;
        LexemeInsideWalks walks = insideWalks(m);
        TrieWalk deep = new TrieWalk(m, walks.trie(), memo, new int[m.bitmaskInts()]);
        if (q == ScannerStates.BETWEEN) {
            startedAtRoot(m, walks, p, deep);
        } else {
            int t = scanner.terminalOf(q);
            LexemeInsideWalks.Inside in = walks.inside(t, q - scanner.offset(t));
            boolean goesOn = limit[t] == 0 || count < limit[t]; // at its limit it ends before the next byte
            if (goesOn) stayingInside(m, p, t, in, count, deep.passed, memo);
            if (!in.endNodes().isEmpty()) {
                EarleyState after = parser.scan(p, t);
                if (after != parser.dead) {
                    if (in.endNodes().get(0)) startedAtRoot(m, walks, after, deep); // it ends before the token
                    if (goesOn) endingInside(walks, in, after, deep);
                }
            }
        }
        return passedCache.putIfAbsent(key, deep.passed, 64L + 4L * deep.passed.length);
    }

    /** Tokens that stay inside terminal t from the walk's state, kept where their end state outlives the token's end. */
    private void stayingInside(Matcher m, EarleyState p, int t, LexemeInsideWalks.Inside in, int before, int[] passed,
                               Map<Long, Map<EarleyState, Boolean>> memo) {
        int offset = scanner.offset(t);
        int[] ends = in.endStates();
        for (int i = 0; i < ends.length; i++) {
            if (countAtEnd(m, p, offset + ends[i], before, memo) >= 0) in.addTokens(i, passed);
        }
    }

    /** Tokens whose first byte starts a terminal that parser state p expects (between lexemes). */
    private void startedAtRoot(Matcher m, LexemeInsideWalks walks, EarleyState p, TrieWalk deep) {
        long[] expected = p.expected;
        for (int w = 0; w < expected.length; w++) {
            for (long bits = expected[w]; bits != 0; bits &= bits - 1) {
                int t = (w << 6) + Long.numberOfTrailingZeros(bits);
                if (t >= limit.length) continue;
                LexemeInsideWalks.Inside in = walks.inside(t, scanner.terminal(t).start());
                stayingInside(m, p, t, in, -1, deep.passed, deep.memo); // started in the token: -1, as stepping counts it
                EarleyState after = parser.scan(p, t);
                if (after != parser.dead) endingInside(walks, in, after, deep);
            }
        }
    }

    /**
     * Tokens in which a terminal ends at a trie node below the root ({@code endNodes}) and the next byte
     * starts a terminal that parser state {@code after} (the parser past it) expects: the rest of each such
     * token is walked with the parser. The edges out of end nodes are found from whichever side is
     * smaller: the end nodes' children, or the trie's edges labelled with a byte that can start a terminal.
     * With a walk that marks no tokens ({@code deep.passed} null), only whether there is such a token.
     */
    private boolean endingInside(LexemeInsideWalks walks, LexemeInsideWalks.Inside in, EarleyState after, TrieWalk deep) {
        VocabTrie trie = walks.trie();
        java.util.BitSet endNodes = in.endNodes();
        Level between = new Level();
        between.add(after, ScannerStates.BETWEEN, -1);
        Level[] started = new Level[256];
        long byteEdges = 0;
        for (int b = 0; b < 256; b++) {
            int from = trie.byteEdgesFrom(b, 0), to = trie.byteEdgesTo(b, 0);
            if (from == to) continue;
            Level l = new Level();
            stepByte(between, b, deep.cursor, l);
            if (l.size == 0) continue;
            started[b] = l;
            byteEdges += to - from;
        }
        if (byteEdges == 0) return false;
        if (in.endNodeChildren() < byteEdges) {
            for (int node = endNodes.nextSetBit(1); node >= 0; node = endNodes.nextSetBit(node + 1)) {
                for (int e = trie.firstChild(node), last = trie.endChild(node); e < last; e++) {
                    Level l = started[trie.childByte(e)];
                    if (l != null && deep.walkFrom(trie.childNode(e), l)) return true;
                }
            }
            return false;
        }
        for (int b = 0; b < 256; b++) {
            if (started[b] == null) continue;
            for (int i = trie.byteEdgesFrom(b, 0), to = trie.byteEdgesTo(b, 0); i < to; i++) {
                int edge = trie.byteEdge(i);
                int parent = walks.parentOf(edge);
                if (parent != 0 && endNodes.get(parent) && deep.walkFrom(trie.childNode(edge), started[b])) return true;
            }
        }
        return false;
    }

    /**
     * The walk of {@link #passedFrom}: one depth-first walk of the vocabulary's byte trie, stepping the
     * counted configurations once per trie node (tokens sharing a prefix share its steps) and going no
     * deeper where none survives; at a token's node, whether any configuration outlives the token's end.
     */
    private final class TrieWalk {
        final Matcher m;
        final VocabTrie trie;
        final Map<Long, Map<EarleyState, Boolean>> memo;
        final ByteStep cursor = new ByteStep(scanner, parser);
        final Level[] levels;
        final int[] passed;

        TrieWalk(Matcher m, VocabTrie trie, Map<Long, Map<EarleyState, Boolean>> memo, int[] passed) {
            this.m = m; this.trie = trie; this.memo = memo; this.passed = passed;
            levels = new Level[trie.maxTokenBytes() + 2];
        }

        Level level(int depth) {
            if (levels[depth] == null) levels[depth] = new Level();
            return levels[depth];
        }

        /**
         * Walks the subtree of {@code node} from the configurations {@code start} (those after the edge into
         * it). Without {@link #passed}: whether some token there is taken at all, stopping at the first.
         */
        boolean walkFrom(int node, Level start) {
            levels[1] = start;
            boolean found = visit(node, 1);
            levels[1] = null;
            return found;
        }

        /** Walks node's subtree from the configurations at its depth; true (without {@link #passed}) at the first token taken. */
        private boolean visit(int node, int depth) {
            Level here = levels[depth];
            if (here.size == 1 && here.scanStates[0] != ScannerStates.BETWEEN) {
                int q = here.scanStates[0], t = scanner.terminalOf(q);
                return inside(node, depth, here.parsers[0], t, q - scanner.offset(t), here.counts[0], true);
            }
            return stepAll(node, depth);
        }

        /** Steps every configuration at node's depth through each child edge (lexemes may end and start). */
        private boolean stepAll(int node, int depth) {
            Level here = levels[depth];
            int start = trie.tokenStart(node), end = trie.tokenEnd(node);
            if (start < end) {
                if (passed == null) return true;
                if (outlivesEnd(m, here, memo)) mark(start, end);
            }
            Level next = level(depth + 1);
            for (int e = trie.firstChild(node), last = trie.endChild(node); e < last; e++) {
                next.clear();
                stepByte(here, trie.childByte(e), cursor, next);
                if (next.size > 0 && visit(trie.childNode(e), depth + 1)) return true;
            }
            return false;
        }

        /**
         * One configuration inside terminal t at local state x: where the lexeme cannot end, a byte can only
         * continue it, so the automaton alone is stepped (no parser, no configuration sets) until a state
         * where it may end, from which {@link #stepAll} takes over. {@code entry}: the configuration is
         * already the level at this depth.
         */
        private boolean inside(int node, int depth, EarleyState p, int t, int x, int count, boolean entry) {
            Terminal automaton = scanner.terminal(t);
            if (automaton.isAccepting(x)) {
                if (!entry) {
                    Level l = level(depth);
                    l.clear();
                    l.add(p, scanner.offset(t) + x, count);
                }
                return stepAll(node, depth);
            }
            int start = trie.tokenStart(node), end = trie.tokenEnd(node);
            if (start < end) {
                if (passed == null) return true;
                if (countAtEnd(m, p, scanner.offset(t) + x, count, memo) >= 0) mark(start, end);
            }
            if (limit[t] > 0 && count >= limit[t]) return false; // at its limit no byte continues it
            for (int e = trie.firstChild(node), last = trie.endChild(node); e < last; e++) {
                int x2 = automaton.step(x, trie.childByte(e));
                if (x2 >= 0 && inside(trie.childNode(e), depth + 1, p, t, x2, count, false)) return true;
            }
            return false;
        }

        private void mark(int start, int end) {
            for (int i = start; i < end; i++) { int id = trie.token(i); passed[id >>> 5] |= 1 << id; }
        }
    }

    // ---------------------------------------------------------------- counted set

    /** Configurations with counts, deduplicated; an equal configuration keeps the smaller count. */
    private static final class Level {
        private final Configurations.Builder configs = new Configurations.Builder();
        EarleyState[] parsers = configs.parsers;
        int[] scanStates = configs.scanStates;
        int[] counts = new int[4];
        int size;

        void clear() {
            configs.clear();
            size = 0;
        }

        void add(EarleyState p, int q, int count) {
            if (!configs.addIfAbsent(p, q)) {
                for (int i = 0; i < size; i++) {
                    if (scanStates[i] == q && parsers[i].equals(p)) { counts[i] = Math.min(counts[i], count); break; }
                }
                return;
            }
            parsers = configs.parsers;
            scanStates = configs.scanStates;
            if (size == counts.length) counts = java.util.Arrays.copyOf(counts, size * 2);
            counts[size++] = count;
        }

        Counted build() { return new Counted(configs.build(), java.util.Arrays.copyOf(counts, size)); }
    }
}
