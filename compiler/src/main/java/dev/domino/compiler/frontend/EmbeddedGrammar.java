package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Copies a sub-grammar's rules into a host grammar under a prefix no host name can have (Lark's
 * {@code %json { ... }}: the JSON Schema front end's grammar inside a Lark grammar).
 */
final class EmbeddedGrammar {
    private final String prefix;
    private final IdentityHashMap<Expr, Expr> done = new IdentityHashMap<>(); // generated grammars are DAGs

    private EmbeddedGrammar(String prefix) { this.prefix = prefix; }

    /** Puts every rule of {@code g} into {@code into} as {@code prefix + name}; returns a reference to its start. */
    static Expr.Ref embed(Grammar g, String prefix, Map<String, Expr> into, int line, int column) {
        EmbeddedGrammar r = new EmbeddedGrammar(prefix);
        for (Map.Entry<String, Expr> e : g.rules().entrySet()) into.put(prefix + e.getKey(), r.rename(e.getValue()));
        return new Expr.Ref(prefix + g.start(), line, column);
    }

    private Expr rename(Expr e) {
        Expr cached = done.get(e);
        if (cached != null) return cached;
        Expr out;
        if (e instanceof Expr.Ref r) out = new Expr.Ref(prefix + r.name(), r.line(), r.column());
        else if (e instanceof Expr.Seq s) out = new Expr.Seq(s.items().stream().map(this::rename).toList());
        else if (e instanceof Expr.Alt a) out = new Expr.Alt(a.options().stream().map(this::rename).toList());
        else if (e instanceof Expr.Repeat rep) out = new Expr.Repeat(rename(rep.body()), rep.min(), rep.max());
        else if (e instanceof Expr.Lazy u) out = new Expr.Lazy(rename(u.body()), u.consume());
        else if (e instanceof Expr.Perm p) {
            out = new Expr.Perm(p.members().stream().map(m -> new Expr.Perm.Member(rename(m.body()), m.required())).toList(),
                    rename(p.other()), rename(p.separator()), p.minCount(), p.maxCount());
        } else if (e instanceof Expr.UniqueArray u) {
            out = new Expr.UniqueArray(rename(u.open()), u.prefix().stream().map(this::rename).toList(), rename(u.item()),
                    rename(u.separator()), rename(u.close()), u.minItems(), u.maxItems());
        } else if (e instanceof Expr.Units u) {
            out = new Expr.Units(rename(u.text()), rename(u.unit()), u.min(), u.max(), u.origin());
        } else {
            out = e; // literals, classes, automata, token references
        }
        done.put(e, out);
        return out;
    }
}
