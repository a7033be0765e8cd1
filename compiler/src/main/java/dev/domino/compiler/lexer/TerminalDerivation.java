package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.CountingAutomata;
import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.parse.ParserGrammar;
import dev.domino.runtime.internal.parse.Permutation;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.scan.TokenMatch;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Splits a grammar into terminals and a parser-level CFG without changing its language.
 *
 * <ul>
 *   <li>Lexical mode (Lark, or any grammar declaring {@code lexicalRules}): the declared rules
 *   are the terminals; literals and character classes inside other rules become terminals.</li>
 *   <li>Derived mode (GBNF): a rule is regular when it reaches no recursion (after Arden's
 *   rewrite of right-linear self recursion). A regular rule referenced from a non-regular rule
 *   becomes a terminal, as does every literal, class or regular group there. A regular start
 *   rule makes the whole grammar one terminal.</li>
 * </ul>
 * A terminal never matches the empty string: a nullable one keeps its non-empty part and its
 * references become optional in the parser grammar.
 */
public final class TerminalDerivation {
    private final Grammar source;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final boolean lexicalMode;
    /** Derived mode, small terminals: only reference-free regular pieces become terminals. */
    private final boolean fineTerminals;
    private final Set<String> terminalRules = new HashSet<>();
    /**
     * True while a rule of {@link Grammar#fineRules()} is split: there the grammar is read as in derived
     * mode with small terminals, whatever {@link #lexicalMode} says (a JSON Schema inside Lark).
     */
    private boolean inFineRule;

    private boolean lexicalHere() { return lexicalMode && !inFineRule; }

    private boolean fineHere() { return fineTerminals || inFineRule; }
    private final Set<String> regularRules = new HashSet<>();
    private final DfaBuilder automata;
    private final java.util.IdentityHashMap<Expr, Integer> symbolCache = new java.util.IdentityHashMap<>();
    /**
     * What the analyses found out about each expression node, in one identity map. Why one: five
     * maps (references checked, rule references, size, finiteness, counters) each grew to the
     * grammar's node count, and their puts and resizes showed in the compile profile.
     */
    private final java.util.IdentityHashMap<Expr, Facts> facts = new java.util.IdentityHashMap<>(1024);

    /** Memoized analyses of one expression node (see {@link #facts}); unknown until computed. */
    private static final class Facts {
        boolean refsChecked;
        Set<String> refs;
        int size = -1;
        byte finite = -1, counter = -1; // -1 unknown, 0 no, 1 yes
    }

    private Facts facts(Expr e) {
        Facts f = facts.get(e);
        if (f == null) {
            f = new Facts();
            facts.put(e, f);
        }
        return f;
    }

    // terminal construction
    private final Map<Object, Integer> terminalIndex = new HashMap<>();          // rule names, literals, classes
    private final Map<Expr, Integer> compoundTerminalIndex = new java.util.IdentityHashMap<>();
    /**
     * One terminal as derived, before unused ones are dropped and equal languages merged.
     *
     * @param automaton null: the empty language
     * @param counted   {min, max} of a counted terminal; null: an ordinary terminal
     * @param tokens    non-null: a token terminal
     * @param units     of a counted terminal over a pattern: its unit boundaries (see CountedLoop); else null
     * @param weights   of a counted terminal over a body that splits several ways: its final weights
     *                  (see CountedLoop, AmbiguousCounts); else null
     */
    private record Derived(String name, Expr expr, ByteDfa automaton, boolean nullable, boolean ignored, int[] counted, TokenMatch tokens,
                           boolean[] units, int[] weights) {
        Derived(String name, Expr expr, ByteDfa automaton, boolean nullable, boolean ignored, int[] counted, TokenMatch tokens) {
            this(name, expr, automaton, nullable, ignored, counted, tokens, null, null);
        }

        Derived(String name, Expr expr, ByteDfa automaton, boolean nullable, boolean ignored, int[] counted, TokenMatch tokens, boolean[] units) {
            this(name, expr, automaton, nullable, ignored, counted, tokens, units, null);
        }

        Derived asIgnored() { return new Derived(name, expr, automaton, nullable, true, counted, tokens, units, weights); }
    }

    private final List<Derived> derived = new ArrayList<>();
    /** Resolves token references against the vocabulary; null when there is none (then they are an error). */
    private final Function<Expr.TokenRef, TokenMatch> tokenResolver;
    /** What {@link #refs} reports for a token reference: a "rule" that is never regular. */
    private static final String TOKEN_REFERENCE = "<token reference>";
    /** What {@link #refs} reports for an array of distinct items: a "rule" that is never regular. */
    private static final String UNIQUE_ARRAY = "<unique array>";
    /** Derived terminal -> its role in arrays of distinct items (Terminal.UNIQUE_*), for the marked terminals only. */
    private final Map<Integer, Integer> uniqueRoles = new HashMap<>();
    /** Derived terminal -> the most tokens one match may overlap (lexemes with max_tokens=), for those only. */
    private final Map<Integer, Integer> tokenLimits = new HashMap<>();
    /** Derived terminal -> bytes at the end of each match hidden from the output (lexemes with stop=), for those only. */
    private final Map<Integer, Integer> hiddenTails = new HashMap<>();

    // parser-level construction
    private final List<String> ntNames = new ArrayList<>();
    private final Map<String, Integer> ruleNt = new HashMap<>();
    private final List<Integer> prodLhs = new ArrayList<>();
    private final List<int[]> prodRhs = new ArrayList<>();
    private final Set<Integer> intentionallyEmpty = new HashSet<>();
    private int freshCounter;

    private TerminalDerivation(Grammar g, boolean fineTerminals, Function<Expr.TokenRef, TokenMatch> tokenResolver) {
        this.source = g;
        this.tokenResolver = tokenResolver;
        this.fineTerminals = fineTerminals;
        this.lexicalMode = !g.lexicalRules().isEmpty() || !g.ignored().isEmpty();
        this.automata = new DfaBuilder(name -> rules.get(name));
    }

    public static LexedGrammar derive(Grammar g) { return new TerminalDerivation(g, false, null).run(); }

    /** As {@link #derive(Grammar)}; token references ({@code <|eot_id|>}) resolved by {@code tokens}. */
    public static LexedGrammar derive(Grammar g, Function<Expr.TokenRef, TokenMatch> tokens) {
        return new TerminalDerivation(g, false, tokens).run();
    }

    /** As {@link #deriveFine(Grammar)}; token references resolved by {@code tokens}. */
    public static LexedGrammar deriveFine(Grammar g, Function<Expr.TokenRef, TokenMatch> tokens) {
        return new TerminalDerivation(g, true, tokens).run();
    }

    /**
     * Derived mode with small terminals: a regular rule or group becomes a terminal only if it
     * references no other rule; composite regular rules stay in the parser. Generated grammars
     * (JSON Schema) use it so that one string or number terminal serves every property, and
     * its trees and vocabulary walks are shared.
     */
    public static LexedGrammar deriveFine(Grammar g) { return new TerminalDerivation(g, true, null).run(); }

    private LexedGrammar run() {
        if (!source.rules().containsKey(source.start())) {
            throw new GrammarException("the start rule '" + source.start() + "' is not defined");
        }
        // the rule names each body references are needed below anyway; a reference to an unknown rule is
        // then looked for, for its position, only in a body that has one
        for (Map.Entry<String, Expr> e : source.rules().entrySet()) if (!knownRefs(e.getValue())) checkRefs(e.getValue());
        for (Expr e : source.ignored()) if (!knownRefs(e)) checkRefs(e);
        // user-written grammars: a rule that recurses without end is a mistake (generated ones, in fine mode, prune their own)
        if (!fineTerminals) EmptyGrammarError.check(source);
        RepeatClosure closure = new RepeatClosure();
        for (Map.Entry<String, Expr> e : source.rules().entrySet()) {
            Expr body = closure.simplify(e.getValue());
            if (refs(body).contains(e.getKey())) {
                Expr rewritten = ArdenRewrite.rewrite(e.getKey(), body);
                if (rewritten != null) body = rewritten;
            }
            rules.put(e.getKey(), body);
        }
        computeRegular();
        if (lexicalMode) {
            for (String name : source.lexicalRules()) {
                if (!regularRules.contains(name)) {
                    if (refs(rules.get(name)).contains(TOKEN_REFERENCE)) {
                        throw error("terminal '" + name + "' contains a token reference; token references belong in rules, not terminals", name);
                    }
                    throw error("terminal '" + name + "' is recursive or refers to a rule; terminals must be regular", name);
                }
                terminalRules.add(name);
            }
        }

        // the ignored terminals come first so their ids are stable
        for (Expr e : source.ignored()) {
            int t = terminalFor("%ignore " + ExprPrinter.print(e), e, () -> ExprPrinter.brief(e, 40));
            derived.set(t, derived.get(t).asIgnored());
        }

        int start = parserNonterminal(source.start());
        return reduceAndPack(start);
    }

    // ------------------------------------------------------------ analysis

