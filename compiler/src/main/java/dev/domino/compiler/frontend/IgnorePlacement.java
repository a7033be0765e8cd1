package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %ignore} text written into the grammar's rules, for the readings of llguidance's header that
 * the compiler's ignored terminals (allowed before, between and after any terminals, any number of times)
 * do not give: {@code allow_initial_skip: false} (no ignored text before the first lexeme) and
 * {@code ignore_once: true} over a language that two ignored texts in a row leave (at most one ignored
 * text between two lexemes). Every lexeme of a rule (a terminal reference, a literal, a regular
 * expression, a token reference) is followed by the ignored text, once or any number of times; with
 * initial skip the start rule is preceded by it too. Lexemes are the leaves of rules, never split
 * further (in a Lark grammar rules are split by their lexemes), so the language is exactly llguidance's.
 */
final class IgnorePlacement {
    /** The terminal holding the ignored language: a name no Lark terminal can have. */
    static final String IGNORED = "%ignore";
    /** The start rule when ignored text may precede the first lexeme. */
    static final String START = "%start";

    private final Map<String, Expr> rules;
    private final Set<String> lexical;
    private final Map<String, int[]> positions;
    private final Expr after;
    private final Map<String, Boolean> nullableTerminals = new HashMap<>();

    private IgnorePlacement(Map<String, Expr> rules, Set<String> lexical, Map<String, int[]> positions, boolean once) {
        this.rules = rules;
        this.lexical = lexical;
        this.positions = positions;
        this.after = new Expr.Repeat(new Expr.Ref(IGNORED, 0, 0), 0, once ? 1 : Expr.Repeat.UNBOUNDED);
    }

    /**
     * Writes the ignored text into the rules: returns the new rules (with the {@link #IGNORED} terminal,
     * which the caller adds to the terminals) and the start rule's name.
     */
    static Map.Entry<String, Map<String, Expr>> place(Map<String, Expr> rules, Set<String> lexical, Map<String, int[]> positions,
                                                      String start, List<Expr> ignored, boolean initialSkip, boolean once) {
        IgnorePlacement p = new IgnorePlacement(rules, lexical, positions, once);
        Map<String, Expr> out = new LinkedHashMap<>();
        for (Map.Entry<String, Expr> r : rules.entrySet()) {
            out.put(r.getKey(), lexical.contains(r.getKey()) ? r.getValue() : p.rewrite(r.getValue(), r.getKey()));
        }
        out.put(IGNORED, ignored.size() == 1 ? ignored.get(0) : new Expr.Alt(ignored));
        if (!initialSkip) return Map.entry(start, out);
        out.put(START, new Expr.Seq(List.of(p.after, new Expr.Ref(start, 0, 0))));
        return Map.entry(START, out);
    }

    private Expr rewrite(Expr e, String rule) {
        if (e instanceof Expr.Seq s) return new Expr.Seq(s.items().stream().map(x -> rewrite(x, rule)).toList());
        if (e instanceof Expr.Alt a) return new Expr.Alt(a.options().stream().map(x -> rewrite(x, rule)).toList());
        if (e instanceof Expr.Repeat r) return new Expr.Repeat(rewrite(r.body(), rule), r.min(), r.max());
        if (e instanceof Expr.Ref r && !lexical.contains(r.name())) return r; // a rule: its own lexemes carry the ignore
        if (e instanceof Expr.Literal l && l.text().isEmpty()) return l; // no lexeme at all
        // a lexeme
        if (nullable(e)) {
            int[] at = positions.get(rule);
            String what = e instanceof Expr.Ref r ? "terminal '" + r.name() + "'" : "a lexeme of rule '" + rule + "'";
            String m = "%llguidance options allow_initial_skip: false and ignore_once: true are supported with lexemes that match "
                + "some text only; " + what + " matches the empty text";
            throw at == null ? new GrammarException(m) : new GrammarException(m, at[0], at[1]);
        }
        return new Expr.Seq(List.of(e, after));
    }

    /** Whether a lexeme matches the empty text (the IR's own reading: no automaton needed). */
    private boolean nullable(Expr e) {
        if (e instanceof Expr.Literal l) return l.text().isEmpty();
        if (e instanceof Expr.Seq s) { for (Expr x : s.items()) if (!nullable(x)) return false; return true; }
        if (e instanceof Expr.Alt a) { for (Expr x : a.options()) if (nullable(x)) return true; return false; }
        if (e instanceof Expr.Repeat r) return r.min() == 0 || nullable(r.body());
        if (e instanceof Expr.Ref r) {
            Boolean known = nullableTerminals.get(r.name());
            if (known != null) return known;
            nullableTerminals.put(r.name(), false); // a terminal is not recursive; guard anyway
            Expr body = rules.get(r.name());
            boolean n = body != null && nullable(body);
            nullableTerminals.put(r.name(), n);
            return n;
        }
        if (e instanceof Expr.Automaton a) return a.dfa().minLength() == 0;
        if (e instanceof Expr.Lazy l) return false; // its body must not match the empty text
        return false; // characters, token references
    }
}
