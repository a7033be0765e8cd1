package dev.domino.runtime.internal.mask;

import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.vocab.*;

/**
 * The part of a mask that a configuration contributes, computed without its tree (llguidance's
 * method): the vocabulary trie walked depth first from the configuration, each byte stepped with
 * the byte kernel ({@link ByteStep}) for every live (parser state, scanner state) pair, a trie
 * subtree pruned as soon as no pair survives its edge, and the tokens ending at surviving nodes
 * allowed. A token is allowed exactly when some lexing of its bytes survives, completing at most
 * {@code lookahead + 1} terminals: what the tree walk and {@code Matcher}'s byte-by-byte checks
 * allow, by construction, counted terminals included (their counts are stepped, not looked up).
 *
 * <p>Why: a lazy artifact builds a state's tree on first use, tens of milliseconds for a JSON
 * string's tree over a 128k vocabulary, which is most of the mask time on schemas a server has
 * not seen. A direct walk costs what the parser allows, not the whole vocabulary:
 * <ul>
 *   <li>where a configuration is inside a terminal at the trie root, the terminal's shared walk
 *       ({@link TerminalWalks}, per vocabulary: llguidance's "slices") gives at once the tokens
 *       that stay inside it (a JSON string's body: nearly the whole vocabulary, one precomputed
 *       set) and the trie nodes where it may end; only the paths after such an end are stepped;</li>
 *   <li>the same where a terminal starts at the token's first byte;</li>
 *   <li>below the root, a lone configuration whose state loops on every byte of the subtree, and
 *       can neither leave it nor end the terminal into something the parser expects, allows the
 *       whole subtree as one range.</li>
 * </ul>
 * The pairs live at one trie depth are deduplicated (one pair, the fewest terminals completed).
 *
 * <p>One per matcher (not thread-safe), or per thread.
 */
public final class DirectMask {
    private final ScannerStates scanner;
    private final EarleyParser parser;
    private final VocabTrie trie;
    private final int vocabSize;
    /** The vocabulary's longest token in bytes (Λ of {@link CountedLoop}). */
    private final int lambda;
    /** Most terminals a token may complete: lookahead + 1 (a long: unlimited lookahead is Integer.MAX_VALUE). */
    private final long maxCompleted;
    /** Per recursion depth, the live pairs. */
    private Level[] levels = new Level[0];

    // the mask being filled
    private int[] mask;
    private int base;

    /** Trie nodes and pairs stepped in this object's life (profiling). */
    private long nodesVisited;

    public DirectMask(ScannerStates scanner, EarleyParser parser, VocabTrie trie, int vocabSize, int lookahead) {
        this.scanner = scanner;
        this.parser = parser;
        this.trie = trie;
        this.vocabSize = vocabSize;
        this.lambda = trie.maxTokenBytes();
        this.maxCompleted = (long) lookahead + 1;
    }

    public long nodesVisited() { return nodesVisited; }

    /**
     * ORs into {@code mask[base..]} (32 tokens per int) the grammar tokens configuration (p, q)
     * allows, as its tree's walk would.
     */
    public void addConfiguration(EarleyState p, int q, int[] mask, int base) {
        this.mask = mask;
        this.base = base;
        if (q == ScannerStates.BETWEEN) {
            startAllAtRoot(p, 0);
            return;
        }
        int t = scanner.terminalOf(q);
        Terminal terminal = scanner.terminal(t);
        int local = q - scanner.offset(t);
        CountedLoop counted = terminal.counted();
        if (counted == null) {
            walkFrom(p, t, terminal.dfa(), local, 0);
        } else if (counted.sharesLoopTree(local, lambda)) {
            // no token reaches a bound of the count from here: the loop automaton alone decides (as its shared tree)
            walkFrom(p, t, terminal.dfa(), counted.loopState(local), 0);
        } else {
            walkCounted(p, t, terminal, local, 0);
        }
    }

    /**
     * ORs the tokens whose first byte starts terminal t from parser state p (which expects t),
     * after {@code completed} terminals: what a tree's reference to t's root tree stands for.
     */
    public void addStarting(EarleyState p, int t, int completed, int[] mask, int base) {
        this.mask = mask;
        this.base = base;
        startAtRoot(p, t, completed);
    }

    // ---------------------------------------------------------------- at the trie root

