package dev.domino.compiler.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A grammar as the front-ends produce it: named rules over {@link Expr}, a start rule, and
 * lexer-level information.
 *
 * <ul>
 *   <li>{@code lexicalRules}: rules the front-end declares to be terminals (Lark's UPPERCASE
 *   rules). Empty for GBNF: the compiler derives terminals itself.</li>
 *   <li>{@code ignored}: expressions that may appear between any two terminals (Lark
 *   {@code %ignore}); they never reach the parser.</li>
 *   <li>{@code fineRules}: rules of a generated grammar embedded in one with lexical rules (a JSON
 *   Schema inside Lark, {@code %json}): the compiler splits them into terminals itself, with small
 *   terminals, as it does a JSON Schema grammar on its own.</li>
 * </ul>
 */
public final class Grammar {
    private final String start;
    private final Map<String, Expr> rules;
    private final Map<String, int[]> rulePositions;
    private final Set<String> lexicalRules;
    private final List<Expr> ignored;
    private final Set<String> fineRules;
    /** Lexical rules with llguidance's {@code max_tokens=N}: rule name -> N (tokens one match may overlap). */
    private final Map<String, Integer> tokenLimits;
    /** Lexical rules with llguidance's {@code stop="..."}: rule name -> the stop text's UTF-8 length (hidden from the output). */
    private final Map<String, Integer> hiddenTails;

    public Grammar(String start, Map<String, Expr> rules, Map<String, int[]> rulePositions,
                   Set<String> lexicalRules, List<Expr> ignored) {
        this(start, rules, rulePositions, lexicalRules, ignored, Set.of());
    }

    public Grammar(String start, Map<String, Expr> rules, Map<String, int[]> rulePositions,
                   Set<String> lexicalRules, List<Expr> ignored, Set<String> fineRules) {
        this(start, rules, rulePositions, lexicalRules, ignored, fineRules, Map.of());
    }

    public Grammar(String start, Map<String, Expr> rules, Map<String, int[]> rulePositions,
                   Set<String> lexicalRules, List<Expr> ignored, Set<String> fineRules, Map<String, Integer> tokenLimits) {
        this(start, rules, rulePositions, lexicalRules, ignored, fineRules, tokenLimits, Map.of());
    }

    public Grammar(String start, Map<String, Expr> rules, Map<String, int[]> rulePositions, Set<String> lexicalRules, List<Expr> ignored,
                   Set<String> fineRules, Map<String, Integer> tokenLimits, Map<String, Integer> hiddenTails) {
        this.tokenLimits = Map.copyOf(tokenLimits);
        this.hiddenTails = Map.copyOf(hiddenTails);
        this.fineRules = Set.copyOf(fineRules);
        this.start = start;
        this.rules = Collections.unmodifiableMap(new LinkedHashMap<>(rules));
        this.rulePositions = Collections.unmodifiableMap(new LinkedHashMap<>(rulePositions));
        this.lexicalRules = Collections.unmodifiableSet(new LinkedHashSet<>(lexicalRules));
        this.ignored = List.copyOf(ignored);
    }

    /** A grammar of plain rules (GBNF style: terminals are derived). */
    public static Grammar of(String start, Map<String, Expr> rules) {
        return new Grammar(start, rules, Map.of(), Set.of(), List.of());
    }

    public String start() { return start; }
    /** Rules in definition order. */
    public Map<String, Expr> rules() { return rules; }
    /** Where each rule was defined: {line, column} (1-based), when the front-end knows it. */
    public Map<String, int[]> rulePositions() { return rulePositions; }
    public Set<String> lexicalRules() { return lexicalRules; }
    public List<Expr> ignored() { return ignored; }
    public Set<String> fineRules() { return fineRules; }
    public Map<String, Integer> tokenLimits() { return tokenLimits; }
    public Map<String, Integer> hiddenTails() { return hiddenTails; }
}
