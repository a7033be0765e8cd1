package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.ByteDfa;

import java.util.List;
import java.util.function.Function;

/**
 * The search automaton behind {@link Expr.Until}: the minimal DFA of {@code .*stop} (any text,
 * then a match of the stop), whose accepting states mark "the stop has just matched". Cutting the
 * edges out of those states gives the lazy language (text up to the first match); keeping only
 * the other states gives the text in which the stop never matches.
 */
public final class UntilAutomaton {
    private UntilAutomaton() {}

    /** Bound on the search automaton (the stop is a tag or a few triggers). */
    public static final int MAX_STATES = 2000;

    public static ByteDfa searchAutomaton(Expr stop, Function<String, Expr> rules) {
        Expr search = new Expr.Seq(List.of(Expr.star(new Expr.Chars(CodePointSet.ANY)), stop));
        DfaBuilder.Language language = new DfaBuilder(rules).build(search);
        if (language.nullable() || language.dfa() == null) {
            throw new IllegalStateException("the stop of until(...) must match some non-empty text");
        }
        if (language.dfa().stateCount() > MAX_STATES) {
            throw new IllegalStateException("the stop of until(...) is too large (" + language.dfa().stateCount() + " states, limit " + MAX_STATES + ")");
        }
        return language.dfa();
    }
}
