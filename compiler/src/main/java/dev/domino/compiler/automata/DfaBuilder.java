package dev.domino.compiler.automata;

import dev.domino.compiler.automata.MinimalConcatenation.Ranged;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Regular IR expression → minimal byte DFA: Thompson NFA ({@link ByteNfa}), subset
 * construction into byte ranges per state, dead states removed, minimization by partition
 * refinement ({@link Minimizer}), states numbered canonically (BFS in byte order), so equal
 * languages give equal automata.
 *
 * <p>Everything is sparse (ranges and transitions, never a 256-entry row per state): a trie of
 * 10,000 enum values has 100,000 states with one or two ranges each, which dense rows would
 * multiply by 256.
 *
 * <p>Hand-written because this is the compile hot path: dk.brics.automaton, which works on
 * UTF-16 chars and minimizes with a high constant factor, serves as the independent reference
 * in the tests instead.
 */
public final class DfaBuilder {
    private final ByteNfa nfa;

    /** Above this many DFA states a piece is not worth being one terminal (see {@link TooLarge}). */
    public static final int MAX_STATES = 4000;

    /** Thrown when a terminal's automaton would exceed its state bound; the caller decomposes it instead. */
    public static final class TooLarge extends RuntimeException {
        TooLarge(int max) { super("automaton larger than " + max + " states", null, false, false); }
    }

    /** @param rules resolves a Ref's rule name to its (regular, non-recursive) body */
    public DfaBuilder(Function<String, Expr> rules) { this.nfa = new ByteNfa(rules); }

    /** A terminal's language: its automaton without the empty string, and whether it had it. */
    public record Language(ByteDfa dfa, boolean nullable) {
        /** True when nothing but possibly the empty string matches. */
        public boolean isEmpty() { return dfa == null; }
    }

    public Language build(Expr e) { return build(e, MAX_STATES); }

    /** As {@link #build(Expr)}, throwing {@link TooLarge} past {@code maxStates} subset states. */
    public Language build(Expr e, int maxStates) {
        if (e instanceof Expr.Literal l) {
            Ranged chain = literalChain(l, maxStates);
            if (chain != null) return new Language(chain.toByteDfa(), false);
        }
        if (e instanceof Expr.Seq seq) {
            Language byParts = minimalConcatenation(seq, maxStates);
            if (byParts != null) return byParts;
        }
        Sparse d = e instanceof Expr.Seq seq ? concatenation(seq, maxStates) : null;
        if (d == null) d = automaton(e, maxStates);
        return finish(d);
    }

    /** The subset construction of a (non-sequence) expression; a code point automaton's minimal byte automaton made directly. */
    private Sparse automaton(Expr e, int maxStates) {
        Sparse d = e instanceof Expr.Automaton a ? CodePointBytes.of(a.dfa(), maxStates) : null;
        return d != null ? d : determinize(nfa.build(e), maxStates);
    }

    /** {@link #build(Expr, int)} without {@link MinimalConcatenation} (tests compare both ways). */
    Language buildByJoin(Expr e, int maxStates) {
        Sparse d = e instanceof Expr.Seq seq ? concatenation(seq, maxStates) : null;
        if (d == null) d = determinize(nfa.build(e), maxStates);
        return finish(d);
    }

