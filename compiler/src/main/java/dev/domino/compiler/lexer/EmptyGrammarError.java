package dev.domino.compiler.lexer;

import dev.domino.compiler.ir.EmptyLanguageWitness;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.ir.Productivity;

import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The error for a grammar whose language is empty: it names the innermost rule that can never finish
 * and makes the start rule empty ({@link EmptyLanguageWitness}), at that rule's line and column, with
 * the rules that need it and why it is empty.
 */
final class EmptyGrammarError {
    private EmptyGrammarError() {}

    static final String PREFIX = "the grammar's language is empty: ";

    static GrammarException of(Grammar g) { return of(g, Productivity.productiveRules(g.rules())); }

    /**
     * Before terminals are derived: a grammar whose language is empty, or a rule the start reaches that
     * can never finish only because it recurses without end ({@code c ::= "b" c}), is an error naming that
     * rule at its line and column, even where another alternative keeps the language non-empty. A rule
     * empty on purpose (it writes or reaches an empty choice, an empty character class: what generated
     * grammars write for "nothing here") is left to the derivation, which drops it.
     */
    static void check(Grammar g) {
        Set<String> productive = Productivity.productiveRules(g.rules());
        if (productive.size() == g.rules().size()) return;
        if (!productive.contains(g.start())) throw of(g, productive);
        Set<String> onPurpose = emptyOnPurpose(g, productive);
        java.util.Map<String, String> reachedFrom = new java.util.HashMap<>(); // rule -> the rule that first referred to it
        Set<String> reached = new LinkedHashSet<>(List.of(g.start()));
        ArrayDeque<String> todo = new ArrayDeque<>(reached);
        while (!todo.isEmpty()) {
            String name = todo.poll();
            Expr body = g.rules().get(name);
            if (body == null) continue;
            if (!productive.contains(name)) {
                if (onPurpose.contains(name)) continue;
                EmptyLanguageWitness w = EmptyLanguageWitness.find(Expr.ref(name), g.rules(), productive);
                if (w == null) continue;
                List<String> path = new java.util.ArrayList<>();
                for (String r = reachedFrom.get(name); r != null; r = reachedFrom.get(r)) path.add(0, r);
                throw explain(g, w, path, "");
            }
            for (String used : Productivity.references(body)) {
                if (reached.add(used)) { todo.add(used); reachedFrom.put(used, name); }
            }
        }
    }

    /** The unproductive rules that write an empty choice or class, or refer to one that does (transitively). */
    private static Set<String> emptyOnPurpose(Grammar g, Set<String> productive) {
        java.util.Map<String, List<String>> users = new java.util.HashMap<>();
        Set<String> out = new java.util.HashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>();
        for (java.util.Map.Entry<String, Expr> r : g.rules().entrySet()) {
            if (productive.contains(r.getKey())) continue;
            for (String used : Productivity.references(r.getValue())) users.computeIfAbsent(used, k -> new java.util.ArrayList<>()).add(r.getKey());
            if (writesNothing(r.getValue()) && out.add(r.getKey())) todo.add(r.getKey());
        }
        while (!todo.isEmpty()) {
            for (String user : users.getOrDefault(todo.poll(), List.of())) if (out.add(user)) todo.add(user);
        }
        return out;
    }

    /** Whether an expression writes an empty choice, an empty character class or an empty automaton. */
    private static boolean writesNothing(Expr e) {
        ArrayDeque<Expr> todo = new ArrayDeque<>(List.of(e));
        while (!todo.isEmpty()) {
            Expr x = todo.pop();
            if (x instanceof Expr.Alt a) { if (a.options().isEmpty()) return true; todo.addAll(a.options()); }
            else if (x instanceof Expr.Seq s) todo.addAll(s.items());
            else if (x instanceof Expr.Repeat r) todo.add(r.body());
            else if (x instanceof Expr.Lazy l) todo.add(l.body());
            else if (x instanceof Expr.Perm p) todo.addAll(p.children());
            else if (x instanceof Expr.UniqueArray u) todo.addAll(u.children());
            else if (x instanceof Expr.Chars c && c.set().isEmpty()) return true;
            else if (x instanceof Expr.Automaton a && a.dfa().isEmpty()) return true;
        }
        return false;
    }

    static GrammarException of(Grammar g, Set<String> productive) {
        EmptyLanguageWitness w = EmptyLanguageWitness.find(Expr.ref(g.start()), g.rules(), productive);
        if (w == null) return at(g, g.start(), "rule '" + g.start() + "' can never finish");
        return explain(g, w, List.of(), PREFIX);
    }

    /** The error for the witness {@code w}; {@code path}: the rules from the start down to where the walk began. */
    private static GrammarException explain(Grammar g, EmptyLanguageWitness w, List<String> path, String prefix) {
        List<String> rules = new java.util.ArrayList<>(path);
        rules.addAll(w.rules());
        String culprit = rules.get(rules.size() - 1);
        List<String> needers = rules.subList(0, rules.size() - 1);
        if (w.kind() == EmptyLanguageWitness.Kind.CYCLE) needers = needers.subList(0, needers.indexOf(culprit));
        StringBuilder m = new StringBuilder("rule '").append(culprit).append("' can never finish");
        if (!needers.isEmpty()) m.append(" (needed by ").append(String.join(" -> ", needers)).append(')');
        m.append(": ").append(reason(w, culprit));
        return at(g, culprit, prefix, m.toString());
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

    private static GrammarException at(Grammar g, String rule, String message) { return at(g, rule, PREFIX, message); }

    private static GrammarException at(Grammar g, String rule, String prefix, String message) {
        int[] pos = g.rulePositions().get(rule);
        return pos == null ? new GrammarException(prefix + message) : new GrammarException(prefix + message, pos[0], pos[1]);
    }
}