    private void checkRefs(Expr e) {
        Facts f = facts(e);
        if (f.refsChecked) return;
        f.refsChecked = true;
        if (e instanceof Expr.Ref r) {
            if (!source.rules().containsKey(r.name())) {
                throw new GrammarException("unknown rule '" + r.name() + "'", r.line(), r.column());
            }
        } else if (e instanceof Expr.Seq s) {
            s.items().forEach(this::checkRefs);
        } else if (e instanceof Expr.Alt a) {
            a.options().forEach(this::checkRefs);
        } else if (e instanceof Expr.Repeat r) {
            checkRefs(r.body());
        } else if (e instanceof Expr.Lazy l) {
            checkRefs(l.body());
        } else if (e instanceof Expr.Perm p) {
            p.children().forEach(this::checkRefs);
        } else if (e instanceof Expr.UniqueArray u) {
            u.children().forEach(this::checkRefs);
        }
    }

    /** True when every rule name {@code e} references is defined. */
    private boolean knownRefs(Expr e) {
        for (String name : refs(e)) {
            if (!name.equals(TOKEN_REFERENCE) && !name.equals(UNIQUE_ARRAY) && !source.rules().containsKey(name)) return false;
        }
        return true;
    }

    /** Regular = reaches no cycle in the reference graph. */
    private void computeRegular() {
        Map<String, Integer> state = new HashMap<>(); // 1 = visiting, 2 = regular, 3 = not regular
        for (String name : rules.keySet()) classify(name, state);
    }

    private boolean classify(String name, Map<String, Integer> state) {
        if (!rules.containsKey(name)) return false; // a token reference: never regular
        Integer s = state.get(name);
        if (s != null) return s == 2; // visiting counts as a cycle: not regular
        state.put(name, 1);
        boolean regular = true;
        for (String ref : refs(rules.get(name))) {
            if (!classify(ref, state)) regular = false;
        }
        state.put(name, regular ? 2 : 3);
        if (regular) regularRules.add(name);
        return regular;
    }

    /**
     * Rule names an expression references. Memoized by identity: generated grammars share
     * subexpressions heavily (a DAG), and a plain recursive walk would be exponential.
     */
    private Set<String> refs(Expr e) {
        Facts f = facts(e);
        if (f.refs != null) return f.refs;
        Set<String> out;
        if (e instanceof Expr.Ref r) {
            out = Set.of(r.name());
        } else if (e instanceof Expr.TokenRef) {
            out = Set.of(TOKEN_REFERENCE);
        } else if (e instanceof Expr.UniqueArray u) {
            // never part of a regular rule: its marked terminals must reach the parser
            Set<String> acc = new HashSet<>(Set.of(UNIQUE_ARRAY));
            for (Expr c : u.children()) acc.addAll(refs(c));
            out = acc;
        } else if (e instanceof Expr.Seq || e instanceof Expr.Alt || e instanceof Expr.Repeat || e instanceof Expr.Lazy || e instanceof Expr.Perm) {
            List<Expr> children = e instanceof Expr.Seq s ? s.items() : e instanceof Expr.Alt a ? a.options()
                    : e instanceof Expr.Lazy l ? List.of(l.body()) : e instanceof Expr.Perm p ? p.children() : List.of(((Expr.Repeat) e).body());
            Set<String> acc = null;
            for (Expr c : children) {
                Set<String> r = refs(c);
                if (r.isEmpty()) continue;
                if (acc == null) acc = new HashSet<>();
                acc.addAll(r);
            }
            out = acc == null ? Set.of() : acc;
        } else {
            out = Set.of();
        }
        f.refs = out;
        return out;
    }

    private boolean isRegularExpr(Expr e) {
        for (String r : refs(e)) if (!regularRules.contains(r)) return false;
        return true;
    }

    private boolean isTerminalRule(String name) {
        boolean fineRule = source.fineRules().contains(name);
        if (lexicalMode && !fineRule) return terminalRules.contains(name);
        return regularRules.contains(name) && (!(fineTerminals || fineRule) || refs(rules.get(name)).isEmpty())
                && !tooBig(new Expr.Ref(name, 0, 0)) && !tooLargeRules.contains(name);
    }

    /**
     * Above this estimated automaton size a regular piece stays in the parser instead of
     * becoming one terminal: {@code item{0,1000}} is cheap for Earley as a chain of optional
     * items, but a 30,000-state automaton is slow to build and to walk.
     */
    static final int MAX_TERMINAL_SIZE = 4000;
    /** Regular rules whose automaton turned out too large: they stay in the parser. */
    private final Set<String> tooLargeRules = new HashSet<>();

    /**
     * Over the size limit for one terminal. Expressions without bounded repeats get a larger
     * limit: their automata are tries and loops (a key set, "any key but these"), whose states
     * mostly share vocabulary walks, while a counter's every state needs its own; and the size
     * estimate counts a shared tail (the "any string" after each trie branch) once per branch.
     */
    private boolean tooBig(Expr e) {
        if (holdsAmbiguousCount(e)) return true; // split, so that the repeat becomes its counted terminal
        int n = size(e);
        if (n <= MAX_TERMINAL_SIZE) return false;
        if (n <= FINITE_TERMINAL_SIZE && isFinite(e)) return false;
        if (exactCounted(e) != null) return false;
        return n > COUNTER_FREE_TERMINAL_SIZE || hasCounter(e);
    }

    /**
     * Counted repeats of bodies that split several ways ({@code ("a" | [0-9]+){0,99}}), nested or
     * not, in user-written grammars: their exact automaton by the counting construction (see
     * {@link CountingAutomata}) when it is within {@link DfaBuilder#MAX_STATES} states, else null.
     * The size estimate counts such a repeat as its unrolled copies, which sent a small language to
     * the parser as ambiguous counted rules.
     */
    private DfaBuilder.Language exactCounted(Expr e) {
        if (fineTerminals || e instanceof Expr.Perm || e instanceof Expr.Units || e instanceof Expr.UniqueArray || !isRegularExpr(e)) return null;
        if (exactCounted.containsKey(e)) return exactCounted.get(e);
        DfaBuilder.Language l = null;
        try {
            if (counting.hasAmbiguousCount(e)) l = counting.build(e);
        } catch (DfaBuilder.TooLarge | IllegalStateException tooLarge) {
            l = null;
        }
        exactCounted.put(e, l);
        return l;
    }

    private final java.util.IdentityHashMap<Expr, DfaBuilder.Language> exactCounted = new java.util.IdentityHashMap<>();
    private final CountingAutomata counting = new CountingAutomata(name -> rules.get(name), DfaBuilder.MAX_STATES);

    /**
     * Limit of {@link #tooBig} for finite, counter-free expressions (literal sets: a large
     * {@code enum}, a GBNF alternation of 120,000 words). Their automata are tries with one or two
     * byte ranges per state (sparse, see ByteDfa): one terminal of 100,000 states compiles in
     * seconds, where one terminal per literal makes an artifact that grows with the literals
     * times their trees.
     */
    static final int FINITE_TERMINAL_SIZE = 8_000_000;

    /** Finite language without counters: literals, classes, sequences, alternatives, small repeats of those. */
    private boolean isFinite(Expr e) {
        Facts facts = facts(e);
        if (facts.finite >= 0) return facts.finite == 1;
        facts.finite = 0; // guards recursion through references
        boolean f;
        if (e instanceof Expr.Literal || e instanceof Expr.Chars) f = true;
        else if (e instanceof Expr.Automaton a) f = a.dfa().maxLength() != Integer.MAX_VALUE;
        else if (e instanceof Expr.Seq sq) { f = true; for (Expr i : sq.items()) if (!isFinite(i)) { f = false; break; } }
        else if (e instanceof Expr.Alt a) { f = true; for (Expr o : a.options()) if (!isFinite(o)) { f = false; break; } }
        else if (e instanceof Expr.Repeat r) f = r.max() != Expr.Repeat.UNBOUNDED && r.max() <= SMALL_COUNT && isFinite(r.body());
        else if (e instanceof Expr.Ref ref) f = regularRules.contains(ref.name()) && isFinite(rules.get(ref.name()));
        else f = false;
        facts.finite = (byte) (f ? 1 : 0);
        return f;
    }

    /**
     * The subset construction's bound for one terminal: {@link DfaBuilder#MAX_STATES}, or for a
     * large finite expression its NFA size estimate (a trie's DFA is no larger than its NFA; a
     * finite language that blows up past that stays in the parser).
     */
    private int stateBound(Expr e) {
        int n = size(e);
        int leaf = automatonLeafSize(e);
        if (leaf > 0) {
            // a string language given as a code point automaton cannot be split into parser rules: its byte
            // automaton may be as large as the budget allows (UTF-8 adds states inside multi-byte ranges)
            long left = dev.domino.compiler.CompileLimits.AUTOMATON_STATES.value() - automatonStates + 1;
            return (int) Math.max(DfaBuilder.MAX_STATES, Math.min(8L * leaf, left));
        }
        if (n <= MAX_TERMINAL_SIZE || !isFinite(e)) return DfaBuilder.MAX_STATES;
        // the budget counts minimized states; a trie's subset construction makes up to twice as
        // many before minimization (120,000 words: 1.33 M subset states, 736,000 minimal), so
        // allow twice what the automaton-states budget has left
        long left = dev.domino.compiler.CompileLimits.AUTOMATON_STATES.value() - automatonStates + 1;
        return (int) Math.max(DfaBuilder.MAX_STATES, Math.min(2L * n, 2 * left));
    }

