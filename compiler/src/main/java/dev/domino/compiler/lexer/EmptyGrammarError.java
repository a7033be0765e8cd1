package dev.domino.compiler.lexer;

import dev.domino.compiler.ir.EmptyLanguageWitness;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.ir.Productivity;

import java.util.List;

/**
 * The error for a grammar whose language is empty: it names the innermost rule that can never finish
 * and makes the start rule empty ({@link EmptyLanguageWitness}), at that rule's line and column, with
 * the rules that need it and why it is empty.
 */
final class EmptyGrammarError {
    private EmptyGrammarError() {}

    static final String PREFIX = "the grammar's language is empty: ";

    static GrammarException of(Grammar g) {
        EmptyLanguageWitness w = EmptyLanguageWitness.find(Expr.ref(g.start()), g.rules(), Productivity.productiveRules(g.rules()));
        if (w == null) return at(g, g.start(), "rule '" + g.start() + "' can never finish");
        List<String> rules = w.rules();
        String culprit = rules.get(rules.size() - 1);
        List<String> needers = rules.subList(0, rules.size() - 1);
        if (w.kind() == EmptyLanguageWitness.Kind.CYCLE) needers = needers.subList(0, needers.indexOf(culprit));
        StringBuilder m = new StringBuilder("rule '").append(culprit).append("' can never finish");
        if (!needers.isEmpty()) m.append(" (needed by ").append(String.join(" -> ", needers)).append(')');
        m.append(": ").append(reason(w, culprit));
        return at(g, culprit, m.toString());
    }

    private static String reason(EmptyLanguageWitness w, String rule) {
        Expr e = w.culprit();
        return switch (w.kind()) {
            case CYCLE -> {
                Expr.Ref r = (Expr.Ref) e;
                yield "it needs itself again" + (r.line() > 0 ? " at line " + r.line() + ", column " + r.column() : "")
                    + ", and no alternative ends without it";
            }
            case ALTERNATIVES -> "none of the alternatives " + ExprPrinter.brief(e, 80) + " can finish";
            case COUNTS -> "the count bounds of " + ExprPrinter.brief(e, 80) + " cannot be met";
            case NOTHING -> e instanceof Expr.Alt a && a.options().isEmpty() ? "it is the empty choice"
                : ExprPrinter.brief(e, 80) + " matches nothing";
        };
    }

    private static GrammarException at(Grammar g, String rule, String message) {
        int[] pos = g.rulePositions().get(rule);
        return pos == null ? new GrammarException(PREFIX + message) : new GrammarException(PREFIX + message, pos[0], pos[1]);
    }
}
