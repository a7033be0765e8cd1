package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Productivity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes what can derive no text from a compiled schema grammar. The schema algebra produces empty
 * languages in places (a oneOf branch that the other branches cover entirely, an object whose required
 * property's schema is unsatisfiable), often behind named rules whose emptiness shows only once the
 * whole grammar is built; the grammar compiler rightly rejects a rule that can never finish, so such
 * rules are found (least fixpoint of "derives some finite text") and every reference to them becomes
 * the empty alternative, simplified upwards: a sequence with an empty part is empty, an alternative
 * loses it, an optional repeat of it is the empty string, a permutation drops such an optional member.
 */
final class UnproductiveRules {
    private UnproductiveRules() {}

    static Map<String, Expr> prune(Map<String, Expr> rules) { return prune(rules, Productivity.productiveRules(rules)); }

    /** As {@link #prune(Map)} with the productive rules already known. */
    static Map<String, Expr> prune(Map<String, Expr> rules, Set<String> productive) {
        if (productive.size() == rules.size()) return rules;
        Map<String, Expr> out = new LinkedHashMap<>();
        for (Map.Entry<String, Expr> r : rules.entrySet()) {
            out.put(r.getKey(), productive.contains(r.getKey()) ? rewrite(r.getValue(), productive) : Expr.NOTHING);
        }
        return out;
    }

    private static boolean isNothing(Expr e) { return e instanceof Expr.Alt a && a.options().isEmpty(); }

    private static boolean productive(Expr e, Set<String> productive) { return Productivity.productive(e, productive); }

    private static Expr rewrite(Expr e, Set<String> productive) {
        if (e instanceof Expr.Ref r) return productive.contains(r.name()) ? r : Expr.NOTHING;
        if (e instanceof Expr.Seq s) {
            List<Expr> items = new ArrayList<>();
            for (Expr x : s.items()) {
                Expr y = rewrite(x, productive);
                if (isNothing(y)) return Expr.NOTHING;
                items.add(y);
            }
            return new Expr.Seq(items);
        }
        if (e instanceof Expr.Alt a) {
            List<Expr> options = new ArrayList<>();
            for (Expr x : a.options()) {
                Expr y = rewrite(x, productive);
                if (!isNothing(y)) options.add(y);
            }
            return options.size() == 1 ? options.get(0) : new Expr.Alt(options);
        }
        if (e instanceof Expr.Repeat r) {
            Expr body = rewrite(r.body(), productive);
            if (isNothing(body)) return r.min() == 0 ? Expr.EMPTY : Expr.NOTHING;
            return new Expr.Repeat(body, r.min(), r.max());
        }
        if (e instanceof Expr.Perm p) {
            List<Expr.Perm.Member> members = new ArrayList<>();
            for (Expr.Perm.Member m : p.members()) {
                Expr body = rewrite(m.body(), productive);
                if (isNothing(body)) {
                    if (m.required()) return Expr.NOTHING;
                    continue;
                }
                members.add(new Expr.Perm.Member(body, m.required()));
            }
            Expr perm = new Expr.Perm(members, rewrite(p.other(), productive), rewrite(p.separator(), productive), p.minCount(), p.maxCount());
            return productive(perm, productive) ? perm : Expr.NOTHING;
        }
        if (e instanceof Expr.Lazy l) return new Expr.Lazy(rewrite(l.body(), productive), l.consume());
        if (e instanceof Expr.UniqueArray u) {
            // items from the first position that derives nothing on can never be written: fewer items at most
            List<Expr> prefix = new ArrayList<>();
            int most = u.maxItems();
            for (Expr p : u.prefix()) {
                Expr q = rewrite(p, productive);
                if (isNothing(q) && (most == Expr.Repeat.UNBOUNDED || prefix.size() < most)) most = prefix.size();
                prefix.add(q);
            }
            Expr item = rewrite(u.item(), productive);
            if (isNothing(item) && (most == Expr.Repeat.UNBOUNDED || most > prefix.size())) most = prefix.size();
            Expr sep = rewrite(u.separator(), productive);
            if (isNothing(sep) && (most == Expr.Repeat.UNBOUNDED || most > 1)) most = 1;
            if (most != Expr.Repeat.UNBOUNDED && most < u.minItems()) return Expr.NOTHING;
            if (isNothing(sep)) sep = u.separator(); // never used: at most one item
            return new Expr.UniqueArray(rewrite(u.open(), productive), prefix, item, sep, rewrite(u.close(), productive), u.minItems(), most);
        }
        if (e instanceof Expr.Automaton a && a.dfa().isEmpty()) return Expr.NOTHING;
        return e;
    }
}
