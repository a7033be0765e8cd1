package dev.domino.runtime.internal.parse;

import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.util.*;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fewest bytes that finish the output from a parser configuration: what a token budget needs
 * to know whether a completion still fits. Costs are in bytes, except that a token terminal (a
 * special token such as {@code <|eot_id|>}) costs 1; with a vocabulary that has every single byte
 * as a token, a cost of n bytes is at most n tokens.
 *
 * <p>Three levels, each computed once and shared:
 * <ul>
 *   <li>per terminal and scanner state, the fewest bytes to an accepting state (a backward
 *       breadth-first search over the byte automaton; for a counted terminal a forward search over
 *       its (count, loop state) states, per state asked for);</li>
 *   <li>per nonterminal, the fewest bytes any derivation has (a fixpoint over the productions with the
 *       terminals' minimal lengths; a permutation costs its required members, enough others to reach
 *       its minimum count, and the separators between them);</li>
 *   <li>per Earley state P, memoized on the state ({@link EarleyState#completionCosts}): for each
 *       nonterminal A that items of P wait for, G(P, A), the fewest bytes that finish the output once A
 *       is complete at P: over the items of P waiting for A, the rest of the item after A plus what
 *       finishing the item's own left-hand side costs at the item's origin (G of the origin set; for
 *       items predicted at P itself, G(P, lhs): a shortest-path problem inside P, solved by Dijkstra).
 *       The state's cost is then the minimum over its items of their rest plus that finishing cost.</li>
 * </ul>
 * A configuration (P, q) inside terminal t costs the bytes to finish t from q plus the cost of the
 * state after scanning t; between terminals, P's cost. A set of configurations costs its cheapest.
 * Lexing never stands in the way: the matcher follows every lexing of the output, so any string of a
 * terminal followed by any string of the next is read as those two terminals.
 *
 * <p>Thread-safe: the memos are immutable values published through volatile fields or concurrent maps.
 */
public final class ShortestCompletion {
    /** No completion (or one too long to count). */
    public static final int INF = Integer.MAX_VALUE / 4;
    /** Most states a counted terminal's forward search visits before it gives up (INF: no guarantee there). */
    private static final int MAX_COUNTED_SEARCH = 1 << 22;

    private final ScannerStates scanner;
    private final ParserGrammar g;
    private final EarleyParser parser;
    /** Per terminal, fewest bytes from each local state to an accepting one (null until first needed; counted: null). */
    private final int[][] terminalDist;
    /** Per counted terminal, local state -> fewest bytes (filled per state asked for). */
    private final ConcurrentHashMap<Long, Integer> countedDist = new ConcurrentHashMap<>();
    private final int[] terminalMin;
    private final int[] nonterminalMin;
    /** Per dotted rule of a production, the fewest bytes of the symbols after the dot. */
    private final int[] ruleRest;

    public ShortestCompletion(ScannerStates scanner, ParserGrammar grammar, EarleyParser parser) {
        this.scanner = scanner;
        this.g = grammar;
        this.parser = parser;
        int terminals = scanner.terminals().length;
        terminalDist = new int[terminals][];
        terminalMin = new int[terminals];
        for (int t = 0; t < terminals; t++) {
            Terminal term = scanner.terminal(t);
            terminalMin[t] = term.tokens() != null ? 1 : localDist(t, term.start());
        }
        nonterminalMin = new int[g.nonterminalCount()];
        ruleRest = new int[g.ruleNext.length];
        computeNonterminalMins();
    }

    private static int add(int a, int b) { return a >= INF || b >= INF ? INF : Math.min(INF, a + b); }

    // ------------------------------------------------------------------ terminals

    /** Fewest bytes of terminal t's strings. */
    public int terminalMin(int t) { return terminalMin[t]; }

    /** Fewest bytes from terminal t's local state to an accepting state (0 when it accepts). */
    public int localDist(int t, int local) {
        Terminal term = scanner.terminal(t);
        if (term.tokens() != null) return INF; // never inside a token terminal
        if (term.counted() != null) return countedDist(t, term.counted(), local);
        int[] d = terminalDist[t];
        if (d == null) {
            d = backwardDistances(term.dfa());
            terminalDist[t] = d; // idempotent: a race computes the same table twice
        }
        return d[local];
    }

    /** Breadth-first search backwards from the accepting states. */
    private static int[] backwardDistances(ByteDfa dfa) {
        int n = dfa.stateCount();
        int[] predCount = new int[n];
        for (int q = 0; q < n; q++) {
            int last = -1;
            for (int b = 0; b < 256; b++) { int q2 = dfa.step(q, b); if (q2 >= 0 && q2 != last) predCount[q2]++; last = q2; }
        }
        int[][] preds = new int[n][];
        for (int q = 0; q < n; q++) preds[q] = new int[predCount[q]];
        Arrays.fill(predCount, 0);
        for (int q = 0; q < n; q++) {
            int last = -1;
            for (int b = 0; b < 256; b++) {
                int q2 = dfa.step(q, b);
                if (q2 >= 0 && q2 != last) preds[q2][predCount[q2]++] = q;
                last = q2;
            }
        }
        int[] dist = new int[n];
        Arrays.fill(dist, INF);
        int[] queue = new int[n];
        int head = 0, tail = 0;
        for (int q = 0; q < n; q++) if (dfa.isAccepting(q)) { dist[q] = 0; queue[tail++] = q; }
        while (head < tail) {
            int q = queue[head++];
            for (int i = 0; i < predCount[q]; i++) {
                int p = preds[q][i];
                if (dist[p] == INF) { dist[p] = dist[q] + 1; queue[tail++] = p; }
            }
        }
        return dist;
    }

    /** Forward breadth-first search over the counted terminal's (count, loop state) states. */
    private int countedDist(int t, CountedLoop counted, int local) {
        long key = ((long) t << 32) | local;
        Integer known = countedDist.get(key);
        if (known != null) return known;
        int result = INF;
        if (counted.isAccepting(local)) {
            result = 0;
        } else {
            // per loop state, one byte per distinct successor (the counter depends only on the loop state)
            java.util.HashMap<Integer, Integer> dist = new java.util.HashMap<>();
            int[] queue = new int[1024];
            int head = 0, tail = 0;
            dist.put(local, 0);
            queue[tail++] = local;
            search:
            while (head < tail) {
                int s = queue[head++];
                int d = dist.get(s);
                int last = -2;
                for (int b = 0; b < 256; b++) {
                    int s2 = counted.step(s, b);
                    if (s2 < 0 || s2 == last) { last = s2; continue; }
                    last = s2;
                    if (dist.containsKey(s2)) continue;
                    if (counted.isAccepting(s2)) { result = d + 1; break search; }
                    if (dist.size() >= MAX_COUNTED_SEARCH) break search;
                    dist.put(s2, d + 1);
                    if (tail == queue.length) queue = Arrays.copyOf(queue, queue.length * 2);
                    queue[tail++] = s2;
                }
            }
        }
        if (countedDist.size() < 1 << 16) countedDist.put(key, result);
        return result;
    }

    // ------------------------------------------------------------------ nonterminals

    /** Fewest bytes of nonterminal A's derivations. */
    public int nonterminalMin(int a) { return nonterminalMin[a]; }

    private int symbolMin(int symbol) { return symbol >= 0 ? nonterminalMin[symbol] : terminalMin[-1 - symbol]; }

    private void computeNonterminalMins() {
        Arrays.fill(nonterminalMin, INF);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < g.productionCount(); p++) {
                int sum = 0;
                for (int s : g.rhs(p)) sum = add(sum, symbolMin(s));
                if (sum < nonterminalMin[g.lhs(p)]) { nonterminalMin[g.lhs(p)] = sum; changed = true; }
            }
            for (int q = 0; q < g.permutationCount(); q++) {
                int c = permutationRest(q, ParserGrammar.PHASE_FIRST, g.permNoneSeen[q]);
                int lhs = g.permutation(q).lhs();
                if (c < nonterminalMin[lhs]) { nonterminalMin[lhs] = c; changed = true; }
            }
        }
        for (int r = 0; r < ruleRest.length; r++) {
            if (g.rulePerm[r] >= 0 || g.ruleProduction[r] < 0) continue;
            int[] rhs = g.rhs(g.ruleProduction[r]);
            int dot = rhs.length - remainingSymbols(r);
            int sum = 0;
            for (int i = dot; i < rhs.length; i++) sum = add(sum, symbolMin(rhs[i]));
            ruleRest[r] = sum;
        }
        ruleRest[g.startRule] = nonterminalMin[g.start()];
        ruleRest[g.acceptRule] = 0;
    }

    /** Symbols after the dot of a production's dotted rule (dotted rules of a production are consecutive). */
    private int remainingSymbols(int r) {
        int p = g.ruleProduction[r];
        int n = 0;
        while (r + n < g.ruleNext.length && g.ruleProduction[r + n] == p && g.ruleNext[r + n] != ParserGrammar.NONE) n++;
        return n;
    }

    /**
     * Fewest bytes that finish a permutation item of the given phase and members seen: the missing
     * required members, enough more (the cheapest unseen optional members, or the other) to reach
     * the minimum count, and a separator before each (after a member) or between them.
     */
    private int permutationRest(int q, int phase, long[] seen) {
        if (phase == ParserGrammar.PHASE_FULL) return 0;
        Permutation p = g.permutation(q);
        int countWord = g.permCountWord[q];
        int count = countWord >= 0 ? (int) seen[countWord] : 0;
        int missing = 0, members = 0;
        int[] optional = new int[p.memberCount() + 1];
        int optionalCount = 0;
        for (int i = 0; i < p.memberCount(); i++) {
            if ((seen[i >>> 6] & (1L << i)) != 0) continue;
            if (p.isRequired(i)) { missing++; members = add(members, nonterminalMin[p.member(i)]); }
            else optional[optionalCount++] = nonterminalMin[p.member(i)];
        }
        int need = Math.max(missing, countWord >= 0 ? p.minCount() - count : 0);
        if (phase == ParserGrammar.PHASE_NEXT) need = Math.max(need, 1);
        if (need == 0) return 0;
        if (p.maxCount() != Permutation.UNBOUNDED && count + need > p.maxCount()) return INF;
        int extras = need - missing;
        if (extras > 0) {
            Arrays.sort(optional, 0, optionalCount);
            int other = p.other() >= 0 ? nonterminalMin[p.other()] : INF;
            for (int i = 0, used = 0; used < extras; used++) {
                if (i < optionalCount && optional[i] <= other) members = add(members, optional[i++]);
                else if (other < INF) members = add(members, other);
                else return INF;
            }
        }
        int separators = phase == ParserGrammar.PHASE_AFTER ? need : need - 1;
        int sep = p.hasSeparator() ? symbolMin(p.separator()) : 0;
        for (int i = 0; i < separators; i++) members = add(members, sep);
        return members;
    }

    /** Fewest bytes of the symbols after the dot of item (rule r, members seen). */
    private int rest(int r, long[] seen) {
        int perm = g.rulePerm[r];
        if (perm < 0) return ruleRest[r];
        return permutationRest(perm, r - g.permFirstRule[perm], seen);
    }

    /**
     * The rest of item (r, seen) after it moves over nonterminal {@code a} (which it waits for): the
     * same dotted rule advanced, or for a permutation the member added (INF when the permutation
     * could then no longer complete, as the parser would not predict it).
     */
    private int restAfter(int r, long[] seen, int a) {
        int perm = g.rulePerm[r];
        if (perm < 0) return ruleRest[r + 1];
        int first = g.permFirstRule[perm];
        if (g.ruleNext[r] != ParserGrammar.MEMBERS) return permutationRest(perm, ParserGrammar.PHASE_NEXT, seen); // a separator
        Permutation p = g.permutation(perm);
        int slot = g.memberSlot[a];
        long[] s = seen.clone();
        if (slot >= 0) {
            if ((s[slot >>> 6] & (1L << slot)) != 0) return INF;
            s[slot >>> 6] |= 1L << slot;
        }
        int countWord = g.permCountWord[perm];
        boolean full = p.other() < 0 && allSeen(s, p.memberCount());
        if (countWord >= 0) {
            int count = (int) Math.min(s[countWord] + 1, p.countCap());
            s[countWord] = count;
            full |= p.maxCount() != Permutation.UNBOUNDED && count >= p.maxCount();
        }
        return permutationRest(perm, full ? ParserGrammar.PHASE_FULL : ParserGrammar.PHASE_AFTER, s);
    }

    private static boolean allSeen(long[] seen, int count) {
        for (int i = 0; i < count; i++) if ((seen[i >>> 6] & (1L << i)) == 0) return false;
        return true;
    }

    // ------------------------------------------------------------------ Earley states

    /**
     * What is memoized on an Earley state: its cost, G per nonterminal its items wait for (sorted
     * keys), and per scanner state the most a token can leave to finish (see the token budget).
     */
    private record StateCosts(int cost, int[] keys, int[] values, ConcurrentHashMap<Integer, Integer> mostAfterToken,
                              ConcurrentHashMap<Integer, Integer> tokensToFinish) {
        int finish(int nonterminal) {
            int i = Arrays.binarySearch(keys, nonterminal);
            return i >= 0 ? values[i] : INF;
        }
    }

    /** Fewest bytes that finish the output from parser state {@code p} between terminals (0 when accepting). */
    public int cost(EarleyState p) {
        if (p == parser.dead) return INF;
        return costs(p).cost;
    }

    /** Fewest bytes that finish the output from configuration (p, q). */
    public int cost(EarleyState p, int q) {
        if (q == ScannerStates.BETWEEN) return cost(p);
        int t = scanner.terminalOf(q);
        int d = localDist(t, q - scanner.offset(t));
        if (d >= INF) return INF;
        EarleyState after = parser.scan(p, t);
        return after == parser.dead ? INF : add(d, cost(after));
    }

    /** Fewest bytes that finish the output from the cheapest of the configurations. */
    public int cost(Configurations c) {
        int best = INF;
        for (int i = 0; i < c.size(); i++) best = Math.min(best, cost(c.parsers[i], c.scanStates[i]));
        return best;
    }

    /** The memoized {@link #memoizeMostAfterOneToken} value of configuration (p, q), or -1. */
    public int memoizedMostAfterOneToken(EarleyState p, int q) {
        if (p == parser.dead) return -1;
        Integer v = costs(p).mostAfterToken.get(q);
        return v == null ? -1 : v;
    }

    /** Memoizes, for a caller that walked the vocabulary, the most any token viable from (p, q) leaves to finish. */
    public void memoizeMostAfterOneToken(EarleyState p, int q, int most) {
        if (p != parser.dead) costs(p).mostAfterToken.put(q, most);
    }

    /** The memoized {@link #memoizeTokensToFinish} value of configuration (p, q), or -1. */
    public int memoizedTokensToFinish(EarleyState p, int q) {
        if (p == parser.dead) return -1;
        Integer v = costs(p).tokensToFinish.get(q);
        return v == null ? -1 : v;
    }

    /** Memoizes, for a caller that spelled a completion of (p, q) in tokens, how many it took. */
    public void memoizeTokensToFinish(EarleyState p, int q, int tokens) {
        if (p != parser.dead) costs(p).tokensToFinish.put(q, tokens);
    }

    /** The memo of p, computing it (and first its origins', without recursion) when missing. */
    private StateCosts costs(EarleyState p) {
        Object memo = p.completionCosts;
        if (memo instanceof StateCosts sc) return sc;
        java.util.ArrayDeque<EarleyState> stack = new java.util.ArrayDeque<>();
        stack.push(p);
        while (!stack.isEmpty()) {
            EarleyState top = stack.peek();
            if (top.completionCosts != null) { stack.pop(); continue; }
            EarleyState missing = null;
            for (EarleyState o : top.headOrigins) {
                if (o != null && o != top && o.completionCosts == null) { missing = o; break; }
            }
            if (missing != null) { stack.push(missing); continue; }
            top.completionCosts = compute(top);
            stack.pop();
        }
        return (StateCosts) p.completionCosts;
    }

    /** Finishing cost once item i of s is complete: G at its origin for its left-hand side (0 for the start item). */
    private int originFinish(EarleyState s, int i, int[] own) {
        int lhs = g.ruleLhs[s.rule(i)];
        if (lhs < 0) return 0;
        EarleyState o = s.origin(i);
        if (o == null || o == s) return own[lhs];
        return ((StateCosts) o.completionCosts).finish(lhs);
    }

    /** Per thread: G per nonterminal while a state is computed (INF outside; reset through the touched list). */
    private static final ThreadLocal<int[][]> SCRATCH = ThreadLocal.withInitial(() -> new int[2][0]);

    private StateCosts compute(EarleyState s) {
        int n = g.nonterminalCount();
        int[][] scratch = SCRATCH.get();
        if (scratch[0].length < n) { scratch[0] = new int[n]; Arrays.fill(scratch[0], INF); scratch[1] = new int[n]; }
        int[] dist = scratch[0], mark = scratch[1];
        IntList touched = new IntList();
        int items = s.itemCount();
        // edges lhs -> waited-for nonterminal (items predicted here); sources: items with an earlier origin
        IntList from = new IntList(), to = new IntList(), weight = new IntList();
        for (int i = 0; i < items; i++) {
            int r = s.rule(i);
            int next = g.ruleNext[r];
            int[] waits;
            if (next >= 0) waits = new int[] {next};
            else if (next == ParserGrammar.MEMBERS) waits = members(g.rulePerm[r], s.seenAt(i));
            else continue;
            int lhs = g.ruleLhs[r];
            boolean here = s.origin(i) == null || s.origin(i) == s;
            for (int a : waits) {
                int w = restAfter(r, s.seenAt(i), a);
                if (w >= INF) continue;
                if (mark[a] == 0) { mark[a] = 1; touched.add(a); }
                if (lhs >= 0 && here) {
                    from.add(lhs); to.add(a); weight.add(w);
                    continue;
                }
                int v = add(w, lhs < 0 ? 0 : ((StateCosts) s.origin(i).completionCosts).finish(lhs));
                if (v < dist[a]) dist[a] = v;
            }
        }
        relax(dist, touched, from, to, weight);
        int best = INF;
        for (int i = 0; i < items; i++) {
            int rest = rest(s.rule(i), s.seenAt(i));
            if (rest < INF) best = Math.min(best, add(rest, originFinish(s, i, dist)));
        }
        int[] keys = touched.toArray();
        Arrays.sort(keys);
        int k = 0;
        for (int a : keys) if (dist[a] < INF) k++;
        int[] ks = new int[k], values = new int[k];
        for (int j = 0, m = 0; j < keys.length; j++) if (dist[keys[j]] < INF) { ks[m] = keys[j]; values[m++] = dist[keys[j]]; }
        for (int a : keys) { dist[a] = INF; mark[a] = 0; }
        return new StateCosts(best, ks, values, new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    }

    /** Dijkstra over the nonterminals from the sources' distances. */
    private static void relax(int[] dist, IntList touched, IntList from, IntList to, IntList weight) {
        int m = from.size();
        if (m == 0) return;
        Integer[] order = new Integer[m];
        for (int e = 0; e < m; e++) order[e] = e;
        Arrays.sort(order, (x, y) -> Integer.compare(from.a[x], from.a[y]));
        java.util.PriorityQueue<long[]> heap = new java.util.PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
        for (int j = 0; j < touched.size; j++) if (dist[touched.a[j]] < INF) heap.add(new long[] {dist[touched.a[j]], touched.a[j]});
        while (!heap.isEmpty()) {
            long[] top = heap.poll();
            int a = (int) top[1];
            if (top[0] != dist[a]) continue;
            // edges from a: binary search the sorted order
            int lo = 0, hi = m;
            while (lo < hi) { int mid = (lo + hi) >>> 1; if (from.a[order[mid]] < a) lo = mid + 1; else hi = mid; }
            for (int e = lo; e < m && from.a[order[e]] == a; e++) {
                int b = to.a[order[e]];
                int v = add(dist[a], weight.a[order[e]]);
                if (v < dist[b]) { dist[b] = v; heap.add(new long[] {v, b}); }
            }
        }
    }

    /** The member (and other) nonterminals a permutation item that expects a member may take. */
    private int[] members(int perm, long[] seen) {
        Permutation p = g.permutation(perm);
        int[] out = new int[p.memberCount() + 1];
        int n = 0;
        for (int i = 0; i < p.memberCount(); i++) if ((seen[i >>> 6] & (1L << i)) == 0) out[n++] = p.member(i);
        if (p.other() >= 0) out[n++] = p.other();
        return Arrays.copyOf(out, n);
    }
}