    /**
     * A sequence's minimal automaton from its items' minimal automata, right to left
     * ({@link MinimalConcatenation}), or null when that does not apply: a join that is not exact,
     * an item with a cycle before the last, an empty item, a sequence that matches the empty
     * string. Applies only where {@link #concatenation} joins (the same state bound on the items,
     * the same condition at each boundary), so a terminal is too large exactly when it was.
     */
    Language minimalConcatenation(Expr.Seq seq, int maxStates) {
        List<Expr> items = seq.items();
        int n = items.size();
        if (n < 2) return null;
        long states = 0;
        Sparse[] automata = new Sparse[n];
        for (int k = 0; k < n; k++) {
            try {
                automata[k] = itemAutomaton(items.get(k), maxStates);
            } catch (TooLarge tooLarge) {
                return null;
            }
            states += automata[k].boundStates();
            if (states > maxStates) return null;
        }
        // the longest suffix of shared items made before (the whitespace, colon and whitespace after every key)
        int sharedFrom = n;
        while (sharedFrom > 0 && shared(items.get(sharedFrom - 1))) sharedFrom--;
        MinimalConcatenation.Ranged m = null;
        int i = n - 1;
        for (int k = Math.max(sharedFrom, 1); k < n - 1; k++) {
            MinimalConcatenation.Ranged cached = SUFFIXES.get(items.subList(k, n));
            if (cached != null) { m = cached; i = k - 1; break; }
        }
        for (; i >= 0; i--) {
            MinimalConcatenation.Ranged part = minimalItem(items.get(i), automata[i]);
            if (part == null) return null;
            m = m == null ? part : MinimalConcatenation.prepend(part, m, i == 0);
            if (m == null) return null;
            if (i >= sharedFrom && i > 0 && i < n - 1) {
                List<Expr> suffix = List.copyOf(items.subList(i, n));
                SUFFIXES.putIfAbsent(suffix, m, 128 + m.estimatedBytes() + keyBytes(suffix));
            }
        }
        if (m.isAccepting(m.start())) return null; // the empty string is dropped by the general path
        return new Language(m.toByteDfa(), false);
    }

    /** An item's minimal automaton with the empty string when it has it; null for the empty language. */
    private static MinimalConcatenation.Ranged minimalItem(Expr item, Sparse automaton) {
        if (item instanceof Expr.Literal l) {
            Ranged chain = literalChain(l, Integer.MAX_VALUE);
            if (chain != null) return chain;
        }
        if (!isShareable(item)) {
            ByteDfa d = Minimizer.minimize(automaton);
            return d == null ? null : MinimalConcatenation.Ranged.of(d);
        }
        List<Expr> key = List.of(item);
        MinimalConcatenation.Ranged r = SUFFIXES.get(key);
        if (r == null) {
            ByteDfa d = Minimizer.minimize(automaton);
            if (d == null) return null;
            r = MinimalConcatenation.Ranged.of(d);
            SUFFIXES.putIfAbsent(key, r, 128 + r.estimatedBytes() + keyBytes(key));
        }
        return r;
    }

    /**
     * Items of suffixes worth keeping: not a literal of several characters (a key or a keyword names one
     * place in one schema; separators, whitespace and the value languages after a key recur everywhere).
     */
    private static boolean shared(Expr item) {
        return isShareable(item) && !(item instanceof Expr.Literal l && l.text().codePointCount(0, l.text().length()) > 1);
    }

    /**
     * Minimal automata of small items and of sequences of them ending a terminal, by structure, per
     * process: the tails of the member heads of generated grammars recur in every schema.
     */
    private static final dev.domino.runtime.internal.util.BoundedCache<List<Expr>, MinimalConcatenation.Ranged> SUFFIXES =
            dev.domino.runtime.internal.util.ProcessCaches.register(new dev.domino.runtime.internal.util.BoundedCache<>("sequence suffix automata", 16L << 20));

    private static boolean isSmall(Expr item) {
        return item instanceof Expr.Literal || item instanceof Expr.Chars
                || item instanceof Expr.Repeat r && (r.body() instanceof Expr.Literal || r.body() instanceof Expr.Chars);
    }

