package dev.domino.compiler.ir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why an expression derives no text: the path from it down to the innermost part that can never finish
 * and that makes it empty. Each step goes into a part the whole needs (the first empty item of a
 * sequence, the body of a repeat with a minimum, a required member, the only alternative, a referenced
 * rule), and the walk stops where no single part is to blame: a leaf that matches nothing, a choice all
 * of whose alternatives are empty, a rule that needs itself again (recursion without a base case), or
 * member counts that cannot be met. Front ends map the path back to their own places (a rule and its
 * line, a JSON pointer).
 *
 * @param path the expressions walked, the start first and the culprit last
 * @param kind why the last one is empty
 * @param rules the names of the rules entered along the path, in order (for {@link Kind#CYCLE} the
 *              last is the rule needed again)
 */
public record EmptyLanguageWitness(List<Expr> path, Kind kind, List<String> rules) {

    public enum Kind {
        /** a leaf that matches nothing: an empty set of characters or automaton, an empty choice */
        NOTHING,
        /** a choice of several alternatives, none of which derives text */
        ALTERNATIVES,
        /** a rule needed again inside itself, every way: recursion without a base case */
        CYCLE,
        /** members in any order (or distinct items) whose count bounds cannot be met */
        COUNTS
    }

    /** The last expression of the path: the culprit. */
    public Expr culprit() { return path.get(path.size() - 1); }

    /**
     * The witness of {@code start}'s emptiness, or null when it does derive text.
     *
     * @param productive the productive rules of {@code rules} ({@link Productivity#productiveRules})
     */
    public static EmptyLanguageWitness find(Expr start, Map<String, Expr> rules, Set<String> productive) {
        if (Productivity.productive(start, productive)) return null;
        List<Expr> path = new ArrayList<>();
        List<String> entered = new ArrayList<>();
        Set<String> onPath = new HashSet<>();
        Expr e = start;
        while (true) {
            path.add(e);
            Expr next = null;
            if (e instanceof Expr.Ref r) {
                Expr body = rules.get(r.name());
                entered.add(r.name());
                if (body == null) return new EmptyLanguageWitness(path, Kind.NOTHING, entered);
                if (!onPath.add(r.name())) return new EmptyLanguageWitness(path, Kind.CYCLE, entered);
                next = body;
            } else if (e instanceof Expr.Seq s) {
                next = firstEmpty(s.items(), productive);
            } else if (e instanceof Expr.Alt a) {
                if (a.options().isEmpty()) return new EmptyLanguageWitness(path, Kind.NOTHING, entered);
                if (a.options().size() > 1) return new EmptyLanguageWitness(path, Kind.ALTERNATIVES, entered);
                next = a.options().get(0);
            } else if (e instanceof Expr.Repeat r) {
                next = r.body();
            } else if (e instanceof Expr.Lazy l) {
                next = l.body();
            } else if (e instanceof Expr.Perm p) {
                for (Expr.Perm.Member m : p.members()) {
                    if (m.required() && !Productivity.productive(m.body(), productive)) { next = m.body(); break; }
                }
                if (next == null) return new EmptyLanguageWitness(path, Kind.COUNTS, entered);
            } else if (e instanceof Expr.UniqueArray u) {
                List<Expr> needed = new ArrayList<>(List.of(u.open()));
                for (int i = 0; i < Math.max(1, u.minItems()); i++) needed.add(u.itemAt(i));
                if (u.minItems() >= 2) needed.add(u.separator());
                needed.add(u.close());
                next = firstEmpty(needed, productive);
            }
            if (next == null) return new EmptyLanguageWitness(path, Kind.NOTHING, entered);
            e = next;
        }
    }

    private static Expr firstEmpty(List<Expr> parts, Set<String> productive) {
        for (Expr x : parts) if (!Productivity.productive(x, productive)) return x;
        return null;
    }
}
