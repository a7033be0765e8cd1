package dev.domino.compiler.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which rules of an IR grammar derive some finite text: the least fixpoint of "some alternative is
 * made of productive parts". A rule outside it can never finish; a grammar whose start rule is outside
 * it has an empty language. Used to prune what a front end produced empty on purpose
 * (a JSON Schema branch no value satisfies) and to explain an empty language ({@link EmptyLanguageWitness}).
 */
public final class Productivity {
    private Productivity() {}

    /** The names of the rules that derive some finite text (a fixpoint over the rules in order). */
    public static Set<String> productiveRules(Map<String, Expr> rules) {
        Set<String> productive = new HashSet<>();
        for (boolean changed = true; changed; ) {
            changed = false;
            for (Map.Entry<String, Expr> r : rules.entrySet()) {
                if (!productive.contains(r.getKey()) && productive(r.getValue(), productive)) {
                    productive.add(r.getKey());
                    changed = true;
                }
            }
        }
        return productive;
    }

    /** The names of the rules {@code e} refers to (iterative: generated expressions nest deeply). */
    public static Set<String> references(Expr e) {
        Set<String> out = new LinkedHashSet<>();
        ArrayDeque<Expr> todo = new ArrayDeque<>(List.of(e));
        java.util.IdentityHashMap<Expr, Boolean> seen = new java.util.IdentityHashMap<>();
        while (!todo.isEmpty()) {
            Expr x = todo.pop();
            if (seen.put(x, Boolean.TRUE) != null) continue;
            if (x instanceof Expr.Ref r) out.add(r.name());
            else if (x instanceof Expr.Seq s) todo.addAll(s.items());
            else if (x instanceof Expr.Alt a) todo.addAll(a.options());
            else if (x instanceof Expr.Repeat r) todo.add(r.body());
            else if (x instanceof Expr.Lazy l) todo.add(l.body());
            else if (x instanceof Expr.Perm p) { for (Expr.Perm.Member m : p.members()) todo.add(m.body()); todo.add(p.other()); todo.add(p.separator()); }
            else if (x instanceof Expr.UniqueArray u) todo.addAll(u.children());
            else if (x instanceof Expr.Units u) { todo.add(u.text()); todo.add(u.unit()); }
        }
        return out;
    }

    /** Whether {@code e} derives some finite text, given the rules known to. */
    public static boolean productive(Expr e, Set<String> productive) {
        if (e instanceof Expr.Ref r) return productive.contains(r.name());
        if (e instanceof Expr.Chars c) return !c.set().equals(CodePointSet.EMPTY);
        if (e instanceof Expr.Seq s) { for (Expr x : s.items()) if (!productive(x, productive)) return false; return true; }
        if (e instanceof Expr.Alt a) { for (Expr x : a.options()) if (productive(x, productive)) return true; return false; }
        if (e instanceof Expr.Repeat r) return r.min() == 0 || productive(r.body(), productive);
        if (e instanceof Expr.Perm p) return permProductive(p, productive);
        if (e instanceof Expr.Lazy l) return productive(l.body(), productive);
        if (e instanceof Expr.UniqueArray u) {
            // the first max(1, minItems) items, and the separator for a second one
            for (int i = 0; i < Math.max(1, u.minItems()); i++) if (!productive(u.itemAt(i), productive)) return false;
            return productive(u.open(), productive) && productive(u.close(), productive)
                && (u.minItems() < 2 || productive(u.separator(), productive));
        }
        if (e instanceof Expr.Automaton a) return !a.dfa().isEmpty();
        return true; // literals, token references, counted units
    }

    /** The required members, and enough members for minCount within maxCount. */
    private static boolean permProductive(Expr.Perm p, Set<String> productive) {
        long required = 0, available = 0;
        for (Expr.Perm.Member m : p.members()) {
            boolean ok = productive(m.body(), productive);
            if (m.required() && !ok) return false;
            if (m.required()) required++;
            if (ok) available++;
        }
        long fewest = Math.max(required, p.minCount());
        long most = p.hasOther() && productive(p.other(), productive) ? Long.MAX_VALUE : available;
        if (p.maxCount() != Expr.Repeat.UNBOUNDED) most = Math.min(most, p.maxCount());
        if (fewest > most) return false;
        return fewest < 2 || productive(p.separator(), productive);
    }
}