    /** Every terminal p expects, started at the token's first byte. */
    private void startAllAtRoot(EarleyState p, int completed) {
        long[] expected = p.expected;
        for (int w = 0; w < expected.length; w++) {
            for (long x = expected[w]; x != 0; x &= x - 1) startAtRoot(p, (w << 6) + Long.numberOfTrailingZeros(x), completed);
        }
    }

    private void startAtRoot(EarleyState p, int t, int completed) {
        Terminal terminal = scanner.terminal(t);
        if (terminal.tokens() != null) return; // matches whole tokens by id (the matcher's own pass)
        CountedLoop counted = terminal.counted();
        ByteDfa dfa = terminal.dfa();
        if (counted == null || counted.plainEntry(lambda)) {
            walkFrom(p, t, dfa, dfa.start(), completed);
            return;
        }
        // a count a token can take to its bounds: count 0, in the loop's start state
        walkCounted(p, t, terminal, dfa.start(), completed);
    }

    /**
     * Inside counted terminal t at local state {@code local} (a count a token can take to its bounds),
     * at the trie root: the tokens of its counted walk whose room fits the count, then the ends
     * whose count lies within the bounds, stepped from the parser state after it.
     */
    private void walkCounted(EarleyState p, int t, Terminal terminal, int local, int completed) {
        CountedLoop counted = terminal.counted();
        int c = counted.count(local);
        CountedWalk w = trie.walks().counted(terminal.dfa(), counted, counted.loopState(local), vocabSize);
        long room = counted.unbounded() ? Long.MAX_VALUE : (long) counted.max() - c;
        w.orTokensWithin(room, mask, base);
        if (completed + 1 > maxCompleted) return;
        EarleyState after = parser.scan(p, t);
        if (after == parser.dead) return;
        int done = completed + 1;
        if (counted.isAccepting(local)) startAllAtRoot(after, done);
        Level next = level(0);
        for (int b = 0; b < 256; b++) {
            if (!startsWith(after, b)) continue;
            int[] ends = w.ends(b); // triples: child node, copies, need
            boolean started = false;
            for (int i = 0; i < ends.length; i += 3) {
                if ((long) c + ends[i + 1] < counted.min() || ends[i + 2] > room || covered(ends[i])) continue;
                if (!started) {
                    if (!startsAfter(after, b, done, next)) break;
                    started = true;
                }
                enter(ends[i], 0);
            }
        }
    }

    /**
     * Inside terminal t at state s of its automaton {@code dfa} (the loop automaton of a counted
     * terminal whose bounds no token reaches), at the trie root: its shared walk's tokens, then the
     * paths where it ends, stepped from the parser state after it.
     */
    private void walkFrom(EarleyState p, int t, ByteDfa dfa, int s, int completed) {
        TerminalWalks walks = trie.walks();
        TerminalWalks.Walk w = walks.cachedWalk(dfa, s);
        if (w == null && scanner.terminal(t).counted() == null) {
            UnitRun run = walks.unitRun(dfa, s);
            if (run != null) {
                walkRun(p, t, run, completed);
                return;
            }
        }
        if (w == null) w = walks.get(dfa, s, vocabSize);
        w.continuation().orInto(mask, base);
        if (!w.endsAtRoot() && w.endChildCount() == 0) return;
        if (completed + 1 > maxCompleted) return;
        EarleyState after = parser.scan(p, t);
        if (after == parser.dead) return;
        int done = completed + 1;
        if (w.endsAtRoot()) startAllAtRoot(after, done);
        Level next = level(0);
        for (int b = 0; b < 256; b++) {
            if (!w.endsBefore(b) || !startsAfter(after, b, done, next)) continue;
            for (int child : w.endChildren(b)) if (!covered(child)) enter(child, 0);
        }
        if (!w.hasLoopEnds()) return;
        // the terminal may end anywhere in such a subtree, whose bytes all loop: the next terminal starts
        // with a loop byte, and only bytes that start something the parser expects matter
        long startLo = asciiStarts(after)[0], startHi = asciiStarts(after)[1];
        if (!w.loopEndsStart(startLo, startHi)) return;
        int[] loopNodes = w.loopEndNodes();
        long[] loopBytes = w.loopEndBytes();
        for (int i = 0; i < loopNodes.length; i++) {
            long lo = loopBytes[2 * i] & startLo, hi = loopBytes[2 * i + 1] & startHi;
            while ((lo | hi) != 0) {
                int b;
                if (lo != 0) { b = Long.numberOfTrailingZeros(lo); lo &= lo - 1; }
                else { b = 64 + Long.numberOfTrailingZeros(hi); hi &= hi - 1; }
                int from = trie.byteEdgesFrom(b, loopNodes[i]), to = trie.byteEdgesTo(b, loopNodes[i]);
                if (from == to || !startsAfter(after, b, done, next)) continue;
                for (int e = from; e < to; e++) {
                    int child = trie.childNode(trie.byteEdge(e));
                    if (!covered(child)) enter(child, 0);
                }
            }
        }
    }