    /**
     * A non-empty literal's minimal automaton, made directly: the chain of its UTF-8 bytes, state i
     * stepping on byte i to state i + 1, the last state accepting. It is what the subset construction
     * and the minimization give (a chain is deterministic, trim and minimal: its states accept words of
     * different lengths; breadth-first numbering is chain order), without the NFA, the subsets and the
     * partition refinement that the key literal of every new member head paid for. Null for the empty
     * literal (the general path drops the empty string). Past {@code maxStates} states it is
     * {@link TooLarge}, as the subset construction would be.
     */
    static Ranged literalChain(Expr.Literal literal, int maxStates) {
        byte[] b = literal.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int n = b.length;
        if (n == 0) return null;
        if (n + 1 > maxStates) throw new TooLarge(maxStates);
        boolean[] accepting = new boolean[n + 1];
        accepting[n] = true;
        int[] rangeStart = new int[n + 2], lo = new int[n], hi = new int[n], target = new int[n];
        for (int i = 0; i < n; i++) {
            rangeStart[i] = i;
            lo[i] = hi[i] = b[i] & 0xFF;
            target[i] = i + 1;
        }
        rangeStart[n] = rangeStart[n + 1] = n;
        return new Ranged(n + 1, 0, accepting, rangeStart, lo, hi, target);
    }

    /** Nodes (counted as a tree) beyond which an item is not kept per process: hashing it would cost more than it saves. */
    static final int MAX_SHARED_ITEM_NODES = 256;

    /**
     * Items whose automata are kept per process ({@link #ITEMS}, {@link #SUFFIXES}): the small ones, and
     * reference-free expressions of at most {@link #MAX_SHARED_ITEM_NODES} nodes, such as the value
     * languages after a key (a number, a string body, a format), which every property of their type
     * repeats. A reference names a rule of one grammar, so an item with one is never kept.
     */
    public static boolean isShareable(Expr item) {
        return isSmall(item) || closedNodes(item, MAX_SHARED_ITEM_NODES) >= 0;
    }

    /** Estimated bytes the key expressions of a kept automaton hold on to (their nodes, literals and code point automata). */
    private static long keyBytes(List<Expr> items) {
        long bytes = 0;
        for (Expr e : items) bytes += exprBytes(e);
        return bytes;
    }

    /** Estimated bytes of an expression as a tree (for the bounds of per-process caches keyed by small expressions). */
    public static long exprBytes(Expr e) {
        if (e instanceof Expr.Literal l) return 48 + 2L * l.text().length();
        if (e instanceof Expr.Automaton a) return 64 + 8L * a.dfa().stateCount() + 12L * a.dfa().rangeCount();
        if (e instanceof Expr.Chars c) return 48 + 8L * c.set().rangeCount();
        long bytes = 48;
        if (e instanceof Expr.Seq s) for (Expr c : s.items()) bytes += exprBytes(c);
        else if (e instanceof Expr.Alt a) for (Expr c : a.options()) bytes += exprBytes(c);
        else if (e instanceof Expr.Repeat r) bytes += exprBytes(r.body());
        return bytes;
    }

    /** Nodes of a reference-free regular expression as a tree, or -1 when it has a reference or more than {@code budget} nodes. */
    private static int closedNodes(Expr e, int budget) {
        if (budget <= 0) return -1;
        if (e instanceof Expr.Literal || e instanceof Expr.Chars || e instanceof Expr.Automaton) return 1;
        List<Expr> children;
        if (e instanceof Expr.Seq s) children = s.items();
        else if (e instanceof Expr.Alt a) children = a.options();
        else if (e instanceof Expr.Repeat r) children = List.of(r.body());
        else return -1; // references and non-regular forms
        int used = 1;
        for (Expr c : children) {
            int k = closedNodes(c, budget - used);
            if (k < 0) return -1;
            used += k;
        }
        return used;
    }

    /** {@link #build(Expr, int)} by the subset construction of the whole expression (tests compare both ways). */
    Language buildBySubsets(Expr e, int maxStates) {
        return finish(determinize(nfa.build(e), maxStates));
    }

    /** The subset construction of one expression, before minimization (tests). */
    Sparse subsetAutomaton(Expr e) { return determinize(nfa.build(e), MAX_STATES); }

    /** As {@link #subsetAutomaton(Expr)} with a state bound (tests). */
    Sparse subsetAutomaton(Expr e, int maxStates) { return determinize(nfa.build(e), maxStates); }

