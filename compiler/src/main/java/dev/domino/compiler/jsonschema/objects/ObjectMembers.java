package dev.domino.compiler.jsonschema.objects;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.SchemaCompiler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The member list of an object: the declared properties (slots, each at most once, required ones
 * present) and the extra members (additional or pattern properties), separated by commas.
 * With {@link JsonSchemaOptions.PropertyOrder#ANY} the members come in any order, extra members
 * anywhere between the declared ones, {@code min/maxProperties} counting all of them: one
 * permutation ({@link #anyOrder}), whose parser items carry the keys seen and the member count.
 * With {@link JsonSchemaOptions.PropertyOrder#SCHEMA} the declared properties come in schema order
 * and extra members follow them; there the count of members is tracked in the rule names
 * ({@link Counted}).
 */
public final class ObjectMembers {
    record Slot(Expr member, boolean required) {}

    private final SchemaCompiler sc;

    public ObjectMembers(SchemaCompiler sc) { this.sc = sc; }

    /** {@code maxP} is {@link Expr.Repeat#UNBOUNDED} (-1) without {@code maxProperties}. */
    Expr objectBody(String name, List<Slot> slots, Expr extra, int minP, int maxP) {
        if (sc.opt.propertyOrder() == JsonSchemaOptions.PropertyOrder.ANY) return anyOrder(slots, extra, minP, maxP);
        boolean counted = minP > 0 || maxP >= 0;
        boolean allOptional = slots.stream().noneMatch(Slot::required);
        List<Expr> opts = new ArrayList<>();
        if (allOptional && minP == 0) opts.add(sc.syn.bracket("{", null, "}"));
        Expr first = counted ? new Counted(name, slots, extra, minP, maxP).first(0) : uncounted(name, slots, extra);
        if (!(first instanceof Expr.Alt a && a.options().isEmpty())) opts.add(sc.syn.bracket("{", first, "}"));
        return opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts);
    }

    /**
     * An object whose declared properties come in any order, each at most once, the required ones
     * present, extra members anywhere between them, between minP and maxP members in all: one
     * permutation ({@link Expr.Perm}), for any number of properties. Whitespace before a member
     * belongs to the member, before a comma to the separator, before the brace to the object, so each
     * text has one parse. No object at all when the counts cannot be met (more required properties
     * than maxP, or fewer possible members than minP).
     */
    private Expr anyOrder(List<Slot> slots, Expr extra, int minP, int maxP) {
        long required = slots.stream().filter(Slot::required).count();
        long most = extra == null ? slots.size() : Long.MAX_VALUE;
        if (maxP >= 0) most = Math.min(most, maxP);
        if (Math.max(required, minP) > most) return Expr.NOTHING;
        Expr ws = sc.syn.ws;
        List<Expr.Perm.Member> members = new ArrayList<>();
        for (Slot s : slots) members.add(new Expr.Perm.Member(JsonSyntax.seq(ws, s.member()), s.required()));
        Expr other = extra == null ? Expr.NOTHING : JsonSyntax.seq(ws, extra);
        Expr separator = sc.syn.flexible() ? JsonSyntax.seq(ws, Expr.literal(",")) : sc.syn.comma();
        return JsonSyntax.seq(Expr.literal("{"), new Expr.Perm(members, other, separator, minP, maxP), ws, Expr.literal("}"));
    }

    /**
     * Non-empty member lists without count constraints, linear in size: with a required slot q,
     * {@code (m_i ,)?... m_q (, m_j)?... (, e)*}; with only optional slots, one alternative per
     * first member, the tails shared through named sc.syn.rules when there are many slots.
     */
    Expr uncounted(String name, List<Slot> slots, Expr extra) {
        int q = -1;
        for (int i = 0; i < slots.size(); i++) if (slots.get(i).required()) { q = i; break; }
        if (q >= 0) {
            List<Expr> items = new ArrayList<>();
            for (int i = 0; i < q; i++) items.add(Expr.optional(JsonSyntax.seq(slots.get(i).member(), sc.syn.comma())));
            items.add(slots.get(q).member());
            items.add(after(slots, extra, q + 1));
            return JsonSyntax.seq(items.toArray(Expr[]::new));
        }
        if (slots.size() <= 3) return firstMember(slots, extra, 0);
        Expr[] tails = new Expr[slots.size() + 1];
        tails[slots.size()] = extra == null ? Expr.EMPTY : Expr.star(JsonSyntax.seq(sc.syn.comma(), extra));
        for (int i = slots.size() - 1; i >= 1; i--) {
            String rule = sc.syn.newName(name + "_t" + i);
            sc.syn.rules.put(rule, JsonSyntax.seq(Expr.optional(JsonSyntax.seq(sc.syn.comma(), slots.get(i).member())), tails[i + 1]));
            tails[i] = Expr.ref(rule);
        }
        List<Expr> alts = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) alts.add(JsonSyntax.seq(slots.get(i).member(), tails[i + 1]));
        if (extra != null) alts.add(JsonSyntax.seq(extra, tails[slots.size()]));
        return JsonSyntax.alt(alts);
    }

    /** Non-empty member lists starting at slot i, nothing emitted yet (no count constraints). */
    Expr firstMember(List<Slot> slots, Expr extra, int i) {
        if (i == slots.size()) return extra == null ? Expr.NOTHING : JsonSyntax.seq(extra, Expr.star(JsonSyntax.seq(sc.syn.comma(), extra)));
        Slot s = slots.get(i);
        Expr take = JsonSyntax.seq(s.member(), after(slots, extra, i + 1));
        if (s.required()) return take;
        return JsonSyntax.alt(List.of(take, firstMember(slots, extra, i + 1)));
    }

    /** Members from slot i on, each preceded by a comma (no count constraints); may be empty. */
    Expr after(List<Slot> slots, Expr extra, int i) {
        List<Expr> items = new ArrayList<>();
        for (int j = i; j < slots.size(); j++) {
            Expr m = JsonSyntax.seq(sc.syn.comma(), slots.get(j).member());
            items.add(slots.get(j).required() ? m : Expr.optional(m));
        }
        if (extra != null) items.add(Expr.star(JsonSyntax.seq(sc.syn.comma(), extra)));
        return items.isEmpty() ? Expr.EMPTY : JsonSyntax.seq(items.toArray(Expr[]::new));
    }

    /** Member lists with min/maxProperties: one named rule per (slot, count) state. */
    final class Counted {
        final String base;
        final List<Slot> slots;
        final Expr extra;
        final int minP, maxP, cap;
        final Map<String, Expr> memo = new HashMap<>();

        Counted(String base, List<Slot> slots, Expr extra, int minP, int maxP) {
            this.base = base;
            this.slots = slots;
            this.extra = extra;
            this.minP = minP;
            this.maxP = maxP;
            this.cap = maxP >= 0 ? maxP : Math.max(minP, 1);
        }

        Expr first(int i) {
            if (i == slots.size()) return extras(0);
            Slot s = slots.get(i);
            Expr take = maxP == 0 ? Expr.NOTHING : JsonSyntax.seq(s.member(), after(i + 1, 1));
            if (s.required()) return take;
            return JsonSyntax.alt(List.of(take, first(i + 1)));
        }

        /** Extra members given c emitted; c == 0 means non-empty and no leading comma. */
        Expr extras(int c) {
            int lo = Math.max(0, minP - c);
            int hi = maxP >= 0 ? maxP - c : Expr.Repeat.UNBOUNDED;
            if (hi != Expr.Repeat.UNBOUNDED && hi < lo) return Expr.NOTHING;
            if (extra == null) return lo == 0 && c > 0 ? Expr.EMPTY : Expr.NOTHING;
            if (c == 0) {
                if (hi == 0) return Expr.NOTHING;
                return JsonSyntax.seq(extra, new Expr.Repeat(JsonSyntax.seq(sc.syn.comma(), extra), Math.max(lo, 1) - 1,
                    hi == Expr.Repeat.UNBOUNDED ? hi : hi - 1));
            }
            if (hi == 0) return Expr.EMPTY;
            return new Expr.Repeat(JsonSyntax.seq(sc.syn.comma(), extra), lo, hi);
        }

        /** Members from slot i, c >= 1 already emitted; a named rule. */
        Expr after(int i, int c) {
            int cc = Math.min(c, cap);
            if (maxP >= 0 && c > maxP) return Expr.NOTHING;
            String key = i + "_" + cc;
            if (memo.containsKey(key)) return memo.get(key);
            String rule = sc.syn.newName(base + "_s" + i + "_" + cc);
            Expr ref = Expr.ref(rule);
            memo.put(key, ref);
            sc.syn.rules.put(rule, Expr.EMPTY);
            Expr body;
            if (i == slots.size()) body = extras(cc);
            else {
                Slot s = slots.get(i);
                List<Expr> opts = new ArrayList<>();
                if (maxP < 0 || cc + 1 <= maxP) opts.add(JsonSyntax.seq(sc.syn.comma(), s.member(), after(i + 1, cc + 1)));
                if (!s.required()) opts.add(after(i + 1, cc));
                body = JsonSyntax.alt(opts);
            }
            sc.syn.rules.put(rule, body);
            return ref;
        }
    }
}
