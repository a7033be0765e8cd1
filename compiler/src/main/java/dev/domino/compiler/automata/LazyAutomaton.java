package dev.domino.compiler.automata;

import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.function.Function;

/**
 * The automaton behind {@link Expr.Lazy}: the minimal DFA of the body, whose accepting states
 * mark "the body has just matched". Cutting the edges out of those states gives the lazy
 * language (up to the first match); keeping only the other states gives what may precede it.
 */
public final class LazyAutomaton {
    private LazyAutomaton() {}

    /** Bound on the body's automaton (a stop tag, a few triggers, a lexeme). */
    public static final int MAX_STATES = 2000;

    public static ByteDfa of(Expr body, Function<String, Expr> rules) {
        DfaBuilder.Language language = new DfaBuilder(rules).build(body);
        if (language.nullable() || language.dfa() == null) {
            throw new IllegalStateException("a lazy expression must match some non-empty text, and never the empty text");
        }
        if (language.dfa().stateCount() > MAX_STATES) {
            throw new IllegalStateException("a lazy expression is too large (" + language.dfa().stateCount() + " automaton states, limit " + MAX_STATES + ")");
        }
        return language.dfa();
    }
}