    static Language finish(Sparse d) {
        boolean nullable = d.accepting[0];
        if (nullable) d = d.withoutEmptyString();
        return new Language(Minimizer.minimize(d), nullable);
    }

    /**
     * A sequence's automaton as its items' automata joined end to start, or null when that is
     * not exact or not cheaper (the caller then runs the subset construction on the whole).
     *
     * <p>Joining is exact when no accepting state of the left part shares a byte with the start
     * of the right part: after any prefix at most one of "the left part goes on" and "the right
     * part has started" survives the next byte, so the subsets of the whole are single states of
     * the parts (or an accepting left state together with the right start, which becomes that
     * state with the right start's ranges added). Generated grammars are made of such sequences:
     * {@code [ \t\n\r]{0,100} "\"key\"" [ \t\n\r]{0,100} ":"}, whose whitespace counters the subset
     * construction of the whole walked again in every key's terminal.
     *
     * <p>Items are built once per builder when small (literals, classes, bounded repeats of them).
     * The joined automaton is minimized like any other, so the result is the same automaton.
     */
    private Sparse concatenation(Expr.Seq seq, int maxStates) {
        List<Expr> items = seq.items();
        if (items.size() < 2) return null;
        Sparse joined = null;
        long states = 0;
        for (Expr item : items) {
            Sparse d;
            try {
                d = itemAutomaton(item, maxStates);
            } catch (TooLarge tooLarge) {
                return null; // the whole decides (its own bound, its own error)
            }
            states += d.boundStates();
            // more states than the whole may have: the subset construction decides on the bound
            if (states > maxStates) return null;
            joined = joined == null ? d : join(joined, d);
            if (joined == null) return null;
        }
        return joined;
    }

    /**
     * Small items' automata, by structure (cheap to hash: no shared subexpressions), per process: the
     * whitespace counters, quotes and separators of generated grammars recur in every schema. Never
     * changed once made ({@link #join} and {@link Sparse#withoutEmptyString} make new ones), so shared.
     */
    private static final dev.domino.runtime.internal.util.BoundedCache<Expr, Sparse> ITEMS =
            dev.domino.runtime.internal.util.ProcessCaches.register(new dev.domino.runtime.internal.util.BoundedCache<>("item automata", 16L << 20));

    private Sparse itemAutomaton(Expr item, int maxStates) {
        if (item instanceof Expr.Literal l) {
            Ranged chain = literalChain(l, maxStates);
            if (chain != null) return chain.toSparse();
        }
        if (!isShareable(item)) return determinize(nfa.build(item), maxStates);
        Sparse d = ITEMS.get(item);
        if (d == null || d.boundStates() > maxStates) {
            d = automaton(item, maxStates);
            ITEMS.putIfAbsent(item, d, 128 + 8L * d.count + 12L * d.ranges + keyBytes(List.of(item)));
        }
        return d;
    }

    /** a followed by b, or null when an accepting state of a shares a byte with b's start (see {@link #concatenation}). */
    static Sparse join(Sparse a, Sparse b) {
        int bStartFrom = b.rangeStart[0], bStartTo = b.rangeStart[1];
        for (int s = 0; s < a.count; s++) {
            if (!a.accepting[s]) continue;
            for (int i = a.rangeStart[s], j = bStartFrom; i < a.rangeStart[s + 1] && j < bStartTo; ) {
                if (a.hi[i] < b.lo[j]) i++;
                else if (b.hi[j] < a.lo[i]) j++;
                else return null; // a byte both may take
            }
        }
        Sparse r = new Sparse();
        int offset = a.count;
        for (int s = 0; s < a.count; s++) {
            int i = a.rangeStart[s], iEnd = a.rangeStart[s + 1];
            if (!a.accepting[s]) {
                for (; i < iEnd; i++) r.addRange(a.lo[i], a.hi[i], a.target[i]);
                r.endState(false);
                continue;
            }
            // the left part may have ended here: the right part's start too, ranges merged by byte
            int j = bStartFrom;
            while (i < iEnd || j < bStartTo) {
                if (j == bStartTo || i < iEnd && a.lo[i] < b.lo[j]) { r.addRange(a.lo[i], a.hi[i], a.target[i]); i++; }
                else { r.addRange(b.lo[j], b.hi[j], b.target[j] + offset); j++; }
            }
            r.endState(b.accepting[0]);
        }
        for (int s = 0; s < b.count; s++) {
            for (int i = b.rangeStart[s]; i < b.rangeStart[s + 1]; i++) r.addRange(b.lo[i], b.hi[i], b.target[i] + offset);
            r.endState(b.accepting[s]);
        }
        return r;
    }

