package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.util.ProcessCaches;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drops counts that cannot change a language: when a reference-free body's language is closed
 * under concatenation (L·L ⊆ L, as for {@code [^x]*} or {@code (a|b)+}), {@code body{m,n}} is
 * {@code body} itself (or {@code body?} for m = 0, the empty string for n = 0). Why: nested
 * bounded repeats of such a body ({@code ((([^x]*){0,99}){0,99}){0,99}}, which llama.cpp accepts)
 * otherwise look like a million copies to the size estimate and end up as counters or parser
 * rules, when the language is one small terminal. Closure is checked on the automata: the minimal
 * automaton of {@code body+} equals that of {@code body}. Only bodies holding an unbounded repeat
 * are checked (a body without one is a finite language, closed under concatenation only if it is
 * empty or the empty string), so ordinary counted pieces ({@code [0-9]{3}}) cost nothing.
 * Expressions are rewritten bottom-up, memoized by identity (generated grammars are DAGs).
 */
final class RepeatClosure {
    /** Subset states allowed when checking a body; a larger body is left as written. */
    private static final int MAX_CHECK_STATES = 2000;

    private final DfaBuilder automata = new DfaBuilder(name -> null);
    private final IdentityHashMap<Expr, Expr> done = new IdentityHashMap<>();
    private final IdentityHashMap<Expr, Boolean> plain = new IdentityHashMap<>();
    private final IdentityHashMap<Expr, Boolean> unbounded = new IdentityHashMap<>();

    Expr simplify(Expr e) {
        Expr cached = done.get(e);
        if (cached != null) return cached;
        Expr out = e;
        if (e instanceof Expr.Seq s) {
            List<Expr> items = map(s.items());
            if (items != null) out = new Expr.Seq(items);
        } else if (e instanceof Expr.Alt a) {
            List<Expr> options = map(a.options());
            if (options != null) out = new Expr.Alt(options);
        } else if (e instanceof Expr.Repeat r) {
            Expr body = simplify(r.body());
            out = body == r.body() ? r : new Expr.Repeat(body, r.min(), r.max());
            Expr.Repeat flat = flatten(body, r.min(), r.max());
            if (flat != null) {
                out = flat;
                body = flat.body();
                r = flat;
            }
            if ((r.max() == Expr.Repeat.UNBOUNDED || r.max() > 1) && isPlain(body) && hasUnbounded(body)) {
                int closure = closure(body);
                if (closure != NOT_CLOSED) {
                    boolean nullable = closure == CLOSED_NULLABLE;
                    out = r.max() == 0 ? Expr.EMPTY : r.min() == 0 && !nullable ? Expr.optional(body) : body;
                }
            }
        }
        done.put(e, out);
        return out;
    }

    /**
     * {@code (B{a,b}){c,d}} as {@code B{c·a, d·b}} when a ≤ 1 ≤ b: the counts k·a..k·b of consecutive
     * k then touch, so their union is one interval. Null when it does not apply or the product is
     * past the repeat budget.
     */
    private static Expr.Repeat flatten(Expr body, int c, int d) {
        if (!(body instanceof Expr.Repeat inner) || inner.min() > 1 || (inner.max() != Expr.Repeat.UNBOUNDED && inner.max() < 1)) return null;
        long min = (long) c * inner.min();
        long max = d == Expr.Repeat.UNBOUNDED || inner.max() == Expr.Repeat.UNBOUNDED ? Expr.Repeat.UNBOUNDED : (long) d * inner.max();
        if (max == 0) return null;
        long limit = dev.domino.compiler.CompileLimits.REPEAT_COUNT.value();
        if (min > limit || max > limit) return null;
        return new Expr.Repeat(inner.body(), (int) min, (int) max);
    }

    /** The rewritten items, or null when none changed. */
    private List<Expr> map(List<Expr> items) {
        List<Expr> out = null;
        for (int i = 0; i < items.size(); i++) {
            Expr x = simplify(items.get(i));
            if (x != items.get(i) && out == null) out = new ArrayList<>(items.subList(0, i));
            if (out != null) out.add(x);
        }
        return out;
    }

    private static final int NOT_CLOSED = 0, CLOSED = 1, CLOSED_NULLABLE = 2;

    /**
     * Closure checks of small bodies, per process, by structure: the same bodies (a format's or a string
     * body's pieces) recur in every schema, and each check builds two automata.
     */
    private static final BoundedCache<Expr, Integer> CHECKED = ProcessCaches.register(new BoundedCache<>("repeat closure checks", 4L << 20));

    /** {@link #NOT_CLOSED}, or whether the closed body matches the empty string. */
    private int closure(Expr body) {
        boolean shared = DfaBuilder.isShareable(body);
        Integer known = shared ? CHECKED.get(body) : null;
        if (known != null) return known;
        int closure = !closedUnderConcatenation(body) ? NOT_CLOSED : language(body).nullable() ? CLOSED_NULLABLE : CLOSED;
        if (shared) CHECKED.putIfAbsent(body, closure, 128 + DfaBuilder.exprBytes(body));
        return closure;
    }

    private boolean closedUnderConcatenation(Expr body) {
        try {
            DfaBuilder.Language once = language(body);
            DfaBuilder.Language more = automata.build(new Expr.Repeat(body, 1, Expr.Repeat.UNBOUNDED), MAX_CHECK_STATES);
            return once.nullable() == more.nullable() && java.util.Objects.equals(once.dfa(), more.dfa());
        } catch (DfaBuilder.TooLarge | IllegalStateException tooLarge) {
            return false;
        }
    }

    private final IdentityHashMap<Expr, DfaBuilder.Language> languages = new IdentityHashMap<>();

    private DfaBuilder.Language language(Expr body) {
        DfaBuilder.Language l = languages.get(body);
        if (l == null) {
            l = automata.build(body, MAX_CHECK_STATES);
            languages.put(body, l);
        }
        return l;
    }

    /** Literals, classes and automata under sequences, alternatives and repeats: nothing the parser must run. */
    private boolean isPlain(Expr e) {
        Boolean known = plain.get(e);
        if (known != null) return known;
        boolean p;
        if (e instanceof Expr.Literal || e instanceof Expr.Chars || e instanceof Expr.Automaton) p = true;
        else if (e instanceof Expr.Seq s) p = s.items().stream().allMatch(this::isPlain);
        else if (e instanceof Expr.Alt a) p = a.options().stream().allMatch(this::isPlain);
        else if (e instanceof Expr.Repeat r) p = isPlain(r.body());
        else p = false;
        plain.put(e, p);
        return p;
    }

    private boolean hasUnbounded(Expr e) {
        Boolean known = unbounded.get(e);
        if (known != null) return known;
        boolean u;
        if (e instanceof Expr.Seq s) u = s.items().stream().anyMatch(this::hasUnbounded);
        else if (e instanceof Expr.Alt a) u = a.options().stream().anyMatch(this::hasUnbounded);
        else if (e instanceof Expr.Repeat r) u = r.max() == Expr.Repeat.UNBOUNDED || hasUnbounded(r.body());
        else u = false;
        unbounded.put(e, u);
        return u;
    }
}