    /**
     * Inside terminal t at a state that is a {@link UnitRun} (a short string unrolled into the automaton), at
     * the trie root: the loop's counted walk, its tokens whose room fits the run's max, then its ends whose
     * count lies within the run's bounds, each followed by an exit of the run (inside t) or by the end of t.
     */
    private void walkRun(EarleyState p, int t, UnitRun run, int completed) {
        CountedWalk w = trie.walks().counted(run.loop, run.counter, run.loopState, vocabSize);
        long room = run.max == UnitRun.UNBOUNDED ? Long.MAX_VALUE : run.max;
        w.orTokensWithin(room, mask, base);
        int offset = scanner.offset(t), done = completed + 1;
        EarleyState after = null;
        if (run.ends && done <= maxCompleted) {
            after = parser.scan(p, t);
            if (after == parser.dead) after = null;
        }
        Level next = level(0);
        if (run.atBoundary() && run.exitsAt(0)) {
            if (after != null) startAllAtRoot(after, done);
            for (int c = trie.firstChild(0), end = trie.endChild(0); c < end; c++) {
                int b = trie.childByte(c);
                if (run.hasExit(b) && afterRun(p, offset, run, after, b, completed, next)) enter(trie.childNode(c), 0);
            }
        }
        for (int b = 0; b < 256; b++) {
            if (!run.hasExit(b) && (after == null || !startsWith(after, b))) continue;
            int[] ends = w.ends(b); // triples: child node, copies, need
            boolean started = false;
            for (int i = 0; i < ends.length; i += 3) {
                if (!run.exitsAt(ends[i + 1]) || ends[i + 2] > room || covered(ends[i])) continue;
                if (!started) {
                    if (!afterRun(p, offset, run, after, b, completed, next)) break;
                    started = true;
                }
                enter(ends[i], 0);
            }
        }
    }

    /**
     * Fills {@code out} with the pairs live after byte b where the run may exit: its exit by b (inside terminal
     * t, whose states start at {@code offset}) and the terminals {@code after} expects that b starts.
     */
    private boolean afterRun(EarleyState p, int offset, UnitRun run, EarleyState after, int b, int completed, Level out) {
        if (after == null || !startsAfter(after, b, completed + 1, out)) out.clear();
        if (run.hasExit(b)) out.add(p, offset + run.exit(b), completed);
        return out.size > 0;
    }

    /** Whether byte b starts a terminal p expects. */
    private boolean startsWith(EarleyState p, int b) {
        long[] starters = scanner.startersBits(b), expected = p.expected;
        for (int w = 0; w < starters.length; w++) if ((starters[w] & expected[w]) != 0) return true;
        return false;
    }

    /** Fills {@code out} with the terminals p expects that byte b starts; false when there is none. */
    private boolean startsAfter(EarleyState p, int b, int completed, Level out) {
        out.clear();
        long[] starters = scanner.startersBits(b), expected = p.expected;
        for (int w = 0; w < starters.length; w++) {
            for (long x = starters[w] & expected[w]; x != 0; x &= x - 1) {
                int t = (w << 6) + Long.numberOfTrailingZeros(x);
                out.add(p, scanner.offset(t) + scanner.terminal(t).startStep(b), completed);
            }
        }
        return out.size > 0;
    }

    // ---------------------------------------------------------------- below the root

    /** Trie node n was reached with the (non-empty) pairs of {@code levels[d]}: its tokens, then below it. */
    private void enter(int n, int d) {
        orTokens(trie.tokenStart(n), trie.tokenEnd(n));
        if (trie.firstChild(n) == trie.endChild(n) || wholeSubtree(n, levels[d])) return;
        below(n, d);
    }