    /**
     * A DFA under construction as byte ranges: state 0 is the start; state s has ranges
     * {@code rangeStart[s] .. rangeStart[s + 1]} ({@code lo..hi -> target}), sorted, disjoint.
     */
    static final class Sparse {
        int count;
        /** Already minimal, trim and numbered as {@link Minimizer} numbers (made so by construction, see {@link CodePointBytes}). */
        boolean minimal;
        /** States the subset construction would have made, when this automaton was made otherwise (0: {@link #count}). */
        int subsetStates;
        boolean[] accepting = new boolean[16];
        int[] rangeStart = new int[17];
        int ranges;
        int[] lo = new int[64], hi = new int[64], target = new int[64];

        void addRange(int l, int h, int t) {
            if (ranges > rangeStart[count] && target[ranges - 1] == t && hi[ranges - 1] + 1 == l) { hi[ranges - 1] = h; return; }
            if (ranges == lo.length) {
                int n = ranges * 2;
                lo = Arrays.copyOf(lo, n); hi = Arrays.copyOf(hi, n); target = Arrays.copyOf(target, n);
            }
            lo[ranges] = l; hi[ranges] = h; target[ranges] = t; ranges++;
        }

        /** The states the state bounds count: the subset construction's. */
        int boundStates() { return subsetStates > 0 ? subsetStates : count; }

        /** Closes the current state's ranges and opens the next state's. */
        void endState(boolean acc) {
            if (count + 2 > rangeStart.length) {
                rangeStart = Arrays.copyOf(rangeStart, rangeStart.length * 2);
                accepting = Arrays.copyOf(accepting, rangeStart.length);
            }
            accepting[count] = acc;
            count++;
            rangeStart[count] = ranges;
        }

        Sparse withoutEmptyString() {
            // a fresh start state, not accepting, with the old start's transitions
            Sparse r = new Sparse();
            for (int i = rangeStart[0]; i < rangeStart[1]; i++) r.addRange(lo[i], hi[i], target[i] + 1);
            r.endState(false);
            for (int s = 0; s < count; s++) {
                for (int i = rangeStart[s]; i < rangeStart[s + 1]; i++) r.addRange(lo[i], hi[i], target[i] + 1);
                r.endState(accepting[s]);
            }
            return r;
        }
    }

    /**
     * Subset construction over the fragment's own states and edges (a contiguous range of the
     * NFA, which keeps growing as more terminals are built): states are numbered relative to
     * the fragment, so the cost does not grow with everything built before.
     */
    private int base; // first NFA state of the fragment being determinized