    /** States and ranges of the code point automata in e itself or among its items (a run of a sequence); 0 if none. */
    private static int automatonLeafSize(Expr e) {
        if (e instanceof Expr.Automaton a) return a.dfa().stateCount() + a.dfa().rangeCount();
        int n = 0;
        if (e instanceof Expr.Seq s) for (Expr i : s.items()) if (i instanceof Expr.Automaton a) n += a.dfa().stateCount() + a.dfa().rangeCount();
        return n;
    }

    /** Limit of {@link #tooBig} for expressions without bounded repeats. */
    static final int COUNTER_FREE_TERMINAL_SIZE = 4 * MAX_TERMINAL_SIZE;

    /** Repeat counts up to this are not counters (the four hex digits of a {@code \\u} escape). */
    private static final int SMALL_COUNT = 8;

    /** Whether a counting repeat (x{n,}, x{0,n} with n > SMALL_COUNT) occurs; references count as yes. */
    private boolean hasCounter(Expr e) {
        Facts facts = facts(e);
        if (facts.counter >= 0) return facts.counter == 1;
        boolean c;
        if (e instanceof Expr.Seq sq) { c = false; for (Expr i : sq.items()) if (hasCounter(i)) { c = true; break; } }
        else if (e instanceof Expr.Alt a) { c = false; for (Expr o : a.options()) if (hasCounter(o)) { c = true; break; } }
        else if (e instanceof Expr.Repeat r) c = (r.max() != Expr.Repeat.UNBOUNDED && r.max() > SMALL_COUNT) || r.min() > SMALL_COUNT || hasCounter(r.body());
        else c = e instanceof Expr.Ref || e instanceof Expr.Perm || e instanceof Expr.Units || e instanceof Expr.UniqueArray;
        facts.counter = (byte) (c ? 1 : 0);
        return c;
    }

    /** Rough NFA size of a regular expression, saturating just above the limit. */
    private int size(Expr e) {
        Facts facts = facts(e);
        if (facts.size >= 0) return facts.size;
        long n;
        if (e instanceof Expr.Literal lit) n = lit.text().length() + 1;
        else if (e instanceof Expr.Chars c) n = 2 + Math.min(64, c.set().rangeCount());
        else if (e instanceof Expr.Automaton a) n = 2 + a.dfa().stateCount() + a.dfa().rangeCount();
        else if (e instanceof Expr.Seq sq) { n = 1; for (Expr i : sq.items()) n += size(i); }
        else if (e instanceof Expr.Alt a) { n = 1; for (Expr o : a.options()) n += size(o); }
        else if (e instanceof Expr.Repeat r) {
            long copies = r.max() == Expr.Repeat.UNBOUNDED ? r.min() + 1L : Math.max(1, r.max());
            n = 1 + copies * size(r.body());
        } else if (e instanceof Expr.Perm || e instanceof Expr.Units || e instanceof Expr.UniqueArray) {
            n = Long.MAX_VALUE; // never part of a larger terminal: the parser runs it (see Permutation), or its own counted terminal
        } else if (e instanceof Expr.Ref ref) {
            facts.size = MAX_TERMINAL_SIZE + 1; // guard against recursion while computing
            n = regularRules.contains(ref.name()) ? size(rules.get(ref.name())) : MAX_TERMINAL_SIZE + 1;
        } else n = 1;
        int v = (int) Math.min(n, FINITE_TERMINAL_SIZE + 1);
        facts.size = v;
        return v;
    }

    // ------------------------------------------------------------ terminals

    private int terminalFor(Object key, Expr regex, String name) { return terminalFor(key, regex, () -> name); }

    /** As above, the name printed only for a new terminal: most lookups find an existing one. */
    private int terminalFor(Object key, Expr regex, java.util.function.Supplier<String> nameOf) {
        // compound expressions are keyed by identity (hashing a shared DAG is exponential);
        // equal languages are merged later by comparing minimized automata
        Map<Object, Integer> index = key instanceof Expr.Seq || key instanceof Expr.Alt || key instanceof Expr.Repeat
                ? (Map<Object, Integer>) (Map<?, ?>) compoundTerminalIndex : terminalIndex;
        Integer existing = index.get(key);
        if (existing != null) return existing;
        String name = nameOf.get();
        Expr cacheKey = languageKey(regex);
        DfaBuilder.Language language = cacheKey != null ? LanguageCache.get(cacheKey) : null;
        if (language == null) language = exactCounted(regex);
        if (language == null) {
            try {
                language = automata.build(regex, stateBound(regex));
            } catch (IllegalStateException ex) {
                throw new GrammarException(ex.getMessage() + " (in terminal " + name + ")");
            } catch (DfaBuilder.TooLarge tooLarge) {
                if (lexicalMode && key instanceof String && !source.fineRules().contains(name)) {
                    throw new GrammarException("terminal " + name + " is too large (" + tooLarge.getMessage() + ")");
                }
                index.put(key, -1); // the caller keeps this piece in the parser instead
                return -1;
            }
            // a large literal set is not shared from schema to schema: keep the cache small; a large code point
            // automaton is (a format's, such as full-time with its leap seconds)
            if (cacheKey != null && (language.dfa() == null || language.dfa().stateCount() <= DfaBuilder.MAX_STATES
                    || cacheKey instanceof Expr.Automaton)) LanguageCache.put(cacheKey, language);
        }
        ByteDfa a = countStates(language.dfa());
        boolean nullable = language.nullable();
        int t = derived.size();
        index.put(key, t);
        derived.add(new Derived(name, regex, a, nullable, false, null, null));
        return t;
    }

    /** References followed before a terminal rule's language is looked up by its own name only. */
    private static final int MAX_REF_CHAIN = 16;

    /**
     * The expression a terminal's language is kept under per process ({@link LanguageCache}): the
     * expression itself when it is reference-free; for a reference to a regular rule, the reference-free
     * body it stands for (through a chain of references), since a rule's name belongs to one grammar
     * while its body recurs in every schema (the generic {@code json_string} and {@code json_number} of
     * each open value); null otherwise. A reference spans its body's language, so the automaton is the same.
     */
    private Expr languageKey(Expr regex) {
        Expr e = regex;
        for (int i = 0; i < MAX_REF_CHAIN && e instanceof Expr.Ref ref; i++) {
            if (!regularRules.contains(ref.name())) return null;
            e = rules.get(ref.name());
            if (e == null) return null;
        }
        return refs(e).isEmpty() ? e : null;
    }

    /** Marks terminal {@code t} of lexical rule {@code name} with the rule's max_tokens=, if it has one. */
    private void limitTokens(String name, int t) {
        Integer limit = source.tokenLimits().get(name);
        Integer hidden = source.hiddenTails().get(name);
        if (limit == null && hidden == null) return;
        if (t < 0) throw error("lexeme '" + name + "' with " + (limit != null ? "max_tokens=" : "stop=") + " is too large for one terminal", name);
        if (limit != null) tokenLimits.put(t, limit);
        if (hidden != null) hiddenTails.put(t, hidden);
    }

    /** The terminal of a token reference (one per distinct token set). */
    private int tokenTerminal(Expr.TokenRef ref) {
        if (tokenResolver == null) {
            throw new GrammarException("token reference " + ref.display() + " needs a vocabulary to resolve it", ref.line(), ref.column());
        }
        TokenMatch match = tokenResolver.apply(ref);
        Integer existing = terminalIndex.get(match);
        if (existing != null) return existing;
        int t = derived.size();
        terminalIndex.put(match, t);
        derived.add(new Derived(ref.display(), ref, Terminal.ofTokens(ref.display(), match).dfa(), false, false, null, match));
        return t;
    }

    /**
     * States of the distinct automata made so far: the budget is checked as they are made, not after.
     * Terminals of the same language (a key's string automaton, a format repeated in many branches) share
     * one automaton, so each distinct automaton is counted once.
     */
    private long automatonStates;

    /** The automata made so far, each once: equal terminals share the first instance. */
    private final Map<ByteDfa, ByteDfa> distinctAutomata = new HashMap<>();

    /** a, or the equal automaton made before (counted once against the budget). */
    private ByteDfa countStates(ByteDfa a) {
        if (a == null) return null;
        ByteDfa shared = distinctAutomata.putIfAbsent(a, a);
        if (shared != null) return shared;
        automatonStates += a.stateCount();
        dev.domino.compiler.CompileLimits.AUTOMATON_STATES.check(automatonStates);
        dev.domino.compiler.CompileLimits.checkClock();
        return a;
    }

    /** The parser symbol for a terminal: its id, or a wrapper for empty/nullable languages. */
    private int terminalSymbol(int t) {
        boolean empty = derived.get(t).automaton() == null;
        boolean nullable = derived.get(t).nullable();
        if (empty) {
            int nt = freshNonterminal("empty");
            if (nullable) addProduction(nt, new int[0]);
            else intentionallyEmpty.add(nt);
            return nt;
        }
        if (!nullable) return -1 - t;
        int nt = freshNonterminal(derived.get(t).name() + "?");
        addProduction(nt, new int[0]);
        addProduction(nt, new int[] {-1 - t});
        return nt;
    }

