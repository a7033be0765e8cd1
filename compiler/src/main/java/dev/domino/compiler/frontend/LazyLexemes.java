package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Rules that carry llguidance's {@code [lazy]} or {@code [suffix=...]} options, checked once every
 * terminal is defined. A lazy lexeme matches as few bytes as possible, so one whose language holds
 * the empty text matches only that ({@code foo[lazy]: /.*}{@code /} is the empty text, as llguidance's
 * syntax reference says); a lazy body must be regular (terminals only), refused at the rule's line
 * and column otherwise.
 */
final class LazyLexemes {
    private LazyLexemes() {}

    /** The rule's body with the lazy reading applied where it decides the language. */
    static Expr resolve(String rule, Expr.Lazy lazy, Map<String, Expr> rules, Set<String> lexical, int[] position) {
        String nonTerminal = firstRuleReference(lazy.body(), rules, lexical, new HashSet<>());
        if (nonTerminal != null) {
            throw new GrammarException("rule '" + rule + "' is lazy (lazy, suffix=) but refers to " + nonTerminal
                    + ": a lazy lexeme is made of terminals only", position[0], position[1]);
        }
        return nullable(lazy.body(), rules, new java.util.HashMap<>()) ? Expr.EMPTY : lazy;
    }

    /** A lower-case rule or a token referenced from {@code e} (directly or through terminals), described; else null. */
    private static String firstRuleReference(Expr e, Map<String, Expr> rules, Set<String> lexical, Set<String> seen) {
        if (e instanceof Expr.Ref r) {
            if (!lexical.contains(r.name())) return "rule '" + r.name() + "'";
            return seen.add(r.name()) ? firstRuleReference(rules.get(r.name()), rules, lexical, seen) : null;
        }
        if (e instanceof Expr.TokenRef) return "a token reference";
        for (Expr c : children(e)) {
            String found = firstRuleReference(c, rules, lexical, seen);
            if (found != null) return found;
        }
        return null;
    }

    private static boolean nullable(Expr e, Map<String, Expr> rules, Map<String, Boolean> known) {
        if (e instanceof Expr.Literal l) return l.text().isEmpty();
        if (e instanceof Expr.Seq s) { for (Expr x : s.items()) if (!nullable(x, rules, known)) return false; return true; }
        if (e instanceof Expr.Alt a) { for (Expr x : a.options()) if (nullable(x, rules, known)) return true; return false; }
        if (e instanceof Expr.Repeat r) return r.min() == 0 || nullable(r.body(), rules, known);
        if (e instanceof Expr.Ref r) {
            Boolean k = known.get(r.name());
            if (k != null) return k;
            known.put(r.name(), false); // terminals are not recursive (checked before); guard anyway
            boolean n = rules.get(r.name()) != null && nullable(rules.get(r.name()), rules, known);
            known.put(r.name(), n);
            return n;
        }
        if (e instanceof Expr.Automaton a) return a.dfa().minLength() == 0;
        return false; // characters, token references, a lazy expression (never empty)
    }

    private static java.util.List<Expr> children(Expr e) {
        if (e instanceof Expr.Seq s) return s.items();
        if (e instanceof Expr.Alt a) return a.options();
        if (e instanceof Expr.Repeat r) return java.util.List.of(r.body());
        if (e instanceof Expr.Lazy l) return java.util.List.of(l.body());
        return java.util.List.of();
    }
}