    private Sparse determinize(ByteNfa.Fragment f, int maxStates) {
        base = f.firstState();
        int n = f.endState() - base;
        int start = f.start() - base, end = f.end() - base;
        // epsilon and byte edges in separate lists per NFA state (most Thompson edges are
        // epsilons: the closure walks only those, the step only byte edges)
        int[] epsStart = new int[n + 1], labStart = new int[n + 1];
        for (int i = f.firstEdge(); i < f.endEdge(); i++) {
            if (nfa.lo[i] < 0) epsStart[nfa.from[i] - base + 1]++; else labStart[nfa.from[i] - base + 1]++;
        }
        for (int i = 0; i < n; i++) { epsStart[i + 1] += epsStart[i]; labStart[i + 1] += labStart[i]; }
        int[] epsTo = new int[epsStart[n]];
        int[] labLo = new int[labStart[n]], labHi = new int[labStart[n]], labTo = new int[labStart[n]];
        int[] epsFill = Arrays.copyOf(epsStart, n), labFill = Arrays.copyOf(labStart, n);
        for (int i = f.firstEdge(); i < f.endEdge(); i++) {
            int from = nfa.from[i] - base;
            if (nfa.lo[i] < 0) { epsTo[epsFill[from]++] = nfa.to[i] - base; continue; }
            int k = labFill[from]++;
            labLo[k] = nfa.lo[i]; labHi[k] = nfa.hi[i]; labTo[k] = nfa.to[i] - base;
        }

        List<int[]> sets = new ArrayList<>();
        int[] mark = new int[n];
        int[] stamp = {0};
        // a subset is kept as its important states only: those with byte edges, and the end
        boolean[] important = new boolean[n];
        for (int i = 0; i < n; i++) important[i] = labStart[i + 1] > labStart[i] || i == end;
        int[] first = closure(new int[] {start}, 1, epsStart, epsTo, important, mark, stamp);
        SetIndex ids = new SetIndex();
        ids.add(first, 0);
        sets.add(first);
        Sparse d = new Sparse();
        int[] bounds = new int[64];
        int[] segCount = new int[258], segFill = new int[258];
        int[] targets = new int[64];
        // states are numbered in discovery order and processed in that order, so each state's
        // ranges are appended right after the previous state's
        for (int id = 0; id < sets.size(); id++) {
            // a server stops a compile past its time budget by interrupting it (ConstraintCache)
            if ((id & 1023) == 0 && Thread.currentThread().isInterrupted()) throw new java.util.concurrent.CancellationException("compile interrupted");
            int[] set = sets.get(id);
            sets.set(id, null);
            boolean accepting = false;
            // segments: the bytes between consecutive distinct edge boundaries
            int nb = 0;
            for (int s : set) {
                if (s == end) accepting = true;
                for (int k = labStart[s]; k < labStart[s + 1]; k++) {
                    if (nb + 2 > bounds.length) bounds = Arrays.copyOf(bounds, bounds.length * 2);
                    bounds[nb++] = labLo[k];
                    bounds[nb++] = labHi[k] + 1;
                }
            }
            if (nb == 0) { d.endState(accepting); continue; }
            Arrays.sort(bounds, 0, nb);
            int nu = 0;
            for (int i = 0; i < nb; i++) if (nu == 0 || bounds[nu - 1] != bounds[i]) bounds[nu++] = bounds[i];
            // each edge adds its target to the segments it covers (counting pass, then filling)
            int segments = nu - 1;
            Arrays.fill(segCount, 0, segments + 1, 0);
            int total = 0;
            for (int s : set) {
                for (int k = labStart[s]; k < labStart[s + 1]; k++) {
                    int j0 = Arrays.binarySearch(bounds, 0, nu, labLo[k]), j1 = Arrays.binarySearch(bounds, 0, nu, labHi[k] + 1);
                    for (int j = j0; j < j1; j++) segCount[j + 1]++;
                    total += j1 - j0;
                }
            }
            for (int j = 0; j < segments; j++) segCount[j + 1] += segCount[j];
            if (targets.length < total) targets = new int[Math.max(total, 2 * targets.length)];
            System.arraycopy(segCount, 0, segFill, 0, segments);
            for (int s : set) {
                for (int k = labStart[s]; k < labStart[s + 1]; k++) {
                    int j0 = Arrays.binarySearch(bounds, 0, nu, labLo[k]), j1 = Arrays.binarySearch(bounds, 0, nu, labHi[k] + 1);
                    for (int j = j0; j < j1; j++) targets[segFill[j]++] = labTo[k];
                }
            }
            for (int j = 0; j < segments; j++) {
                int from = segCount[j], tn = segCount[j + 1] - from;
                if (tn == 0) continue;
                int[] next = closure(Arrays.copyOfRange(targets, from, from + tn), tn, epsStart, epsTo, important, mark, stamp);
                int nid = ids.find(next, mark, stamp[0]);
                if (nid < 0) {
                    if (sets.size() >= maxStates) throw new TooLarge(maxStates);
                    nid = sets.size();
                    ids.add(next, nid);
                    sets.add(next);
                }
                d.addRange(bounds[j], bounds[j + 1] - 1, nid);
            }
            d.endState(accepting);
        }
        return d;
    }

