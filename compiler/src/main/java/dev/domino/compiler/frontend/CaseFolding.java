package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes an expression case-insensitive (Lark's {@code "..."i} and {@code /.../i}): every
 * character is widened to all characters that are equal to it under simple case mapping, e.g.
 * {@code k} to {@code [kK\u212A]}. This approximates Python's {@code re.IGNORECASE}.
 */
final class CaseFolding {
    private CaseFolding() {}

    /** Sorted code points that have at least one case variant. */
    private static final int[] CASED;
    /** For each entry of {@link #CASED}: all code points of its case class (itself included). */
    private static final int[][] VARIANTS;

    static {
        Map<Integer, List<Integer>> classes = new HashMap<>();
        for (int cp = 0; cp <= CodePointSet.MAX; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) continue;
            int key = Character.toLowerCase(Character.toUpperCase(cp));
            if (key != cp || Character.toUpperCase(cp) != cp || Character.toLowerCase(cp) != cp) {
                classes.computeIfAbsent(key, k -> new ArrayList<>()).add(cp);
            }
        }
        Map<Integer, int[]> byCp = new HashMap<>();
        for (Map.Entry<Integer, List<Integer>> e : classes.entrySet()) {
            List<Integer> members = new ArrayList<>(e.getValue());
            if (!members.contains(e.getKey())) members.add(e.getKey());
            if (members.size() < 2) continue;
            int[] arr = members.stream().mapToInt(Integer::intValue).sorted().toArray();
            for (int m : arr) byCp.put(m, arr);
        }
        CASED = byCp.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        VARIANTS = new int[CASED.length][];
        for (int i = 0; i < CASED.length; i++) VARIANTS[i] = byCp.get(CASED[i]);
    }

    static Expr caseInsensitive(Expr e) {
        if (e instanceof Expr.Literal l) return literal(l.text());
        if (e instanceof Expr.Chars c) return new Expr.Chars(widen(c.set()));
        if (e instanceof Expr.Seq s) return new Expr.Seq(s.items().stream().map(CaseFolding::caseInsensitive).toList());
        if (e instanceof Expr.Alt a) return new Expr.Alt(a.options().stream().map(CaseFolding::caseInsensitive).toList());
        if (e instanceof Expr.Repeat r) return new Expr.Repeat(caseInsensitive(r.body()), r.min(), r.max());
        if (e instanceof Expr.Perm p) {
            return new Expr.Perm(p.members().stream().map(m -> new Expr.Perm.Member(caseInsensitive(m.body()), m.required())).toList(),
                    caseInsensitive(p.other()), caseInsensitive(p.separator()), p.minCount(), p.maxCount());
        }
        // a code point automaton comes only from the JSON Schema string algebra, never from a regex: folding
        // its ranges would make it nondeterministic, so refuse rather than return it unfolded
        if (e instanceof Expr.Automaton) throw new IllegalArgumentException("case folding of a code point automaton");
        return e; // Ref: the referenced definition decides for itself
    }

    /** Uncased runs stay literal; each cased character becomes a class of its variants. */
    private static Expr literal(String text) {
        List<Expr> parts = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        text.codePoints().forEach(cp -> {
            int i = Arrays.binarySearch(CASED, cp);
            if (i < 0) {
                run.appendCodePoint(cp);
                return;
            }
            if (run.length() > 0) { parts.add(new Expr.Literal(run.toString())); run.setLength(0); }
            parts.add(new Expr.Chars(CodePointSet.fromRanges(pairs(VARIANTS[i]))));
        });
        if (run.length() > 0 || parts.isEmpty()) parts.add(new Expr.Literal(run.toString()));
        return parts.size() == 1 ? parts.get(0) : new Expr.Seq(parts);
    }

    static CodePointSet widen(CodePointSet set) {
        List<Integer> extra = new ArrayList<>();
        for (int r = 0; r < set.rangeCount(); r++) {
            int from = Arrays.binarySearch(CASED, set.lo(r));
            if (from < 0) from = -from - 1;
            for (int i = from; i < CASED.length && CASED[i] <= set.hi(r); i++) {
                for (int v : VARIANTS[i]) extra.add(v);
            }
        }
        if (extra.isEmpty()) return set;
        return set.union(CodePointSet.fromRanges(pairs(extra.stream().mapToInt(Integer::intValue).toArray())));
    }

    private static int[] pairs(int[] cps) {
        int[] out = new int[cps.length * 2];
        for (int i = 0; i < cps.length; i++) { out[2 * i] = cps[i]; out[2 * i + 1] = cps[i]; }
        return out;
    }
}