    // ------------------------------------------------------------ parser level

    private int freshNonterminal(String hint) {
        ntNames.add(hint + "#" + (freshCounter++));
        return ntNames.size() - 1;
    }

    private void addProduction(int lhs, int[] rhs) {
        prodLhs.add(lhs);
        prodRhs.add(rhs);
    }

    /** The nonterminal of a parser-level rule (created on first use). */
    private int parserNonterminal(String name) {
        Integer nt = ruleNt.get(name);
        if (nt != null) return nt;
        boolean outer = inFineRule;
        inFineRule = source.fineRules().contains(name);
        try {
            return newParserNonterminal(name);
        } finally {
            inFineRule = outer;
        }
    }

    private int newParserNonterminal(String name) {
        Integer nt;
        nt = ntNames.size();
        ntNames.add(name);
        ruleNt.put(name, nt);
        Expr body = rules.get(name);
        if (isTerminalRule(name)) {
            // a regular start rule (or a lexical rule used as a nonterminal): one terminal
            int t = terminalFor("rule " + name, new Expr.Ref(name, 0, 0), name);
            limitTokens(name, t);
            if (t >= 0) {
                addProduction(nt, new int[] {terminalSymbol(t)});
                return nt;
            }
            tooLargeRules.add(name);
        }
        if (body instanceof Expr.Alt alt) {
            if (alt.options().isEmpty()) intentionallyEmpty.add(nt);
            for (Expr option : alt.options()) addProduction(nt, sequence(option));
        } else {
            addProduction(nt, sequence(body));
        }
        return nt;
    }