    /** Steps the pairs of {@code levels[d]} (at trie node n) over each child edge of n. */
    private void below(int n, int d) {
        Level cur = levels[d];
        Level next = level(d + 1);
        ByteStep[] steps = cur.steps(scanner, parser);
        for (int i = 0; i < cur.size; i++) steps[i].from(cur.parsers[i], cur.states[i]);
        for (int c = trie.firstChild(n), end = trie.endChild(n); c < end; c++) {
            int b = trie.childByte(c);
            next.clear();
            for (int i = 0; i < cur.size; i++) {
                ByteStep step = steps[i].over(b);
                int done = cur.completed[i];
                while (step.next()) {
                    int k = step.crossed() ? done + 1 : done;
                    if (k <= maxCompleted) next.add(step.parser(), step.state(), k);
                }
            }
            nodesVisited++;
            if (next.size > 0) enter(trie.childNode(c), d + 1);
        }
    }

    /**
     * True (and the subtree's tokens ORed) when one pair is live and every byte below n keeps its
     * automaton in its state, where it either cannot end or, ended, cannot start anything the
     * parser expects with such a byte: every token below survives, nothing else can happen.
     */
    private boolean wholeSubtree(int n, Level level) {
        if (level.size != 1 || trie.subtreeEnd(n) - n < 8) return false;
        int q = level.states[0];
        if (q == ScannerStates.BETWEEN) return false;
        int t = scanner.terminalOf(q);
        Terminal terminal = scanner.terminal(t);
        int local = q - scanner.offset(t);
        CountedLoop counted = terminal.counted();
        boolean plain = counted == null || counted.sharesLoopTree(local, lambda);
        int s = counted == null ? local : counted.loopState(local);
        ByteDfa dfa = terminal.dfa();
        long[] loops = dfa.asciiLoops();
        long lo = loops[2 * s], hi = loops[2 * s + 1];
        if ((lo | hi) == 0 || !trie.subtreeWithin(n, lo, hi)) return false;
        // (a counted terminal's loop state may be accepting before the count allows an end: a bound, not exact)
        if (dfa.isAccepting(s) && level.completed[0] + 1 <= maxCompleted) {
            EarleyState after = parser.scan(level.parsers[0], t);
            if (after != parser.dead && startsWithAny(after, lo, hi)) return false;
        }
        if (plain || !counted.startsCopy(s)) {
            orTokens(trie.tokenStart(n), trie.subtreeTokenEnd(n));
        } else {
            // each byte below starts a copy: a token d bytes below n is allowed while the count has room for d more
            // copies and those still needed to finish (see CountedLoop#step)
            long depth = (long) counted.remaining(local) - counted.unitsToFinish(s);
            orTokensWithin(n, (int) Math.min(depth, lambda));
        }
        return true;
    }

    /** ORs the tokens of the nodes at most {@code depth} edges below n (n's own are ORed already). */
    private void orTokensWithin(int n, int depth) {
        if (depth <= 0) return;
        if (trie.height(n) <= depth) {
            // the whole subtree: its tokens are one run of the trie's token list
            orTokens(trie.tokenEnd(n), trie.subtreeTokenEnd(n));
            return;
        }
        // nodes in preorder: the subtree is [n, subtreeEnd), each within reach when its depth allows
        int limit = trie.depth(n) + depth;
        for (int m = n + 1, end = trie.subtreeEnd(n); m < end; m++) {
            if (trie.depth(m) <= limit) orTokens(trie.tokenStart(m), trie.tokenEnd(m));
        }
    }

    /** Whether p expects a terminal whose first byte can be one of the ASCII bytes in lo/hi. */
    private boolean startsWithAny(EarleyState p, long lo, long hi) {
        long[] starts = asciiStarts(p);
        return ((starts[0] & lo) | (starts[1] & hi)) != 0;
    }

    /** The last parser state {@link #asciiStarts} was asked for, and its answer (a mask asks for one state many times). */
    private EarleyState startsOf;
    private final long[] starts = new long[2];

    /** The ASCII bytes (2 longs) that start a terminal p expects. */
    private long[] asciiStarts(EarleyState p) {
        if (p != startsOf) {
            long lo = 0, hi = 0;
            for (int b = 0; b < 128; b++) if (startsWith(p, b)) { if (b < 64) lo |= 1L << b; else hi |= 1L << (b - 64); }
            starts[0] = lo;
            starts[1] = hi;
            startsOf = p;
        }
        return starts;
    }

