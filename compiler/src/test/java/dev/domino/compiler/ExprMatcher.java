package dev.domino.compiler;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test-only reference matcher for the IR: computes, for an expression and a start position, the
 * set of end positions it can reach (as a BitSet). Rule references are memoized per
 * (rule, position); left recursion is not supported (fails loudly). Obviously-right, not fast.
 */
public final class ExprMatcher {
    private final Grammar grammar;
    private int[] input;
    private final Map<Long, BitSet> memo = new HashMap<>();
    private final Map<String, Integer> ruleIds = new HashMap<>();
    private final java.util.Set<Long> inProgress = new java.util.HashSet<>();

    public ExprMatcher(Grammar grammar) {
        this.grammar = grammar;
        int i = 0;
        for (String r : grammar.rules().keySet()) ruleIds.put(r, i++);
    }

    /** Whether the whole string matches the grammar's start rule. */
    public static boolean matches(Grammar g, String s) { return new ExprMatcher(g).matchRule(g.start(), s); }

    /** Whether the whole string matches a standalone expression (no rule refs). */
    public static boolean matches(Expr e, String s) {
        return new ExprMatcher(Grammar.of("start", Map.of("start", e))).matchRule("start", s);
    }

    public boolean matchRule(String rule, String s) {
        input = s.codePoints().toArray();
        memo.clear();
        BitSet ends = match(new Expr.Ref(rule, 0, 0), 0);
        return ends.get(input.length);
    }

    private BitSet single(int p) { BitSet b = new BitSet(); b.set(p); return b; }

    private BitSet match(Expr e, int p) {
        if (e instanceof Expr.Literal l) {
            int[] t = l.text().codePoints().toArray();
            if (p + t.length > input.length) return new BitSet();
            for (int i = 0; i < t.length; i++) if (input[p + i] != t[i]) return new BitSet();
            return single(p + t.length);
        }
        if (e instanceof Expr.Chars c) {
            return p < input.length && c.set().contains(input[p]) ? single(p + 1) : new BitSet();
        }
        if (e instanceof Expr.Automaton a) {
            // run the automaton from p; every accepting point is an end
            BitSet out = new BitSet();
            int q = a.dfa().start();
            for (int i = p; q >= 0; i++) {
                if (a.dfa().isAccepting(q)) out.set(i);
                if (i == input.length) break;
                q = a.dfa().step(q, input[i]);
            }
            return out;
        }
        if (e instanceof Expr.Seq s) {
            BitSet cur = single(p);
            for (Expr item : s.items()) cur = step(item, cur);
            return cur;
        }
        if (e instanceof Expr.Alt a) {
            BitSet out = new BitSet();
            for (Expr o : a.options()) out.or(match(o, p));
            return out;
        }
        if (e instanceof Expr.Repeat r) {
            BitSet cur = single(p);
            BitSet out = new BitSet();
            if (r.min() == 0) out.or(cur);
            BitSet seen = new BitSet();
            for (int n = 1; r.max() == Expr.Repeat.UNBOUNDED || n <= r.max(); n++) {
                cur = step(r.body(), cur);
                if (n >= r.min()) {
                    // once the min is reached, positions already seen at >= min add nothing new
                    BitSet fresh = (BitSet) cur.clone();
                    fresh.andNot(seen);
                    out.or(cur);
                    if (fresh.isEmpty() && n > r.min()) break;
                    seen.or(cur);
                    if (r.max() == Expr.Repeat.UNBOUNDED) cur = fresh;
                }
                if (cur.isEmpty()) break;
            }
            return out;
        }
        if (e instanceof Expr.Units u) {
            // the text's ends that are also reached by min..max units from p
            BitSet textEnds = match(u.text(), p);
            BitSet out = new BitSet();
            BitSet cur = single(p);
            for (int n = 0; n <= u.max() && !cur.isEmpty(); n++) {
                if (n >= u.min()) {
                    BitSet both = (BitSet) cur.clone();
                    both.and(textEnds);
                    out.or(both);
                }
                cur = step(u.unit(), cur);
            }
            return out;
        }
        if (e instanceof Expr.Perm perm) return matchPerm(perm, p);
        if (e instanceof Expr.UniqueArray u) return matchUnique(u, p);
        if (e instanceof Expr.Ref ref) {
            Integer id = ruleIds.get(ref.name());
            if (id == null) throw new IllegalStateException("undefined rule " + ref.name());
            long key = ((long) id << 32) | p;
            BitSet m = memo.get(key);
            if (m != null) return m;
            if (!inProgress.add(key)) throw new IllegalStateException("left recursion at rule " + ref.name());
            m = match(grammar.rules().get(ref.name()), p);
            inProgress.remove(key);
            memo.put(key, m);
            return m;
        }
        throw new IllegalStateException(String.valueOf(e));
    }