    private int[] sequence(Expr e) {
        List<Integer> out = new ArrayList<>();
        if (e instanceof Expr.Seq s && fineHere()) {
            // consecutive reference-free items form one terminal: a key with its quotes,
            // separators and whitespace is one scan, not one per character
            List<Expr> run = new ArrayList<>();
            for (Expr item : s.items()) {
                if (isRefFree(item)) { run.add(item); continue; }
                flushRun(run, out);
                out.add(symbol(item));
            }
            flushRun(run, out);
        } else if (e instanceof Expr.Seq s) {
            for (Expr item : s.items()) out.add(symbol(item));
        } else {
            out.add(symbol(e));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private boolean isRefFree(Expr e) { return refs(e).isEmpty() && !tooBig(e); }

    private void flushRun(List<Expr> run, List<Integer> out) {
        if (run.size() == 1) {
            out.add(symbol(run.get(0)));
        } else if (run.size() > 1 && tooBig(new Expr.Seq(run))) {
            for (Expr item : run) out.add(symbol(item));
        } else if (run.size() > 1) {
            Expr joined = new Expr.Seq(run);
            int t = terminalFor(joined, joined, () -> ExprPrinter.brief(joined, 48));
            if (t >= 0) out.add(terminalSymbol(t));
            else for (Expr item : run) out.add(symbol(item));
        }
        run.clear();
    }

    private int symbol(Expr e) {
        if (e instanceof Expr.Seq || e instanceof Expr.Alt || e instanceof Expr.Repeat || e instanceof Expr.Perm || e instanceof Expr.UniqueArray) {
            Integer cached = symbolCache.get(e);
            if (cached != null) return cached;
            int sym = symbolUncached(e);
            symbolCache.put(e, sym);
            return sym;
        }
        return symbolUncached(e);
    }

    private int symbolUncached(Expr e) {
        if (e instanceof Expr.TokenRef ref) return -1 - tokenTerminal(ref);
        if (e instanceof Expr.Ref r) {
            if (isTerminalRule(r.name())) {
                int t = terminalFor("rule " + r.name(), r, r.name());
                limitTokens(r.name(), t);
                if (t >= 0) return terminalSymbol(t);
                tooLargeRules.add(r.name());
            }
            return parserNonterminal(r.name());
        }
        if (e instanceof Expr.Literal lit) {
            int t = terminalFor(lit, lit, () -> ExprPrinter.brief(lit, 48));
            if (t >= 0) return terminalSymbol(t);
            // a very long literal: a sequence of shorter ones
            int[] cps = lit.text().codePoints().toArray();
            int nt = freshNonterminal("literal");
            List<Integer> parts = new ArrayList<>();
            for (int i = 0; i < cps.length; i += 1000) {
                Expr part = new Expr.Literal(new String(cps, i, Math.min(1000, cps.length - i)));
                parts.add(terminalSymbol(terminalFor(part, part, () -> ExprPrinter.brief(part, 48))));
            }
            addProduction(nt, parts.stream().mapToInt(Integer::intValue).toArray());
            return nt;
        }
        if (e instanceof Expr.Chars c) {
            return terminalSymbol(terminalFor(c, c, () -> c.set().equals(CodePointSet.ANY) ? "." : c.set().toString()));
        }
        if (e instanceof Expr.Units u) return unitsSymbol(u);
        if (e instanceof Expr.Automaton a) {
            // a code point automaton has no parts for the parser: always one terminal
            int t = terminalFor(a, a, () -> ExprPrinter.brief(a, 48));
            if (t < 0) throw new GrammarException("the automaton of a string language (" + a.dfa() + ") is too large for one terminal");
            return terminalSymbol(t);
        }
        if (e instanceof Expr.Lazy lazy) {
            // lazy (llguidance's [lazy], text up to a stop): always one terminal of its own
            if (!isRegularExpr(e)) throw new GrammarException("a lazy expression must be regular: " + ExprPrinter.brief(e, 60) + " refers to a recursive rule");
            int t = terminalFor(e, e, () -> ExprPrinter.brief(e, 48));
            if (t < 0) throw new GrammarException("a lazy expression is too large for one terminal: " + ExprPrinter.brief(e, 60));
            return terminalSymbol(t);
        }
        if (!lexicalHere() && isRegularExpr(e) && (!fineHere() || refs(e).isEmpty()) && !tooBig(e)) {
            int t = terminalFor(e, e, () -> ExprPrinter.brief(e, 48));
            if (t >= 0) return terminalSymbol(t);
        }
        if (e instanceof Expr.Seq s) {
            int nt = freshNonterminal("seq");
            addProduction(nt, sequence(s));
            return nt;
        }
        if (e instanceof Expr.Alt a) {
            int nt = freshNonterminal("alt");
            if (a.options().isEmpty()) intentionallyEmpty.add(nt);
            for (Expr option : a.options()) addProduction(nt, sequence(option));
            return nt;
        }
        if (e instanceof Expr.Repeat r) return repeat(r);
        if (e instanceof Expr.Perm p) return permutation(p);
        if (e instanceof Expr.UniqueArray u) return uniqueArray(u);
        throw new IllegalArgumentException("unknown expression " + e);
    }

    /**
     * An array of distinct items: {@code open item rest close} with {@code rest} the further
     * {@code separator item} pairs, counted; open, separator and close are marked terminals of their
     * own (never merged with an unmarked terminal of the same language), which is all the runtime
     * needs to find where an item ends (see UniqueArrays).
     */
    private int uniqueArray(Expr.UniqueArray u) {
        int open = markedTerminal(u.open(), Terminal.UNIQUE_OPEN);
        int close = markedTerminal(u.close(), Terminal.UNIQUE_CLOSE);
        int nt = freshNonterminal("unique_array");
        addProduction(nt, new int[] {open, symbol(u.itemAt(0)), itemsAfter(u, 1), close});
        return nt;
    }

    /** The further {@code separator item} pairs of an array of distinct items after {@code i} items. */
    private int itemsAfter(Expr.UniqueArray u, int i) {
        int min = u.minItems(), max = u.maxItems();
        int rest = freshNonterminal("unique_rest");
        if (max != Expr.Repeat.UNBOUNDED && i >= max) {
            addProduction(rest, new int[0]);
            return rest;
        }
        int separator = markedTerminal(u.separator(), Terminal.UNIQUE_SEPARATOR);
        if (i < u.prefix().size()) {
            if (i >= min) addProduction(rest, new int[0]);
            addProduction(rest, new int[] {separator, symbol(u.prefix().get(i)), itemsAfter(u, i + 1)});
            return rest;
        }
        int pair = freshNonterminal("unique_item");
        addProduction(pair, new int[] {separator, symbol(u.item())});
        int lo = Math.max(0, min - i);
        int tail = freshNonterminal("unique_more");
        addProduction(tail, new int[0]);
        if (max == Expr.Repeat.UNBOUNDED) {
            addProduction(tail, new int[] {tail, pair}); // left recursive: tail -> ε | tail pair
        } else {
            for (int k = 1; k <= max - i - lo; k++) {
                int longer = freshNonterminal("unique_more");
                addProduction(longer, new int[0]);
                addProduction(longer, new int[] {pair, tail});
                tail = longer;
            }
        }
        int[] rhs = new int[lo + 1];
        java.util.Arrays.fill(rhs, 0, lo, pair);
        rhs[lo] = tail;
        addProduction(rest, rhs);
        return rest;
    }

    /** The parser symbol of a marked terminal of arrays of distinct items (one per role and language). */
    private int markedTerminal(Expr text, int role) {
        String printed = ExprPrinter.print(text);
        int t = terminalFor(List.of("unique", role, printed), text, printed);
        if (t < 0 || derived.get(t).nullable() || derived.get(t).automaton() == null) {
            throw new GrammarException("the " + (role == Terminal.UNIQUE_OPEN ? "opening" : role == Terminal.UNIQUE_CLOSE ? "closing" : "separator")
                    + " text of an array of distinct items must be a small non-empty regular language: " + printed);
        }
        uniqueRoles.put(t, role);
        return -1 - t;
    }

    /** A permutation before reduction: nonterminal ids of this builder (see {@link Permutation}). */
    private record PermDef(int lhs, int[] members, boolean[] required, int other, int separator, int minCount, int maxCount) {}

    private final List<PermDef> permutations = new ArrayList<>();
    private final Map<Integer, PermDef> permOfNonterminal = new HashMap<>();

    /**
     * A parser-level permutation: each member (and the other) gets a dedicated nonterminal, so
     * that completing it tells the parser which member was read.
     */
    private int permutation(Expr.Perm p) {
        int nt = freshNonterminal("perm");
        int[] members = new int[p.members().size()];
        boolean[] required = new boolean[members.length];
        for (int i = 0; i < members.length; i++) {
            members[i] = dedicated("member", p.members().get(i).body());
            required[i] = p.members().get(i).required();
        }
        int other = p.hasOther() ? dedicated("other", p.other()) : -1;
        int separator = p.hasSeparator() ? symbol(p.separator()) : Permutation.NO_SEPARATOR;
        int maxCount = p.maxCount() == Expr.Repeat.UNBOUNDED ? Permutation.UNBOUNDED : p.maxCount();
        PermDef def = new PermDef(nt, members, required, other, separator, p.minCount(), maxCount);
        permutations.add(def);
        permOfNonterminal.put(nt, def);
        return nt;
    }

    private int dedicated(String hint, Expr body) {
        int nt = freshNonterminal(hint);
        if (body instanceof Expr.Alt alt) {
            if (alt.options().isEmpty()) intentionallyEmpty.add(nt);
            for (Expr option : alt.options()) addProduction(nt, sequence(option));
        } else {
            addProduction(nt, sequence(body));
        }
        return nt;
    }

    /**
     * A permutation can finish once its required members can, enough members (at least minCount,
     * at most maxCount) can, and its separator if two of them must be joined.
     */
    private static boolean permProductive(PermDef def, boolean[] productive) {
        int required = 0, available = 0;
        for (int i = 0; i < def.members().length; i++) {
            if (productive[def.members()[i]]) available++;
            if (!def.required()[i]) continue;
            if (!productive[def.members()[i]]) return false;
            required++;
        }
        long fewest = Math.max(required, def.minCount());
        long most = def.other() >= 0 && productive[def.other()] ? Long.MAX_VALUE : available;
        if (def.maxCount() != Permutation.UNBOUNDED) most = Math.min(most, def.maxCount());
        if (fewest > most) return false;
        return fewest < 2 || def.separator() < 0 || productive[def.separator()];
    }

    /** Copies of a repeated body per chunk terminal (see {@link #chunkedRepeat}). */
    static final int CHUNK = 16;

    /** body{min,max}: min copies, then a left-recursive star or up to max - min optional copies. */
    private int repeat(Expr.Repeat r) {
        Integer counter = ambiguousCountedRepeat(r);
        if (counter != null) return counter;
        Integer grouped = groupedCountedRepeat(r);
        if (grouped != null) return grouped;
        Integer chunked = chunkedRepeat(r);
        if (chunked != null) return chunked;
        int nonEmpty = nonEmptyTerminal(r.body());
        if (nonEmpty != 0 && r.max() != 0) r = new Expr.Repeat(r.body(), 0, r.max()); // B{m,n} = (B minus ε){0,n} for ε in B, m ≤ n
        int body = nonEmpty != 0 ? nonEmpty : symbol(r.body());
        int nt = freshNonterminal("rep");
        List<Integer> rhs = new ArrayList<>(exactly(body, r.min()));
        if (r.max() == Expr.Repeat.UNBOUNDED) {
            int star = freshNonterminal("star");
            addProduction(star, new int[0]);
            addProduction(star, new int[] {star, body});
            rhs.add(star);
        } else if (r.max() > r.min()) {
            rhs.add(upTo(body, r.max() - r.min()));
        }
        addProduction(nt, rhs.stream().mapToInt(Integer::intValue).toArray());
        return nt;
    }

    /**
     * The parser symbol of a repeated body that is one terminal accepting the empty string, as the
     * terminal without it (0 when the body is not such a terminal). Why: copies that may be empty
     * let the parser derive every count in many ways (an empty copy anywhere), which under nested
     * counts in O(log n) rules passed the parser's work limit on the first bytes.
     */
    private int nonEmptyTerminal(Expr body) {
        if (!(body instanceof Expr.Seq || body instanceof Expr.Alt || body instanceof Expr.Repeat)) return 0;
        if (lexicalHere() || !isRegularExpr(body) || (fineHere() && !refs(body).isEmpty()) || tooBig(body)) return 0;
        int t = terminalFor(body, body, () -> ExprPrinter.brief(body, 48));
        if (t < 0 || derived.get(t).automaton() == null || !derived.get(t).nullable()) return 0;
        return -1 - t;
    }

    // ---- counts at the parser level in O(log n) nonterminals

    /**
     * Counts up to this stay plain (n copies, a chain of n optionals): cheap, and Earley reads them
     * with one item per copy. Larger counts (minItems 1,000,000; the chunks of a 10⁶-character
     * string) are built from powers of two, so a count costs O(log n) nonterminals instead of n.
     */
    static final int PLAIN_COUNT = 16;

    /** power[sym] = [sym, sym², sym⁴, ...]: nonterminals deriving exactly 2^i copies (P_{i+1} → P_i P_i). */
    private final Map<Integer, List<Integer>> powers = new HashMap<>();
    /** below[sym] = [U_0, U_1, ...]: U_i derives 0..2^i - 1 copies (U_0 → ε; U_{i+1} → U_i | P_i U_i). */
    private final Map<Integer, List<Integer>> belowPowers = new HashMap<>();

    private int power(int sym, int i) {
        List<Integer> p = powers.computeIfAbsent(sym, k -> new ArrayList<>(List.of(k)));
        while (p.size() <= i) {
            int half = p.get(p.size() - 1);
            int nt = freshNonterminal("pow");
            addProduction(nt, new int[] {half, half});
            p.add(nt);
        }
        return p.get(i);
    }

    private int belowPower(int sym, int i) {
        List<Integer> u = belowPowers.computeIfAbsent(sym, k -> new ArrayList<>());
        if (u.isEmpty()) {
            int nt = freshNonterminal("none");
            addProduction(nt, new int[0]);
            u.add(nt);
        }
        while (u.size() <= i) {
            int j = u.size() - 1, prev = u.get(j);
            int nt = freshNonterminal("below");
            addProduction(nt, new int[] {prev});                 // 0 .. 2^j - 1 copies
            addProduction(nt, new int[] {power(sym, j), prev});  // 2^j .. 2^(j+1) - 1 copies
            u.add(nt);
        }
        return u.get(i);
    }

    /** Symbols deriving exactly n copies of sym (one per set bit of n above the plain count). */
    private List<Integer> exactly(int sym, int n) {
        List<Integer> out = new ArrayList<>();
        if (n <= PLAIN_COUNT) {
            for (int i = 0; i < n; i++) out.add(sym);
            return out;
        }
        for (int i = 30; i >= 0; i--) if ((n >>> i & 1) != 0) out.add(power(sym, i));
        return out;
    }

    /**
     * A nonterminal deriving 0..m copies of sym (m ≥ 1), each count in exactly one way (so the
     * grammar stays unambiguous): for m ≤ PLAIN_COUNT a chain of optionals; else with p the
     * largest power of two ≤ m, counts 0..p-1 (U) or p copies then 0..m-p more.
     */
    private int upTo(int sym, int m) {
        if (m <= PLAIN_COUNT) return optionalChain(sym, m);
        if (Integer.bitCount(m + 1) == 1) return belowPower(sym, Integer.numberOfTrailingZeros(m + 1));
        int i = 31 - Integer.numberOfLeadingZeros(m);
        int nt = freshNonterminal("upto");
        addProduction(nt, new int[] {belowPower(sym, i)});
        int rest = m - (1 << i);
        addProduction(nt, rest == 0 ? new int[] {power(sym, i)} : new int[] {power(sym, i), upTo(sym, rest)});
        return nt;
    }

    /**
     * body{min,max} too large for one automaton (a string with a large {@code maxLength}), with a
     * small regular body: counted in chunks of K copies, each chunk one terminal, instead of one
     * parser symbol per copy. A count n = a*K + b (b < K) is a chunks then a tail terminal
     * body{b}: exactly one decomposition, so the grammar stays unambiguous, and a long token spans
     * two or three terminals instead of one per character (shallow trees, few Earley steps, and
     * the chunk's automaton is shared by every such string of every grammar). A repeat too short
     * to chunk whose automaton is still small becomes one terminal. Null when neither applies.
     *
     * <p>K is chosen from the body's real automaton size, not the rough expression size: a JSON
     * string character is ~300 expression nodes (escapes, UTF-8 ranges) but 20 automaton states.
     */
    private Integer chunkedRepeat(Expr.Repeat r) {
        Expr body = r.body();
        if (r.max() == Expr.Repeat.UNBOUNDED && r.min() > 2 * CHUNK && !lexicalHere() && refs(body).isEmpty()) {
            // body{min,} (a string's minLength without maxLength): one counted terminal whose count
            // stops at min (see CountedLoop.UNBOUNDED); for a min too large to count, body{min,min} in
            // chunks, then body* as one terminal, instead of one parser symbol per copy (unambiguous for
            // a prefix-free body such as a character)
            if (size(body) <= MAX_TERMINAL_SIZE && isRegularExpr(body)) {
                Integer counted = countedRepeat(body, r.min(), Expr.Repeat.UNBOUNDED);
                if (counted != null) return counted;
            }
            Integer exact = chunkedRepeat(new Expr.Repeat(body, r.min(), r.min()));
            if (exact == null) return null;
            int nt = freshNonterminal("rep");
            addProduction(nt, new int[] {exact, symbol(Expr.star(body))});
            return nt;
        }
        if (r.max() == Expr.Repeat.UNBOUNDED || r.max() < 2 || lexicalHere() || size(body) > MAX_TERMINAL_SIZE || !isRegularExpr(body)
                || !refs(body).isEmpty()) return null;
        int bodyStates = regularStates(body);
        if (bodyStates < 0) return null;
        Integer counted = countedRepeat(body, r.min(), r.max());
        if (counted != null) return counted;
        // chunks of k copies, each one ordinary terminal; the number of chunks costs O(log) nonterminals
        // (not counted chunks: their annotated trees outweigh the chunk's states; docs/performance.md)
        int k = CHUNK;
        while (k >= 4 && (long) bodyStates * k > MAX_CHUNK_STATES) k /= 2;
        if (k < 4) return null;
        if (r.max() < 2 * k) return (long) bodyStates * r.max() <= 2L * MAX_CHUNK_STATES ? repeatTerminal(body, r.min(), r.max()) : null;
        Expr chunkExpr = new Expr.Repeat(body, k, k);
        int chunkTerminal = terminalFor(chunkExpr, chunkExpr, () -> ExprPrinter.brief(chunkExpr, 48));
        if (chunkTerminal < 0) return null;
        int chunk = terminalSymbol(chunkTerminal);
        int min = r.min(), max = r.max();
        int nt = freshNonterminal("rep");
        // a in [fullLo, fullHi]: every tail length 0..k-1 keeps the count within [min, max]
        int fullLo = (min + k - 1) / k, fullHi = (max - (k - 1)) / k;
        if (fullLo <= fullHi) {
            List<Integer> rhs = new ArrayList<>(exactly(chunk, fullLo));
            if (fullHi > fullLo) rhs.add(upTo(chunk, fullHi - fullLo));
            rhs.add(repeatTerminal(body, 0, k - 1));
            addProduction(nt, rhs.stream().mapToInt(Integer::intValue).toArray());
        }
        // the few chunk counts whose tail is cut by min or max: min / k, max / k, or (when
        // fullLo > fullHi, so max - min < 2k) the few between them
        List<Integer> cut = new ArrayList<>();
        if (fullLo <= fullHi) { cut.add(min / k); if (max / k != min / k) cut.add(max / k); }
        else for (int a = min / k; a <= max / k; a++) cut.add(a);
        for (int a : cut) {
            if (a >= fullLo && a <= fullHi) continue;
            int bLo = Math.max(0, min - a * k), bHi = Math.min(k - 1, max - a * k);
            if (bLo > bHi) continue;
            List<Integer> rhs = new ArrayList<>(exactly(chunk, a));
            if (bHi > 0) rhs.add(repeatTerminal(body, bLo, bHi));
            addProduction(nt, rhs.stream().mapToInt(Integer::intValue).toArray());
        }
        return nt;
    }

    /**
     * Local states of a counted repeat (loop states × counts); larger repeats are chunks (see
     * {@link #chunkedRepeat}). States are numbers only (see {@link CountedLoop#MAX_STATES}): a
     * counted string costs 2 × its loop's states in trees whatever its maxLength. Chunks cost far
     * more: a full-vocabulary tree per chunk state.
     */
    static final int COUNTED_REPEAT_STATES = CountedLoop.MAX_STATES;

    /**
     * Bound on the counted states of all counted terminals of a grammar: their sum must stay an
     * int (see {@link dev.domino.runtime.internal.scan.ScannerStates#MAX_STATES}); repeats past it are
     * chunks, patterns under length bounds past it an error naming the limit.
     */
    static final int COUNTED_TOTAL_STATES = 1 << 29;
    private long countedStates;

    /** Reserves the states of a new counted terminal; false when the grammar's total would pass {@link #COUNTED_TOTAL_STATES}. */
    private boolean reserveCountedStates(long states) {
        if (countedStates + states > COUNTED_TOTAL_STATES) return false;
        countedStates += states;
        return true;
    }

    /**
     * States of the materialized product of a pattern under length bounds (see {@link #unitsTerminal}):
     * what the old per-state tables allowed at maxLength 1.
     */
    public static final int UNITS_PRODUCT_STATES = 1 << 19;

    /** Repeats with fewer copies at most stay ordinary terminals. */
    static final int COUNTED_MIN_MAX = 16;


    /**
     * body{min,max} with a prefix-free body (a string character) and a large max: one counted
     * terminal body{max(min,1),max} (see {@link CountedLoop}), optional when min is 0. Null when
     * the repeat does not qualify.
     */
    private Integer countedRepeat(Expr body, int min, int max) {
        boolean unbounded = max == Expr.Repeat.UNBOUNDED;
        int largestCount = unbounded ? min : max; // unbounded: the count stops at min
        if (largestCount < COUNTED_MIN_MAX) return null;
        DfaBuilder.Language bodyLanguage = regularLanguage(body);
        if (bodyLanguage == null || bodyLanguage.dfa() == null || bodyLanguage.nullable() || !prefixFree(bodyLanguage.dfa())) return null;
        Expr loopExpr = new Expr.Repeat(body, 1, Expr.Repeat.UNBOUNDED);
        DfaBuilder.Language loop = regularLanguage(loopExpr);
        if (loop == null || loop.dfa() == null) return null;
        long states = (long) (largestCount + 1) * loop.dfa().stateCount();
        if (states > COUNTED_REPEAT_STATES) return null;
        int lo = Math.max(1, min);
        if (!countedIndex.containsKey(List.of(loop.dfa(), lo, unbounded ? CountedLoop.UNBOUNDED : max)) && !reserveCountedStates(states)) return null;
        int symbol = -1 - countedTerminal(new Expr.Repeat(body, lo, max), loop.dfa(), lo, unbounded ? CountedLoop.UNBOUNDED : max);
        if (min > 0) return symbol;
        int nt = freshNonterminal("opt");
        addProduction(nt, new int[0]);
        addProduction(nt, new int[] {symbol});
        return nt;
    }

    /** Counted repeats of bodies that split several ways in user-written grammars (see {@link AmbiguousCounts}). */
    private final AmbiguousCounts ambiguousCounts = new AmbiguousCounts(this::regularLanguage, e -> refs(e).isEmpty(),
            name -> regularRules.contains(name) ? rules.get(name) : null);

    /** Whether e holds a repeat that {@link #ambiguousCountedRepeat} makes a counted terminal (outside any other repeat). */
    private boolean holdsAmbiguousCount(Expr e) {
        return !fineHere() && !lexicalHere() && ambiguousCounts.holds(e);
    }

    /**
     * B{m,n} (m ≤ 1, n ≥ {@link AmbiguousCounts#MIN_COUNT}) whose body splits a string several ways:
     * one counted terminal over the least-count loop with final weights, optional when m is 0. Null
     * when the repeat does not qualify.
     */
    private Integer ambiguousCountedRepeat(Expr.Repeat r) {
        if (fineHere() || lexicalHere()) return null;
        AmbiguousCounts.Counter c = ambiguousCounts.of(r);
        if (c == null) return null;
        List<Object> key = c.key();
        Integer t = countedIndex.get(key);
        if (t == null) {
            if (!reserveCountedStates((long) (c.max() + 1) * c.loop().stateCount())) return null;
            t = derived.size();
            countedIndex.put(key, t);
            derived.add(new Derived(ExprPrinter.brief(r, 48), r, countStates(c.loop()), false, false, new int[] {1, c.max()}, null,
                    c.boundaries(), c.weights()));
        }
        if (!c.optional()) return -1 - t;
        int nt = freshNonterminal("opt");
        addProduction(nt, new int[0]);
        addProduction(nt, new int[] {-1 - t});
        return nt;
    }

    /**
     * (B{0,N} s?){m,M} with B counted by {@link AmbiguousCounts}: the segments between separators as
     * counted terminals by the groups they need, under rules that spend a budget of M groups (see
     * {@link GroupedCounts}). Null when the repeat is not of that shape.
     */
    private Integer groupedCountedRepeat(Expr.Repeat r) {
        if (fineHere() || lexicalHere()) return null;
        GroupedCounts.Plan plan = GroupedCounts.of(r, ambiguousCounts, this::regularLanguage, COUNTED_TOTAL_STATES - countedStates);
        if (plan == null) return null;
        int groups = plan.groups();
        int[] cost = new int[groups + 1]; // cost[j]: the terminal of the words needing j groups
        for (int j = 1; j <= groups; j++) {
            AmbiguousCounts.Counter c = plan.counter();
            int lo = plan.lo(j), hi = plan.hi(j);
            if (c.weights() == null) { // a body that splits one way: the plain counted loop
                if (!countedIndex.containsKey(List.of(c.loop(), lo, hi)) && !reserveCountedStates((long) (hi + 1) * c.loop().stateCount())) return null;
                cost[j] = -1 - countedTerminal(new Expr.Repeat(plan.words(), lo, hi), c.loop(), lo, hi);
                continue;
            }
            List<Object> key = List.of(c.key(), lo, hi);
            Integer t = countedIndex.get(key);
            if (t == null) {
                if (!reserveCountedStates((long) (hi + 1) * c.loop().stateCount())) return null;
                t = derived.size();
                countedIndex.put(key, t);
                String name = ExprPrinter.brief(plan.words(), 40) + " least count " + lo + ".." + hi;
                derived.add(new Derived(name, new Expr.Repeat(plan.words(), lo, hi), countStates(c.loop()), false, false, new int[] {lo, hi}, null,
                        c.boundaries(), c.weights()));
            }
            cost[j] = -1 - t;
        }
        int separator = symbol(plan.separator());
        int[] budget = new int[groups + 1]; // budget[r]: the rest with at most r groups
        for (int left = 0; left <= groups; left++) {
            int nt = freshNonterminal("groups");
            budget[left] = nt;
            addProduction(nt, new int[0]);
            if (left == 0) continue;
            addProduction(nt, new int[] {separator, budget[left - 1]});
            for (int j = 1; j <= left; j++) {
                if (plan.separatorFirst()) { // a segment is s w: R(r) → ε | s R(r-1) | s C_j R(r-j)
                    addProduction(nt, new int[] {separator, cost[j], budget[left - j]});
                } else { // a segment is w s: R(r) → ε | C_j | s R(r-1) | C_j s R(r-j)
                    addProduction(nt, new int[] {cost[j]});
                    addProduction(nt, new int[] {cost[j], separator, budget[left - j]});
                }
            }
        }
        if (!plan.separatorFirst()) return budget[groups];
        // the words before the first separator: ⌈ℓ/N⌉ groups, none when there are none
        int top = freshNonterminal("groups");
        addProduction(top, new int[] {budget[groups]});
        for (int j = 1; j <= groups; j++) addProduction(top, new int[] {cost[j], budget[groups - j]});
        return top;
    }

    /** True when no match is a proper prefix of another: accepting states have no way on. */
    private static boolean prefixFree(ByteDfa dfa) {
        for (int s = 0; s < dfa.stateCount(); s++) {
            if (!dfa.isAccepting(s)) continue;
            for (int b = 0; b < 256; b++) if (dfa.step(s, b) >= 0) return false;
        }
        return true;
    }

    private final Map<List<Object>, Integer> countedIndex = new HashMap<>();

    /** A counted terminal body{min,max} over the automaton of body+ (shown as {@code shown}). */
    private int countedTerminal(Expr shown, ByteDfa loop, int min, int max) {
        List<Object> key = List.of(loop, min, max);
        Integer existing = countedIndex.get(key);
        if (existing != null) return existing;
        int t = derived.size();
        countedIndex.put(key, t);
        derived.add(new Derived(ExprPrinter.brief(shown, 48), shown, countStates(loop), false, false, new int[] {min, max}, null));
        return t;
    }

    /** States of a pattern's own automaton (before the counter) in a {@link Expr.Units} terminal. */
    static final int MAX_UNITS_TEXT_STATES = 20_000;

    /**
     * A pattern under length bounds ({@link Expr.Units}): one counted terminal over the product of the
     * pattern's automaton with the automaton of {@code unit+}, whose states tell where a unit starts
     * (the product's second half is at its start or an accepting state). Optional when the bounds and
     * the pattern allow the empty string. Errors name the keyword: the counter's states are bounded
     * by {@link CountedLoop#MAX_STATES}.
     */
    private int unitsSymbol(Expr.Units u) {
        DfaBuilder.Language text;
        try {
            text = automata.build(u.text(), MAX_UNITS_TEXT_STATES);
        } catch (DfaBuilder.TooLarge e) {
            throw new GrammarException(u.origin() + ": the pattern's automaton exceeds " + MAX_UNITS_TEXT_STATES + " states");
        }
        DfaBuilder.Language unit = regularLanguage(u.unit());
        DfaBuilder.Language loop = regularLanguage(new Expr.Repeat(u.unit(), 1, Expr.Repeat.UNBOUNDED));
        if (unit == null || unit.dfa() == null || unit.nullable() || !prefixFree(unit.dfa()) || loop == null) {
            throw new IllegalStateException("the unit of a length bound must be a small prefix-free language: " + ExprPrinter.brief(u.unit(), 60));
        }
        boolean empty = text.nullable() && u.min() == 0;
        int t = text.dfa() == null ? -1 : unitsTerminal(u, text.dfa(), loop.dfa());
        if (t < 0) {
            int nt = freshNonterminal("empty");
            if (empty) addProduction(nt, new int[0]); else intentionallyEmpty.add(nt);
            return nt;
        }
        if (!empty) return -1 - t;
        int nt = freshNonterminal("opt");
        addProduction(nt, new int[0]);
        addProduction(nt, new int[] {-1 - t});
        return nt;
    }

    private final Map<List<Object>, Integer> unitsIndex = new HashMap<>();

    /** The counted terminal of text ∩ unit{min,max} (see {@link UnitCounting}); -1 when no string of text fits. */
    private int unitsTerminal(Expr.Units u, ByteDfa text, ByteDfa loop) {
        List<Object> key = List.of(text, loop, u.min(), u.max());
        Integer known = unitsIndex.get(key);
        if (known != null) return known;
        UnitCounting.Product p;
        try {
            p = UnitCounting.product(text, loop, u.min(), Math.min(UNITS_PRODUCT_STATES, CountedLoop.MAX_STATES / (u.max() + 1)));
        } catch (UnitCounting.TooLarge e) {
            throw new GrammarException(u.origin() + ": the pattern's automaton (" + e.states() + "+ states) times the " + (u.max() + 1)
                    + " lengths exceeds " + Math.min((long) UNITS_PRODUCT_STATES * (u.max() + 1), CountedLoop.MAX_STATES) + " counted states");
        }
        int t = -1;
        if (p != null && new CountedLoop(p.dfa(), p.boundaries(), 1, u.max()).unitsToFinish(0) <= u.max()) { // else every string is too long
            if (!reserveCountedStates((long) (u.max() + 1) * p.dfa().stateCount())) {
                throw new GrammarException(u.origin() + ": the grammar's length-bounded strings exceed " + COUNTED_TOTAL_STATES + " counted states in all");
            }
            t = derived.size();
            derived.add(new Derived(ExprPrinter.brief(u, 48), u, countStates(p.dfa()), false, false, new int[] {1, u.max()}, null, p.boundaries()));
        }
        unitsIndex.put(key, t);
        return t;
    }

    /** Automaton states above which a chunk of copies is made smaller (see {@link #chunkedRepeat}). */
    static final int MAX_CHUNK_STATES = 512;

    /** The parser symbol for body{lo,hi} as one terminal (the caller checked it is small), else decomposed. */
    private int repeatTerminal(Expr body, int lo, int hi) {
        Expr e = new Expr.Repeat(body, lo, hi);
        int t = terminalFor(e, e, () -> ExprPrinter.brief(e, 48));
        return t >= 0 ? terminalSymbol(t) : symbol(e);
    }

    /** States of the minimized automaton of a reference-free regular expression; -1 when too large. */
    private int regularStates(Expr e) {
        DfaBuilder.Language language = regularLanguage(e);
        if (language == null) return -1;
        return language.dfa() == null ? 0 : language.dfa().stateCount();
    }

    /** The language of a reference-free regular expression; null when too large. */
    private DfaBuilder.Language regularLanguage(Expr e) {
        DfaBuilder.Language language = LanguageCache.get(e);
        if (language == null) {
            try {
                language = automata.build(e);
            } catch (DfaBuilder.TooLarge | IllegalStateException notATerminal) {
                return null; // the normal path decomposes it or reports the error
            }
            LanguageCache.put(e, language);
        }
        return language;
    }

    /** A nonterminal for sym{0,n}: a chain of optionals. */
    private int optionalChain(int sym, int n) {
        int tail = -1;
        for (int i = 0; i < n; i++) {
            int opt = freshNonterminal("opt");
            addProduction(opt, new int[0]);
            addProduction(opt, tail < 0 ? new int[] {sym} : new int[] {sym, tail});
            tail = opt;
        }
        return tail;
    }

    // ------------------------------------------------------------ reduction

    private LexedGrammar reduceAndPack(int start) {
        int n = ntNames.size();
        int pCount = prodLhs.size();
        boolean[] productive = new boolean[n];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < pCount; p++) {
                if (productive[prodLhs.get(p)]) continue;
                boolean ok = true;
                for (int s : prodRhs.get(p)) if (s >= 0 && !productive[s]) { ok = false; break; }
                if (ok) { productive[prodLhs.get(p)] = true; changed = true; }
            }
            for (PermDef def : permutations) {
                if (!productive[def.lhs()] && permProductive(def, productive)) { productive[def.lhs()] = true; changed = true; }
            }
        }
        if (!productive[start]) {
            throw EmptyGrammarError.of(source);
        }
        // reachable through productive productions only
        boolean[] reachable = new boolean[n];
        List<Integer> work = new ArrayList<>(List.of(start));
        reachable[start] = true;
        Map<Integer, List<Integer>> byLhs = new HashMap<>();
        for (int p = 0; p < pCount; p++) byLhs.computeIfAbsent(prodLhs.get(p), k -> new ArrayList<>()).add(p);
        while (!work.isEmpty()) {
            int a = work.remove(work.size() - 1);
            for (int p : byLhs.getOrDefault(a, List.of())) {
                if (!allProductive(prodRhs.get(p), productive)) continue;
                for (int s : prodRhs.get(p)) if (s >= 0 && !reachable[s]) { reachable[s] = true; work.add(s); }
            }
            PermDef def = permOfNonterminal.get(a);
            if (def != null) {
                List<Integer> parts = new ArrayList<>();
                for (int m : def.members()) if (productive[m]) parts.add(m);
                if (def.other() >= 0 && productive[def.other()]) parts.add(def.other());
                if (def.separator() >= 0) {
                    if (!productive[def.separator()]) throw error("the separator of a permutation can never match", source.start());
                    parts.add(def.separator());
                }
                for (int s : parts) if (!reachable[s]) { reachable[s] = true; work.add(s); }
            }
        }
        // a named rule that is used but can never finish is a mistake in the grammar
        for (Map.Entry<String, Integer> e : ruleNt.entrySet()) {
            int nt = e.getValue();
            if (!productive[nt] && usedByReachable(nt, reachable, productive) && !intentionallyEmpty.contains(nt)
                    && !containsExplicitNothing(rules.get(e.getKey()))) {
                throw error("rule '" + e.getKey() + "' can never finish (every alternative recurses without end)", e.getKey());
            }
        }
        // renumber nonterminals and terminals that survive
        int[] ntMap = new int[n];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ntMap[i] = reachable[i] ? names.size() : -1;
            if (reachable[i]) names.add(ntNames.get(i));
        }
        int tCount = derived.size();
        boolean[] usedT = new boolean[tCount];
        for (int t = 0; t < tCount; t++) usedT[t] = derived.get(t).ignored();
        List<int[]> keptRhs = new ArrayList<>();
        List<Integer> keptLhs = new ArrayList<>();
        for (int p = 0; p < pCount; p++) {
            if (!reachable[prodLhs.get(p)] || !allProductive(prodRhs.get(p), productive)) continue;
            keptLhs.add(prodLhs.get(p));
            keptRhs.add(prodRhs.get(p));
            for (int s : prodRhs.get(p)) if (s < 0) usedT[-1 - s] = true;
        }
        for (PermDef def : permutations) {
            if (reachable[def.lhs()] && def.separator() < 0 && def.separator() != Permutation.NO_SEPARATOR) usedT[-1 - def.separator()] = true;
        }
        int[] tMap = new int[tCount];
        List<Terminal> terminals = new ArrayList<>();
        // terminals with the same language (equal minimized automata) are one terminal
        Map<List<Object>, Integer> byLanguage = new HashMap<>(); // automaton, and counted bounds
        for (int t = 0; t < tCount; t++) {
            if (!usedT[t]) { tMap[t] = -1; continue; }
            Derived d = derived.get(t);
            ByteDfa dfa = d.automaton();
            if (dfa == null) { tMap[t] = -1; continue; } // empty ignored terminal
            int[] counted = d.counted();
            TokenMatch tokens = d.tokens();
            if (tokens != null) {
                tMap[t] = terminals.size();
                terminals.add(Terminal.ofTokens(d.name(), tokens));
                continue;
            }
            int uniqueRole = uniqueRoles.getOrDefault(t, Terminal.UNIQUE_NONE);
            int maxTokens = tokenLimits.getOrDefault(t, 0), hiddenTail = hiddenTails.getOrDefault(t, 0);
            if (!d.ignored()) {
                List<Object> language = counted == null ? List.of(dfa, uniqueRole, maxTokens, hiddenTail)
                        : List.of(dfa, counted[0], counted[1], java.util.Arrays.toString(d.units()), java.util.Arrays.toString(d.weights()));
                Integer same = byLanguage.get(language);
                if (same != null) { tMap[t] = same; continue; }
                byLanguage.put(language, terminals.size());
            }
            tMap[t] = terminals.size();
            terminals.add(new Terminal(d.name(), ExprPrinter.brief(d.expr(), 200), dfa, d.ignored(),
                    counted == null ? null : new CountedLoop(dfa, d.units(), d.weights(), counted[0], counted[1]), null, uniqueRole, maxTokens, hiddenTail));
        }
        int[] lhs = new int[keptLhs.size()];
        int[][] rhs = new int[keptLhs.size()][];
        for (int p = 0; p < lhs.length; p++) {
            lhs[p] = ntMap[keptLhs.get(p)];
            int[] r = keptRhs.get(p).clone();
            for (int i = 0; i < r.length; i++) r[i] = r[i] >= 0 ? ntMap[r[i]] : -1 - tMap[-1 - r[i]];
            rhs[p] = r;
        }
        List<Permutation> perms = new ArrayList<>();
        for (PermDef def : permutations) {
            if (!reachable[def.lhs()]) continue;
            List<Integer> members = new ArrayList<>();
            List<Boolean> required = new ArrayList<>();
            for (int i = 0; i < def.members().length; i++) {
                if (!reachable[def.members()[i]]) continue; // can never finish: never read
                members.add(ntMap[def.members()[i]]);
                required.add(def.required()[i]);
            }
            boolean[] req = new boolean[required.size()];
            for (int i = 0; i < req.length; i++) req[i] = required.get(i);
            int other = def.other() >= 0 && reachable[def.other()] ? ntMap[def.other()] : -1;
            int sep = def.separator();
            int separator = sep == Permutation.NO_SEPARATOR ? sep : sep >= 0 ? ntMap[sep] : -1 - tMap[-1 - sep];
            perms.add(new Permutation(ntMap[def.lhs()], members.stream().mapToInt(Integer::intValue).toArray(), req, other, separator,
                    def.minCount(), def.maxCount()));
        }
        ParserGrammar grammar;
        try {
            grammar = new ParserGrammar(names.toArray(new String[0]), terminals.size(), ntMap[start], lhs, rhs,
                    perms.toArray(new Permutation[0]));
        } catch (IllegalArgumentException e) {
            throw new GrammarException("members in any order: " + e.getMessage());
        }
        boolean[] ignored = new boolean[terminals.size()];
        for (int t = 0; t < ignored.length; t++) ignored[t] = terminals.get(t).ignored();
        FollowSets follow = new FollowSets(grammar, ignored);
        // after a token terminal the scanner is between terminals again, as at the start: the
        // between-terminals tree must hold what may follow one, not only what may begin the output
        BitSet first = follow.first();
        for (int t = 0; t < terminals.size(); t++) if (terminals.get(t).tokens() != null) first.or(follow.follow()[t]);
        return new LexedGrammar(terminals, grammar, follow.follow(), first);
    }

    private boolean usedByReachable(int nt, boolean[] reachable, boolean[] productive) {
        for (int p = 0; p < prodLhs.size(); p++) {
            if (!reachable[prodLhs.get(p)]) continue;
            for (int s : prodRhs.get(p)) if (s == nt) return true;
        }
        return false;
    }

    private static boolean containsExplicitNothing(Expr e) {
        if (e instanceof Expr.Alt a) {
            if (a.options().isEmpty()) return true;
            for (Expr o : a.options()) if (containsExplicitNothing(o)) return true;
        } else if (e instanceof Expr.Seq s) {
            for (Expr i : s.items()) if (containsExplicitNothing(i)) return true;
        } else if (e instanceof Expr.Repeat r) {
            return containsExplicitNothing(r.body());
        } else if (e instanceof Expr.Chars c) {
            return c.set().isEmpty();
        } else if (e instanceof Expr.Automaton a) {
            return a.dfa().isEmpty();
        }
        return false;
    }

    private static boolean allProductive(int[] rhs, boolean[] productive) {
        for (int s : rhs) if (s >= 0 && !productive[s]) return false;
        return true;
    }

    private GrammarException error(String message, String rule) {
        int[] pos = source.rulePositions().get(rule);
        return pos == null ? new GrammarException(message) : new GrammarException(message, pos[0], pos[1]);
    }
}