    /**
     * Whether every token of trie node n's subtree (n's own included) is in the mask already: a walk below n
     * only ORs those tokens, so it could add nothing. Why: a free string split around a counted run
     * ({@code .*[0-9a-f]{64}.*} unanchored in a string) may end after nearly every byte, and each of its 44,000
     * end children was stepped byte by byte into the run (20 ms for one mask), below tokens its own walk had
     * allowed already.
     */
    private boolean covered(int n) {
        int[] m = mask;
        for (int i = trie.subtreeTokenStart(n), e = trie.subtreeTokenEnd(n); i < e; i++) {
            int id = trie.token(i);
            if ((m[base + (id >>> 5)] & (1 << id)) == 0) return false;
        }
        COVERED_SKIPS.increment();
        return true;
    }

    private static final java.util.concurrent.atomic.LongAdder COVERED_SKIPS = new java.util.concurrent.atomic.LongAdder();

    /** How many end children this process did not walk below, their subtrees' tokens all in the mask (tests check the mechanism is exercised). */
    public static long coveredSkips() { return COVERED_SKIPS.sum(); }

    private void orTokens(int from, int to) {
        int[] m = mask;
        for (int i = from; i < to; i++) {
            int id = trie.token(i);
            m[base + (id >>> 5)] |= 1 << id;
        }
    }

    private Level level(int d) {
        if (d >= levels.length) {
            int old = levels.length;
            levels = java.util.Arrays.copyOf(levels, Math.max(d + 1, old * 2 + 4));
            for (int i = old; i < levels.length; i++) levels[i] = new Level();
        }
        return levels[d];
    }

    /** The live pairs at one depth, each once with the fewest terminals completed (fewer allows more). */
    private static final class Level {
        private static final int INDEXED = 8;
        EarleyState[] parsers = new EarleyState[4];
        int[] states = new int[4];
        int[] completed = new int[4];
        int size;
        /** Byte-stepping cursors, one per pair (reused from call to call). */
        private ByteStep[] steps = new ByteStep[0];
        /** Open addressing over entry index + 1 (0 = free); null while size <= INDEXED. */
        private int[] index;

        ByteStep[] steps(ScannerStates scanner, EarleyParser parser) {
            if (steps.length < size) {
                int old = steps.length;
                steps = java.util.Arrays.copyOf(steps, parsers.length);
                for (int i = old; i < steps.length; i++) steps[i] = new ByteStep(scanner, parser);
            }
            return steps;
        }

        void clear() {
            size = 0;
            index = null;
        }

        private static int hash(EarleyState p, int q) { return (p.hashCode() * 31 + q) * 0x9E3779B1; }

        void add(EarleyState p, int q, int done) {
            int found = find(p, q);
            if (found >= 0) {
                if (done < completed[found]) completed[found] = done;
                return;
            }
            if (size == parsers.length) {
                parsers = java.util.Arrays.copyOf(parsers, size * 2);
                states = java.util.Arrays.copyOf(states, size * 2);
                completed = java.util.Arrays.copyOf(completed, size * 2);
            }
            parsers[size] = p;
            states[size] = q;
            completed[size] = done;
            size++;
            if (size > INDEXED && (index == null || size * 2 > index.length)) reindex();
            else if (index != null) insert(size - 1);
        }

        private int find(EarleyState p, int q) {
            if (index == null) {
                for (int i = 0; i < size; i++) if (states[i] == q && (parsers[i] == p || parsers[i].equals(p))) return i;
                return -1;
            }
            int m = index.length - 1;
            for (int h = hash(p, q) & m; index[h] != 0; h = (h + 1) & m) {
                int i = index[h] - 1;
                if (states[i] == q && (parsers[i] == p || parsers[i].equals(p))) return i;
            }
            return -1;
        }

        private void reindex() {
            index = new int[Integer.highestOneBit(size * 4 - 1) << 1];
            for (int i = 0; i < size; i++) insert(i);
        }

        private void insert(int i) {
            int m = index.length - 1;
            int h = hash(parsers[i], states[i]) & m;
            while (index[h] != 0) h = (h + 1) & m;
            index[h] = i + 1;
        }
    }
}
