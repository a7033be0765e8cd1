package dev.domino.compiler.structural;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.algebra.RegularLanguages;

import java.util.ArrayList;
import java.util.List;

/**
 * XGrammar's {@code any_text} with {@code max_chars} beside {@code excludes} or an enclosing tag's end:
 * at most that many code points, holding none of the excluded texts, then the end. Read as the other
 * text formats read an end: the region stops at the first end, so a text end is the first stop in the
 * text (an end overlapping the text's last characters included). One automaton per way to end, so the
 * bound and the stops are both exact.
 */
final class BoundedText {
    private BoundedText() {}

    /**
     * {@code bounded} followed by one of {@code textEnds}, with no exclude or end occurring before that
     * final end; or, when {@code tokenEnd} is not null, {@code bounded} without an exclude or a text end
     * inside it, followed by the token end. Neither: {@code bounded} without an exclude inside it.
     * {@code pointer} names the field in an error.
     */
    static Expr of(Expr bounded, List<Expr> excludes, List<Expr> textEnds, Expr tokenEnd, String pointer) {
        Expr any = Expr.star(new Expr.Chars(CodePointSet.ANY));
        List<Expr> stops = new ArrayList<>(excludes);
        stops.addAll(textEnds);
        List<Expr> ways = new ArrayList<>();
        if (bounded instanceof Expr.Repeat r && !stops.isEmpty() && !canStraddle(stops, textEnds)) {
            // no stop can begin in the text and end inside an end: "no stop inside the text, then an end" is
            // exact, and the bound is a counter on that text (one counted terminal, any bound)
            Expr free;
            try {
                free = RegularLanguages.intersection(List.of(any), List.of(new Expr.Seq(List.of(any, alt(stops), any))));
            } catch (RegularLanguages.TooComplex e) {
                throw new GrammarException("structural tag at " + pointer + ": the excludes and ends are too large for one automaton: " + e.getMessage());
            }
            Expr text = new Expr.Units(free, new Expr.Chars(CodePointSet.ANY), 0, r.max(), "structural tag at " + pointer);
            if (!textEnds.isEmpty()) ways.add(new Expr.Seq(List.of(text, alt(textEnds))));
            if (tokenEnd != null || textEnds.isEmpty()) ways.add(tokenEnd == null ? text : new Expr.Seq(List.of(text, tokenEnd)));
            return alt(ways);
        }
        try {
            if (!textEnds.isEmpty()) {
                // a stop that ends before the last character: the region would have ended there
                Expr earlierStop = new Expr.Seq(List.of(any, alt(stops), Expr.chars(CodePointSet.ANY), any));
                ways.add(RegularLanguages.intersection(List.of(new Expr.Seq(List.of(bounded, alt(textEnds)))), List.of(earlierStop)));
            }
            if (tokenEnd != null || textEnds.isEmpty()) {
                Expr text = stops.isEmpty() ? bounded
                        : RegularLanguages.intersection(List.of(bounded), List.of(new Expr.Seq(List.of(any, alt(stops), any))));
                ways.add(tokenEnd == null ? text : new Expr.Seq(List.of(text, tokenEnd)));
            }
        } catch (RegularLanguages.TooComplex e) {
            throw new GrammarException("structural tag at " + pointer + ": 'max_chars' with these excludes and ends is too large for one automaton: "
                    + e.getMessage());
        }
        return alt(ways);
    }

    /**
     * Whether a stop could start in the text and end inside a text end, before its last character: a
     * stop with a proper suffix that is a proper prefix of an end ("aa" after the text "a" as end "aa").
     */
    private static boolean canStraddle(List<Expr> stops, List<Expr> textEnds) {
        for (Expr e : textEnds) {
            String end = ((Expr.Literal) e).text();
            for (Expr s : stops) {
                String stop = ((Expr.Literal) s).text();
                for (int k = 1; k < stop.length() && k < end.length(); k++) if (stop.endsWith(end.substring(0, k))) return true;
            }
        }
        return false;
    }

    private static Expr alt(List<Expr> items) { return items.size() == 1 ? items.get(0) : new Expr.Alt(items); }
}
