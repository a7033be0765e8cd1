package dev.domino.compiler.lexer;

import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a right-linear self-recursive rule into a regular expression with Arden's lemma:
 * {@code R ::= Y1 R | ... | X1 | ...} (R only at the very end of the Y alternatives, nowhere
 * else) equals {@code (Y1 | ...)* (X1 | ...)}. This is how GBNF writes repetition, e.g.
 * {@code ws ::= ([ \t\n] ws)?}, and lets such rules become terminals.
 */
final class ArdenRewrite {
    private ArdenRewrite() {}

    /** The rewritten body, or null when the rule is not right-linear in itself. */
    static Expr rewrite(String name, Expr body) {
        List<List<Expr>> alternatives = new ArrayList<>();
        if (!flatten(body, alternatives)) return null;
        List<Expr> recursive = new ArrayList<>();
        List<Expr> base = new ArrayList<>();
        for (List<Expr> alt : alternatives) {
            boolean tail = !alt.isEmpty() && alt.get(alt.size() - 1) instanceof Expr.Ref r && r.name().equals(name);
            List<Expr> prefix = tail ? alt.subList(0, alt.size() - 1) : alt;
            for (Expr e : prefix) if (mentions(e, name)) return null;
            if (tail) recursive.add(new Expr.Seq(prefix));
            else base.add(new Expr.Seq(alt));
        }
        if (recursive.isEmpty()) return null;
        Expr loop = new Expr.Repeat(recursive.size() == 1 ? recursive.get(0) : new Expr.Alt(recursive), 0, Expr.Repeat.UNBOUNDED);
        return new Expr.Seq(List.of(loop, base.size() == 1 ? base.get(0) : new Expr.Alt(base)));
    }

    /** Top-level alternatives as item lists; optional groups count as two alternatives. */
    private static boolean flatten(Expr e, List<List<Expr>> out) {
        if (e instanceof Expr.Alt a) {
            for (Expr o : a.options()) if (!flatten(o, out)) return false;
            return true;
        }
        if (e instanceof Expr.Repeat r && r.min() == 0 && r.max() == 1) {
            out.add(List.of());
            return flatten(r.body(), out);
        }
        List<Expr> items = new ArrayList<>();
        flattenSeq(e, items);
        // a trailing optional/alternative group that holds the recursion: distribute it
        if (!items.isEmpty()) {
            Expr last = items.get(items.size() - 1);
            if (last instanceof Expr.Alt || (last instanceof Expr.Repeat r && r.min() == 0 && r.max() == 1)) {
                List<List<Expr>> tails = new ArrayList<>();
                if (!flatten(last, tails)) return false;
                List<Expr> head = items.subList(0, items.size() - 1);
                for (List<Expr> t : tails) {
                    List<Expr> alt = new ArrayList<>(head);
                    alt.addAll(t);
                    out.add(alt);
                }
                return true;
            }
        }
        out.add(items);
        return true;
    }

    private static void flattenSeq(Expr e, List<Expr> items) {
        if (e instanceof Expr.Seq s) for (Expr i : s.items()) flattenSeq(i, items);
        else items.add(e);
    }

    static boolean mentions(Expr e, String name) {
        if (e instanceof Expr.Ref r) return r.name().equals(name);
        if (e instanceof Expr.Seq s) { for (Expr i : s.items()) if (mentions(i, name)) return true; return false; }
        if (e instanceof Expr.Alt a) { for (Expr i : a.options()) if (mentions(i, name)) return true; return false; }
        if (e instanceof Expr.Repeat r) return mentions(r.body(), name);
        if (e instanceof Expr.Perm p) { for (Expr i : p.children()) if (mentions(i, name)) return true; return false; }
        if (e instanceof Expr.UniqueArray u) { for (Expr i : u.children()) if (mentions(i, name)) return true; return false; }
        return false;
    }
}
