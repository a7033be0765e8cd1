package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.runtime.internal.scan.CountedLoop;

import java.util.ArrayList;
import java.util.List;

/**
 * A string's pattern or format encoded as JSON string content ({@link JsonStrings#encodeRegex}), where a
 * long variable repeat of a character class is followed by a character that the class may also be
 * ({@code [A-Za-z0-9-]{0,61}[A-Za-z0-9]}, a host name's label in {@code email} and {@code hostname}): the
 * two become one counted terminal over {@code [A-Za-z0-9-]*[A-Za-z0-9]} of 1 to 62 characters
 * ({@link Expr.Units}), the same strings.
 *
 * <p>Why: the long repeat alone is a counted terminal of its own, which may end before any character the
 * next terminal also reads, so every token inside such a string lexes two ways. A mask without the
 * state's tree stepped both lexings through the trie: for a domain label after {@code "@example"}, 79,000
 * trie nodes, 4 to 10 ms per mask, where the serving target is 2 ms. Counted as one terminal, the label has
 * one lexing.
 */
final class InnerCounts {
    private InnerCounts() {}

    /** c (code points, reference-free) as JSON string content, each such repeat and its next character counted as one. */
    static Expr encode(Expr c, String origin) {
        if (c instanceof Expr.Seq s) {
            List<Expr> items = s.items(), out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                if (i + 1 < items.size() && overlapsNext(items.get(i), items.get(i + 1))) {
                    Expr.Repeat r = (Expr.Repeat) items.get(i);
                    Expr text = JsonStrings.encodeRegex(new Expr.Seq(List.of(new Expr.Repeat(r.body(), 0, Expr.Repeat.UNBOUNDED), items.get(i + 1))), true);
                    out.add(new Expr.Units(text, JsonSyntax.ANY_CHAR, r.min() + 1, r.max() + 1, origin));
                    i++;
                } else {
                    out.add(encode(items.get(i), origin));
                }
            }
            return out.size() == 1 ? out.get(0) : new Expr.Seq(out);
        }
        if (c instanceof Expr.Alt a) return new Expr.Alt(a.options().stream().map(x -> encode(x, origin)).toList());
        if (c instanceof Expr.Repeat r) return new Expr.Repeat(encode(r.body(), origin), r.min(), r.max());
        return JsonStrings.encodeRegex(c, true);
    }

    /**
     * Whether x is {@code C{m,n}} (C a character class, m < n, n long and bounded) and next a character class
     * meeting C: the repeat could end before a character that continues it.
     */
    static boolean overlapsNext(Expr x, Expr next) {
        CodePointSet body = x instanceof Expr.Repeat r ? charClass(r.body()) : null, last = charClass(next);
        return body != null && last != null && x instanceof Expr.Repeat r
                && r.max() != Expr.Repeat.UNBOUNDED && r.max() >= StringSchemas.LONG_REPEAT && r.min() < r.max()
                // a counter of at most a few dozen loop states per count, far within the counted terminals' bound
                && 64L * (r.max() + 2L) <= CountedLoop.MAX_STATES
                && !body.intersect(last).isEmpty();
    }

    /** The characters e is one of, when e is one character; else null. */
    private static CodePointSet charClass(Expr e) {
        if (e instanceof Expr.Chars c) return c.set();
        if (e instanceof Expr.Literal l && l.text().codePointCount(0, l.text().length()) == 1) return CodePointSet.of(l.text().codePointAt(0));
        return null;
    }
}