    /**
     * Epsilon closure, as the array of its important states (see {@code important}: those with
     * byte edges, and the end) in no particular order; on return exactly the closure's states are
     * marked with {@code stamp[0]}, which {@link SetIndex#find} uses to compare sets without
     * sorting them (sorting each closure was half of the subset construction's time). Two
     * closures with the same important states step and accept alike, so they are one DFA state:
     * leaving out the epsilon-only states (most of a Thompson NFA's) makes sets smaller to hash
     * and compare, and merges subsets that minimization would merge anyway.
     */
    private static int[] closure(int[] seeds, int count, int[] epsStart, int[] epsTo, boolean[] important, int[] mark, int[] stamp) {
        int s0 = ++stamp[0];
        int[] stack = new int[Math.max(16, count)];
        int sp = 0;
        int[] out = new int[Math.max(16, count)];
        int on = 0;
        for (int i = 0; i < count; i++) {
            if (mark[seeds[i]] != s0) { mark[seeds[i]] = s0; if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2); stack[sp++] = seeds[i]; }
        }
        while (sp > 0) {
            int s = stack[--sp];
            if (important[s]) {
                if (on == out.length) out = Arrays.copyOf(out, on * 2);
                out[on++] = s;
            }
            for (int k = epsStart[s]; k < epsStart[s + 1]; k++) {
                int t = epsTo[k];
                if (mark[t] != s0) {
                    mark[t] = s0;
                    if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                    stack[sp++] = t;
                }
            }
        }
        return Arrays.copyOf(out, on);
    }

    /**
     * Subset → DFA state id: open addressing on an order-independent hash of the set (a sum of
     * mixed state numbers); a candidate equals the set being looked up when it has the same size
     * and all its states carry the lookup's mark.
     */
    private static final class SetIndex {
        private int[] slots = new int[64]; // id + 1, 0 = empty
        private int[] hashes = new int[16];
        private int[][] members = new int[16][];
        private int size;

        private static int hash(int[] set) {
            int h = set.length;
            for (int s : set) { int x = s * 0x9E3779B9; h += x ^ (x >>> 15); }
            return h;
        }

        /** The id of the set whose states are exactly those marked {@code stamp}; -1 when new. */
        int find(int[] set, int[] mark, int stamp) {
            int h = hash(set);
            for (int i = h & (slots.length - 1); slots[i] != 0; i = (i + 1) & (slots.length - 1)) {
                int id = slots[i] - 1;
                if (hashes[id] != h || members[id].length != set.length) continue;
                boolean same = true;
                for (int s : members[id]) if (mark[s] != stamp) { same = false; break; }
                if (same) return id;
            }
            return -1;
        }

        void add(int[] set, int id) {
            if (id >= hashes.length) {
                hashes = Arrays.copyOf(hashes, Math.max(id + 1, 2 * hashes.length));
                members = Arrays.copyOf(members, hashes.length);
            }
            int h = hash(set);
            hashes[id] = h;
            members[id] = set;
            if (2 * (size + 1) > slots.length) {
                int[] old = slots;
                slots = new int[2 * old.length];
                for (int v : old) if (v != 0) insert(hashes[v - 1], v);
            }
            insert(h, id + 1);
            size++;
        }

        private void insert(int h, int value) {
            int i = h & (slots.length - 1);
            while (slots[i] != 0) i = (i + 1) & (slots.length - 1);
            slots[i] = value;
        }
    }
}