    /**
     * Search over (position, members used, step, members read): step 0 = nothing read, 1 = after a
     * member, 2 = after a separator; members read (declared and other) within minCount..maxCount.
     */
    private BitSet matchPerm(Expr.Perm perm, int p) {
        BitSet out = new BitSet();
        record Node(int pos, BitSet used, int step, int count) {}
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
        java.util.Set<Node> visited = new java.util.HashSet<>();
        Node start = new Node(p, new BitSet(), 0, 0);
        work.add(start);
        visited.add(start);
        while (!work.isEmpty()) {
            Node n = work.poll();
            List<Node> next = new java.util.ArrayList<>();
            boolean allRequired = true;
            for (int i = 0; i < perm.members().size(); i++) if (perm.members().get(i).required() && !n.used().get(i)) allRequired = false;
            if (allRequired && n.step() != 2 && (n.step() == 1 || n.used().isEmpty()) && n.count() >= perm.minCount()) out.set(n.pos());
            if (perm.maxCount() != Expr.Repeat.UNBOUNDED && n.count() >= perm.maxCount()) {
                // no more members
            } else if (n.step() == 1 && perm.hasSeparator()) {
                BitSet ends = match(perm.separator(), n.pos());
                for (int q = ends.nextSetBit(0); q >= 0; q = ends.nextSetBit(q + 1)) next.add(new Node(q, n.used(), 2, n.count()));
            } else {
                for (int i = 0; i < perm.members().size(); i++) {
                    if (n.used().get(i)) continue;
                    BitSet ends = match(perm.members().get(i).body(), n.pos());
                    BitSet used = (BitSet) n.used().clone();
                    used.set(i);
                    for (int q = ends.nextSetBit(0); q >= 0; q = ends.nextSetBit(q + 1)) next.add(new Node(q, used, 1, n.count() + 1));
                }
                if (perm.hasOther()) {
                    BitSet ends = match(perm.other(), n.pos());
                    for (int q = ends.nextSetBit(0); q >= 0; q = ends.nextSetBit(q + 1)) next.add(new Node(q, n.used(), 1, n.count() + 1));
                }
            }
            for (Node x : next) if (visited.add(x)) work.add(x);
        }
        return out;
    }

    /** Search over (position after an item, the item values so far): each item must differ from the earlier ones. */
    private BitSet matchUnique(Expr.UniqueArray u, int p) {
        BitSet out = new BitSet();
        BitSet opened = match(u.open(), p);
        for (int q = opened.nextSetBit(0); q >= 0; q = opened.nextSetBit(q + 1)) items(u, q, new java.util.ArrayList<>(), out);
        return out;
    }

    private void items(Expr.UniqueArray u, int p, List<com.fasterxml.jackson.databind.JsonNode> values, BitSet out) {
        BitSet ends = match(u.itemAt(values.size()), p);
        for (int q = ends.nextSetBit(0); q >= 0; q = ends.nextSetBit(q + 1)) {
            com.fasterxml.jackson.databind.JsonNode v = dev.domino.compiler.testing.JsonValues.parse(new String(input, p, q - p));
            if (v == null) throw new IllegalStateException("an item that is not JSON: " + new String(input, p, q - p));
            if (dev.domino.compiler.testing.JsonValues.among(v, values)) continue;
            values.add(v);
            int n = values.size();
            if (n >= u.minItems()) out.or(match(u.close(), q));
            if (u.maxItems() == Expr.Repeat.UNBOUNDED || n < u.maxItems()) {
                BitSet seps = match(u.separator(), q);
                for (int s = seps.nextSetBit(0); s >= 0; s = seps.nextSetBit(s + 1)) items(u, s, values, out);
            }
            values.remove(values.size() - 1);
        }
    }

    private BitSet step(Expr e, BitSet from) {
        BitSet out = new BitSet();
        for (int q = from.nextSetBit(0); q >= 0; q = from.nextSetBit(q + 1)) out.or(match(e, q));
        return out;
    }
}
