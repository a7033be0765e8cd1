package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.jsonschema.algebra.RegularLanguages;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the Lark subset that llguidance documents into the grammar IR.
 *
 * <p>Supported: rules {@code name: a | b} (also {@code ?name:} and {@code !name:}, which only
 * shape Lark's parse tree and are treated as plain rules), terminals {@code NAME: ...} and
 * {@code NAME.priority: ...} (priority ignored), string literals {@code "..."} with the
 * {@code i} suffix, {@code "a".."z"} ranges, {@code /regex/flags} (via {@link RegexParser},
 * Python flavor; flags {@code i} and {@code u} only), grouping, {@code [optional]}, postfix
 * {@code ? * +}, {@code ~ n}, {@code ~ n..m}, llguidance's {@code {m,n}}, aliases
 * {@code -> name} (ignored), {@code %ignore}, {@code %import common...}, and {@code //} or
 * {@code #} comments. The start rule is {@code start}.
 *
 * <p>llguidance's extensions: {@code %json { schema }} in a rule (the JSON Schema front end's grammar,
 * with the compile's JSON Schema options), {@code %regex { "substring_...": ... }} (see
 * {@link SubstringLanguage}), the {@code %llguidance { ... }} header (see {@link LarkHeader}), and
 * {@code &} (intersection) and prefix {@code ~} (complement) on terminals, computed on the automata
 * once every terminal is read ({@link RegularLanguages}; the complement is over valid UTF-8 text).
 *
 * <p>Names are terminals when Lark says so: all their letters are upper case (Python's
 * {@code str.isupper()}). Terminals go into {@link Grammar#lexicalRules()}; they may reference
 * only terminals, and not recursively.
 *
 * <p>Line breaks end a definition, except before a {@code |} (continuing alternatives) and
 * inside brackets.
 */
public final class LarkParser {
    public static final String START_RULE = "start";

    private final GrammarText in;
    private final List<Token> tokens;
    private int t; // index of the current token

    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final Map<String, int[]> positions = new LinkedHashMap<>();
    private final Set<String> lexical = new LinkedHashSet<>();
    /** Lexemes with max_tokens=N: rule name -> N (see {@link Grammar#tokenLimits()}). */
    private final Map<String, Integer> tokenLimits = new LinkedHashMap<>();
    /** Lexemes with stop="...": rule name -> the stop text's UTF-8 length (see {@link Grammar#hiddenTails()}). */
    private final Map<String, Integer> hiddenTails = new LinkedHashMap<>();
    private final List<Expr> ignored = new ArrayList<>();
    /** Every reference, with the terminal (or "%ignore") whose body contains it, or null for rules. */
    private final List<RefSite> refs = new ArrayList<>();
    /** The terminal being defined (or "%ignore"), null inside rules. */
    private String lexicalOwner;

    private record RefSite(Expr.Ref ref, String lexicalOwner) {}

    /** Options of the schemas in {@code %json { ... }}. */
    private final JsonSchemaOptions jsonOptions;
    /** Where the first {@code %json} stands (-1: none), and what the schemas skipped at the user's request. */
    private int firstJson = -1;
    private final List<String> ignoredKeywords = new ArrayList<>();
    /** The rules of the embedded schemas: the compiler splits them as it does a schema's (see Grammar#fineRules). */
    private final Set<String> fineRules = new LinkedHashSet<>();
    private final LarkHeader header = new LarkHeader();
    /** Terminals made by {@code &} or {@code ~}, computed once every terminal is known. */
    private final Map<String, Algebra> algebra = new LinkedHashMap<>();

    /** {@code all} intersected (when {@code negated} is null), or the complement of {@code negated}. */
    private record Algebra(List<Expr> all, Expr negated, int pos) {}

    private LarkParser(String source, JsonSchemaOptions jsonOptions) {
        this.in = new GrammarText(source);
        this.jsonOptions = jsonOptions;
        Lexer lexer = new Lexer(in);
        this.tokens = lexer.run();
        this.tokenRefs = lexer.tokenRefs;
    }

    /** Parses a Lark grammar; throws {@link GrammarException} with a position on any error. */
    public static Grammar parse(String source) {
        return read(source, JsonSchemaOptions.defaults()).grammar();
    }

    /**
     * A parsed grammar, whether it embeds JSON Schemas ({@code %json}), and the schema keywords
     * skipped at the user's request (as the JSON Schema front end reports them).
     */
    public record Result(Grammar grammar, boolean embedsJson, List<String> ignoredKeywords) {}

    /** Parses a Lark grammar whose {@code %json} schemas compile with {@code jsonOptions}. */
    public static Result read(String source, JsonSchemaOptions jsonOptions) {
        LarkParser p = new LarkParser(source, jsonOptions);
        Grammar g = p.parseGrammar();
        return new Result(g, p.firstJson >= 0, List.copyOf(p.ignoredKeywords));
    }

    // ---- grammar structure ----------------------------------------------------------------------

    private Grammar parseGrammar() {
        while (peek().kind != Kind.EOF) {
            Token tok = peek();
            if (tok.kind == Kind.NL) {
                next();
                continue;
            }
            if (tok.kind == Kind.DIRECTIVE) {
                parseDirective();
            } else if (tok.kind == Kind.NAME || tok.isOp("?") || tok.isOp("!")) {
                parseDefinition();
            } else {
                throw error("expected a rule or terminal definition but found " + tok.describe(), tok);
            }
            Token end = peek();
            if (end.kind == Kind.DIRECTIVE) throw error(unsupportedDirective(end.text), end);
            if (end.kind != Kind.NL && end.kind != Kind.EOF) {
                throw error("unexpected " + end.describe(), end);
            }
        }
        check();
        resolveAlgebra();
        for (String lazy : lazyRules) rules.put(lazy, LazyLexemes.resolve(lazy, (Expr.Lazy) rules.get(lazy), rules, lexical, positions.get(lazy)));
        if (!ignoreByTerminals()) {
            // ignored text where the compiler's ignored terminals do not put it: written into the rules
            Map.Entry<String, Map<String, Expr>> placed = IgnorePlacement.place(rules, lexical, positions, START_RULE, ignored,
                    initialSkip(), Boolean.TRUE.equals(header.ignoreOnce));
            Set<String> terminals = new java.util.LinkedHashSet<>(lexical);
            terminals.add(IgnorePlacement.IGNORED);
            return new Grammar(placed.getKey(), placed.getValue(), positions, terminals, List.of(), fineRules, tokenLimits, hiddenTails);
        }
        return new Grammar(START_RULE, rules, positions, lexical, ignored, fineRules, tokenLimits, hiddenTails);
    }

    // definition: ('?'|'!')? NAME ('.' priority)? ':' expansions
    private void parseDefinition() {
        if (peek().isOp("?") || peek().isOp("!")) next(); // tree-shaping prefixes: no effect on the language
        Token name = expect(Kind.NAME, "a rule or terminal name");
        refuseParametric();
        boolean terminal = isTerminalName(name.text);
        if (peek().isOp(".")) {
            next();
            if (peek().isOp("-") || peek().isOp("+")) next();
            expect(Kind.NUMBER, "a priority number");
        }
        if (peek().isOp("{")) throw error("rule templates are not supported", peek());
        LexemeOptions lexeme = peek().isOp("[") ? lexemeOptions() : null;
        if (lexeme != null && lexeme.maxTokens() > 0) {
            // counted per match at run time: the body is one lexeme (a terminal), as llguidance requires
            terminal = true;
            tokenLimits.put(name.text, lexeme.maxTokens());
        }
        if (lexeme != null && lexeme.hidden()) {
            // its matches are reported with their stop text (HiddenText): one terminal of its own
            terminal = true;
            hiddenTails.put(name.text, lexeme.hiddenBytes());
        }
        if (!peek().isOp(":")) {
            throw error("expected ':' after '" + name.text + "' but found " + peek().describe(), peek());
        }
        Token colon = next();
        // "name:\n    | a\n    | b" lists every alternative on its own line; that first '|'
        // introduces the list rather than an empty alternative.
        if (peek().isOp("|") && in.line(peek().pos) > in.line(colon.pos)) next();
        lexicalOwner = terminal ? name.text : null;
        Expr body = parseExpansions();
        lexicalOwner = null;
        if (lexeme != null) body = lexeme.apply(body);
        if (body instanceof Expr.Lazy) lazyRules.add(name.text);
        define(name, body, terminal);
    }

    /** Rules with {@code [lazy]} or {@code [suffix=...]}, checked by {@link LazyLexemes} once all terminals are known. */
    private final List<String> lazyRules = new ArrayList<>();

    /**
     * llguidance's lexeme options: {@code [lazy]}, {@code [suffix=T]} (the body then T, a string, regex or terminal,
     * lazily), {@code [stop="..."]} (a suffix whose {@code hiddenBytes} llguidance hides), {@code [max_tokens=N]}.
     */
    private record LexemeOptions(boolean lazy, Expr suffix, int maxTokens, int hiddenBytes) {
        boolean hidden() { return hiddenBytes > 0; }
        Expr apply(Expr body) {
            if (suffix != null) return new Expr.Lazy(new Expr.Seq(List.of(body, suffix)), true);
            return lazy ? new Expr.Lazy(body, true) : body;
        }
    }

    // '[' option (',' option)* ']' with option: NAME ('=' value)?
    private LexemeOptions lexemeOptions() {
        next(); // '['
        boolean lazy = false;
        Expr suffix = null;
        int maxTokens = 0;
        int hiddenBytes = 0;
        do {
            Token option = expect(Kind.NAME, "a rule option (lazy, suffix=...)");
            Token value = acceptOp("=") ? next() : null;
            // a value such as 0.7 lexes as several tokens
            Token last = value;
            while (value != null && !peek().isOp(",") && !peek().isOp("]") && peek().kind != Kind.EOF && peek().kind != Kind.NL) last = next();
            switch (option.text) {
                case "lazy" -> lazy = true;
                case "suffix" -> {
                    if (suffix != null) throw error("stop= and suffix= cannot be used together", option);
                    suffix = suffixTerminal(value, option);
                }
                // captures and sampling temperature do not change the language
                case "capture", "stop_capture", "temperature" -> { }
                case "stop" -> {
                    if (suffix != null) throw error("stop= and suffix= cannot be used together", option);
                    String stop = stopText(option, value);
                    suffix = new Expr.Literal(stop);
                    hiddenBytes = stop.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                }
                case "max_tokens" -> maxTokens = maxTokens(option, value, last);
                default -> throw error("unknown rule option '" + option.text
                        + "' (supported: lazy, suffix=..., stop=\"...\", max_tokens=N, capture, stop_capture, temperature)", option);
            }
        } while (acceptOp(","));
        if (!acceptOp("]")) throw error("expected ']' but found " + peek().describe(), peek());
        return new LexemeOptions(lazy, suffix, maxTokens, hiddenBytes);
    }

    /**
     * The text of {@code stop="..."}: the model writes it after the lexeme (lazily: the first one ends
     * it) and llguidance hides it from the output, which the caller does with {@code HiddenText}.
     */
    private String stopText(Token option, Token value) {
        if (value == null) throw error("stop takes a string, e.g. stop=\"\\n\"", option);
        if (value.kind == Kind.REGEX || value.kind == Kind.NAME) {
            throw error("stop= with a regex or a terminal is not supported (the hidden text must be a string); "
                    + "use stop=\"...\", or suffix=/lazy", value);
        }
        if (value.kind != Kind.STRING) throw error("stop takes a string, e.g. stop=\"\\n\"", value);
        if (value.value.isEmpty()) {
            throw error("stop=\"\" (the EOS token as the stop, hidden, then more output) is not supported: a stop token ends the output", value);
        }
        if (value.value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > dev.domino.runtime.internal.scan.Terminal.MAX_HIDDEN_TAIL) {
            throw error("stop= text is above the limit stop-bytes (" + dev.domino.runtime.internal.scan.Terminal.MAX_HIDDEN_TAIL + ")", value);
        }
        return value.value;
    }

    /** The N of {@code max_tokens=N}: a positive integer up to the limit lexeme-max-tokens. */
    private int maxTokens(Token option, Token value, Token last) {
        if (value == null) throw error("max_tokens takes a positive integer, e.g. max_tokens=10", option);
        String text = value.text;
        if (value.kind != Kind.NUMBER || last != value) {
            // a sign, a fraction, a string: the value's text as written
            int end = last.pos + (int) last.text.codePoints().count();
            String written = new String(in.cps, value.pos, Math.max(0, Math.min(in.cps.length, end) - value.pos));
            throw error("max_tokens=" + written + ": not a positive integer", value);
        }
        java.math.BigInteger n = new java.math.BigInteger(text);
        if (n.signum() == 0) {
            throw error("max_tokens=0: not a positive integer (llguidance reads 0 as the empty text; write \"\" for that)", value);
        }
        if (n.compareTo(java.math.BigInteger.valueOf(dev.domino.runtime.internal.scan.Terminal.MAX_LEXEME_TOKENS)) > 0) {
            throw error("max_tokens=" + text + " is above the limit lexeme-max-tokens ("
                    + dev.domino.runtime.internal.scan.Terminal.MAX_LEXEME_TOKENS + ")", value);
        }
        return n.intValueExact();
    }

    /** The terminal of {@code suffix=}: a string literal, a regex or an upper-case terminal name, as llguidance takes it. */
    private Expr suffixTerminal(Token value, Token option) {
        if (value == null) throw error("suffix= takes a terminal: a string, a regex or a TERMINAL name, e.g. suffix=\"</think>\"", option);
        switch (value.kind) {
            case STRING -> {
                Expr lit = new Expr.Literal(value.value);
                return value.flags.contains("i") ? CaseFolding.caseInsensitive(lit) : lit;
            }
            case REGEX -> { return regex(value); }
            case NAME -> {
                if (!isTerminalName(value.text)) throw error("suffix= takes a terminal; '" + value.text + "' is a rule", value);
                Expr.Ref ref = new Expr.Ref(value.text, in.line(value.pos), in.column(value.pos));
                refs.add(new RefSite(ref, "suffix=" + value.text));
                return ref;
            }
            default -> throw error("suffix= takes a terminal: a string, a regex or a TERMINAL name, e.g. suffix=\"</think>\"", option);
        }
    }

    private void define(Token name, Expr body, boolean terminal) {
        if (rules.containsKey(name.text)) {
            throw error((terminal ? "terminal '" : "rule '") + name.text + "' is defined more than once", name);
        }
        rules.put(name.text, body);
        positions.put(name.text, new int[] {in.line(name.pos), in.column(name.pos)});
        if (terminal) lexical.add(name.text);
    }

    private void parseDirective() {
        Token d = next();
        switch (d.text) {
            case "%ignore" -> {
                lexicalOwner = "%ignore";
                ignored.add(parseExpansions());
                lexicalOwner = null;
            }
            case "%import" -> parseImport(d);
            case "%llguidance" -> {
                Token body = expect(Kind.JSON, "a JSON object after %llguidance");
                String refusal = header.merge(json(body, "%llguidance"), body.pos);
                if (refusal != null) throw error(refusal, body);
            }
            default -> throw error(unsupportedDirective(d.text), d);
        }
    }

    /** A refusal that names the llguidance feature a directive stands for. */
    private static String unsupportedDirective(String directive) {
        return switch (directive) {
            case "%json", "%regex" -> directive + " { ... } stands for a rule body: write it after 'name:'";
            case "%lark" -> "llguidance's nested %lark { ... } grammars are not supported";
            case "%llguidance" -> "%llguidance { ... } is a header: write it on a line of its own";
            default -> "directive " + directive + " is not supported";
        };
    }

    /** The JSON value of a {@code %json}, {@code %regex} or {@code %llguidance} token, read strictly. */
    private com.fasterxml.jackson.databind.JsonNode json(Token body, String directive) {
        try {
            return dev.domino.compiler.StrictJson.parse(body.value);
        } catch (dev.domino.compiler.StrictJson.Invalid e) {
            // at the place in the grammar file: the JSON's own line and column counted from where it starts
            String where = e.pointer().isEmpty() ? "" : " at " + e.pointer();
            return throwAt(directive + ": invalid JSON" + where + ": " + e.detail(), body, e.line(), e.column());
        }
    }

    private <T> T throwAt(String message, Token body, int line, int column) {
        int offset = 0;
        if (line > 0) {
            String text = body.value;
            int i = 0;
            for (int l = 1; l < line && i < text.length(); i++) if (text.charAt(i) == '\n') l++;
            i = Math.min(text.length(), i + Math.max(0, column - 1));
            offset = text.codePointCount(0, i);
        }
        throw in.error(message, body.pos + offset);
    }

    // %json { schema }: the schema's grammar under a prefix no Lark name has
    private Expr jsonSchema(Token directive) {
        if (lexicalOwner != null) {
            throw error("%json cannot be used in " + ownerName() + " (terminals are regular); use it in a rule", directive);
        }
        Token body = expect(Kind.JSON, "a JSON Schema after %json");
        JsonSchemaGrammar g;
        com.fasterxml.jackson.databind.JsonNode schema = json(body, "%json");
        try {
            g = JsonSchemaGrammar.from(schema, jsonOptions);
        } catch (GrammarException e) {
            throw error("%json: " + e.getMessage(), body);
        }
        if (firstJson < 0) firstJson = directive.pos;
        for (JsonSchemaGrammar.KeywordLocation k : g.ignoredKeywords()) ignoredKeywords.add(k.toString());
        int line = in.line(directive.pos), column = in.column(directive.pos);
        String prefix = "%json@" + line + ":" + column + "/";
        for (String name : g.grammar().rules().keySet()) fineRules.add(prefix + name);
        return EmbeddedGrammar.embed(g.grammar(), prefix, rules, line, column);
    }

    // %regex { "substring_words" | "substring_chars" | "substring_chunks": ... }
    private static final java.util.Set<String> REGEX_FORMS = java.util.Set.of("substring_words", "substring_chars", "substring_chunks");

    private Expr structuredRegex(Token directive) {
        Token body = expect(Kind.JSON, "a JSON object after %regex");
        com.fasterxml.jackson.databind.JsonNode spec = json(body, "%regex");
        if (!spec.isObject() || spec.isEmpty()) {
            throw error("%regex takes an object with one of substring_words, substring_chars, substring_chunks", body);
        }
        if (spec.size() > 1) {
            // name the field that is not one of the three forms (llguidance's planned {"type": "substring", ...}), else the second form
            String extra = null;
            for (java.util.Iterator<String> it = spec.fieldNames(); it.hasNext() && extra == null; ) {
                String f = it.next();
                if (!REGEX_FORMS.contains(f)) extra = f;
            }
            if (extra != null) {
                throw error("%regex field '" + extra + "' is not supported (supported: substring_words, substring_chars, substring_chunks, one of them)", body);
            }
            throw error("%regex takes one of substring_words, substring_chars, substring_chunks; found " + spec.size() + " of them", body);
        }
        String field = spec.fieldNames().next();
        com.fasterxml.jackson.databind.JsonNode v = spec.get(field);
        List<String> chunks;
        switch (field) {
            case "substring_words", "substring_chars" -> {
                if (!v.isTextual()) throw error("%regex " + field + " takes a string", body);
                chunks = field.equals("substring_words") ? SubstringLanguage.words(v.textValue()) : SubstringLanguage.chars(v.textValue());
            }
            case "substring_chunks" -> {
                if (!v.isArray()) throw error("%regex substring_chunks takes an array of strings", body);
                chunks = new ArrayList<>();
                for (com.fasterxml.jackson.databind.JsonNode c : v) {
                    if (!c.isTextual()) throw error("%regex substring_chunks takes an array of strings", body);
                    chunks.add(c.textValue());
                }
            }
            default -> throw error("%regex field '" + field + "' is not supported (supported: substring_words, substring_chars, substring_chunks)", body);
        }
        try {
            return SubstringLanguage.of(chunks);
        } catch (IllegalArgumentException e) {
            throw error("%regex: " + e.getMessage(), body);
        }
    }

    /** llguidance's parametric rules ({@code name::param}, its docs/parametric.md) after a name. */
    private void refuseParametric() {
        if (peek().isOp(":") && tokens.get(t + 1).isOp(":")) {
            throw error("llguidance's parametric rules (name::param) are not supported", peek());
        }
    }

    private String ownerName() {
        return lexicalOwner.equals("%ignore") ? "%ignore" : "terminal '" + lexicalOwner + "'";
    }

    // %import common.X [-> Y]  |  %import common (X, Y, ...)
    private void parseImport(Token directive) {
        List<Token> path = new ArrayList<>();
        if (peek().isOp(".")) throw error("relative imports are not supported; only %import common", peek());
        path.add(expect(Kind.NAME, "a module name"));
        while (peek().isOp(".")) {
            next();
            path.add(expect(Kind.NAME, "a name"));
        }
        List<Token[]> imports = new ArrayList<>(); // {name, alias}
        if (peek().isOp("(")) {
            next();
            do {
                Token n = expect(Kind.NAME, "a name to import");
                imports.add(new Token[] {n, n});
            } while (acceptOp(","));
            if (!acceptOp(")")) throw error("expected ')' but found " + peek().describe(), peek());
        } else {
            if (path.size() < 2) throw error("expected '.NAME' or '(...)' after the module name", peek());
            Token n = path.remove(path.size() - 1);
            Token alias = n;
            if (acceptOp("->")) alias = expect(Kind.NAME, "an alias name");
            imports.add(new Token[] {n, alias});
        }
        if (path.size() != 1 || !path.get(0).text.equals("common")) {
            throw error("only %import common is supported", path.get(0));
        }
        for (Token[] imp : imports) {
            Expr def = LarkCommon.TERMINALS.get(imp[0].text);
            if (def == null) throw error("common does not define '" + imp[0].text + "'", imp[0]);
            if (!isTerminalName(imp[1].text)) {
                throw error("terminal '" + imp[0].text + "' must be imported under an upper-case name", imp[1]);
            }
            define(imp[1], def, true);
        }
    }

    // ---- expressions ------------------------------------------------------------------------------

    // expansions: alias ('|' alias)*
    private Expr parseExpansions() {
        List<Expr> options = new ArrayList<>();
        options.add(parseAlias());
        while (acceptOp("|")) options.add(parseAlias());
        return options.size() == 1 ? options.get(0) : new Expr.Alt(options);
    }

    // alias: conjunction ('->' NAME)?  — the alias only names a tree node; dropped
    private Expr parseAlias() {
        Expr e = parseConjunction();
        if (acceptOp("->")) expect(Kind.NAME, "an alias name");
        return e;
    }

    // conjunction: expansion ('&' expansion)*  — llguidance's intersection, terminals only
    private Expr parseConjunction() {
        Expr first = parseExpansion();
        if (!peek().isOp("&")) return first;
        Token amp = peek();
        if (lexicalOwner == null) {
            throw error("& (intersection) is only supported in terminals (UPPERCASE names), not in rules", amp);
        }
        List<Expr> all = new ArrayList<>(List.of(first));
        while (acceptOp("&")) all.add(parseExpansion());
        return algebraTerminal("&", new Algebra(all, null, amp.pos), amp);
    }

    /** A terminal of its own for an {@code &} or {@code ~}; its language is computed in {@link #resolveAlgebra}. */
    private Expr.Ref algebraTerminal(String op, Algebra a, Token at) {
        String name = "(" + op + " at " + in.line(at.pos) + ":" + in.column(at.pos) + ")";
        algebra.put(name, a);
        rules.put(name, Expr.NOTHING);
        positions.put(name, new int[] {in.line(at.pos), in.column(at.pos)});
        lexical.add(name);
        Expr.Ref ref = new Expr.Ref(name, in.line(at.pos), in.column(at.pos));
        refs.add(new RefSite(ref, lexicalOwner));
        return ref;
    }

    // expansion: expr*
    private Expr parseExpansion() {
        List<Expr> items = new ArrayList<>();
        while (startsAtom(peek())) items.add(parseExpr());
        return items.size() == 1 ? items.get(0) : new Expr.Seq(items);
    }

    private static boolean startsAtom(Token tok) {
        return tok.kind == Kind.NAME || tok.kind == Kind.STRING || tok.kind == Kind.REGEX || tok.kind == Kind.TOKEN
                || tok.isOp("(") || tok.isOp("[") || tok.isOp("~")
                || (tok.kind == Kind.DIRECTIVE && (tok.text.equals("%json") || tok.text.equals("%regex")));
    }

    // expr: atom ('?' | '*' | '+' | '~' n ('..' m)? | '{' m? (',' n?)? '}')*
    private Expr parseExpr() {
        Expr e = parseAtom();
        while (true) {
            Token op = peek();
            if (acceptOp("?")) {
                e = new Expr.Repeat(e, 0, 1);
            } else if (acceptOp("*")) {
                e = new Expr.Repeat(e, 0, Expr.Repeat.UNBOUNDED);
            } else if (acceptOp("+")) {
                e = new Expr.Repeat(e, 1, Expr.Repeat.UNBOUNDED);
            } else if (op.isOp("~") && tokens.get(t + 1).kind == Kind.NUMBER) {
                next();
                int min = number();
                int max = acceptOp("..") ? number() : min;
                e = repeat(e, min, max, op);
            } else if (op.isOp("{")) {
                next();
                if (peek().kind != Kind.NUMBER && !peek().isOp(",")) {
                    throw error("rule templates are not supported", op);
                }
                int min = peek().kind == Kind.NUMBER ? number() : 0;
                int max = min;
                if (acceptOp(",")) max = peek().kind == Kind.NUMBER ? number() : Expr.Repeat.UNBOUNDED;
                if (!acceptOp("}")) throw error("expected '}' but found " + peek().describe(), peek());
                e = repeat(e, min, max, op);
            } else {
                return e;
            }
        }
    }

    private Expr repeat(Expr e, int min, int max, Token at) {
        if (max != Expr.Repeat.UNBOUNDED && max < min) {
            throw error("repetition maximum " + max + " is less than minimum " + min, at);
        }
        return new Expr.Repeat(e, min, max);
    }

    private int number() {
        Token n = expect(Kind.NUMBER, "a number");
        try {
            return Integer.parseInt(n.text);
        } catch (NumberFormatException ex) {
            throw error("number too large", n);
        }
    }

    /** Groups ( and [ open at this point of the text. */
    private int groupDepth;

    private Expr parseAtom() {
        Token tok = next();
        switch (tok.kind) {
            case NAME -> {
                refuseParametric();
                Expr.Ref ref = new Expr.Ref(tok.text, in.line(tok.pos), in.column(tok.pos));
                refs.add(new RefSite(ref, lexicalOwner));
                return ref;
            }
            case STRING -> {
                if (acceptOp("..")) {
                    Token hi = expect(Kind.STRING, "a string after '..'");
                    return range(tok, hi);
                }
                Expr lit = new Expr.Literal(tok.value);
                return tok.flags.contains("i") ? CaseFolding.caseInsensitive(lit) : lit;
            }
            case REGEX -> {
                return regex(tok);
            }
            case TOKEN -> {
                return tokenRefs.get(tok.pos);
            }
            case DIRECTIVE -> {
                return tok.text.equals("%json") ? jsonSchema(tok) : structuredRegex(tok);
            }
            default -> { }
        }
        if (tok.isOp("~")) return negation(tok);
        if (tok.isOp("(") || tok.isOp("[")) {
            // bounded before recursing: 10,000 nested groups overflowed the stack
            dev.domino.compiler.CompileLimits.NESTING_DEPTH.check(++groupDepth, in.line(tok.pos), in.column(tok.pos));
            Expr e = parseExpansions();
            groupDepth--;
            boolean optional = tok.isOp("[");
            String close = optional ? "]" : ")";
            if (!acceptOp(close)) throw error("expected '" + close + "' but found " + peek().describe(), peek());
            return optional ? new Expr.Repeat(e, 0, 1) : e;
        }
        throw error("unexpected " + tok.describe(), tok); // unreachable: callers check startsAtom
    }

    // '~' atom: llguidance's complement, of a terminal's language (in a rule, the complement is a terminal)
    private Expr negation(Token tilde) {
        String outer = lexicalOwner;
        String name = "(~ at " + in.line(tilde.pos) + ":" + in.column(tilde.pos) + ")";
        lexicalOwner = name; // what the operand references must be terminals
        Expr operand = parseAtom();
        lexicalOwner = outer;
        return algebraTerminal("~", new Algebra(null, operand, tilde.pos), tilde);
    }

    // "a".."z": both ends single characters
    private Expr range(Token lo, Token hi) {
        if (lo.value.codePointCount(0, lo.value.length()) != 1) {
            throw error("range start must be a single character", lo);
        }
        if (hi.value.codePointCount(0, hi.value.length()) != 1) {
            throw error("range end must be a single character", hi);
        }
        int a = lo.value.codePointAt(0), b = hi.value.codePointAt(0);
        if (b < a) throw error("invalid range: end is before start", lo);
        Expr e = new Expr.Chars(CodePointSet.range(a, b));
        return lo.flags.contains("i") || hi.flags.contains("i") ? CaseFolding.caseInsensitive(e) : e;
    }

    private Expr regex(Token tok) {
        for (char f : tok.flags.toCharArray()) {
            // 'u' is Python 3's default for str patterns; 'm' and 'x' change what anchors and
            // spaces mean, which a whole-lexeme match does not carry
            if (f != 'i' && f != 'u' && f != 's') throw error("regex flag '" + f + "' is not supported (supported: i, s, u)", tok);
        }
        Expr e;
        try {
            e = RegexParser.parse(tok.value, RegexParser.Flavor.COMMON, new RegexParser.Flags(false, tok.flags.indexOf('s') >= 0));
        } catch (GrammarException | IllegalArgumentException ex) {
            throw error("invalid regular expression /" + tok.value + "/: " + ex.getMessage(), tok);
        }
        return tok.flags.indexOf('i') >= 0 ? CaseFolding.caseInsensitive(e) : e;
    }

    // ---- whole-grammar checks -----------------------------------------------------------------

    private void check() {
        for (RefSite site : refs) {
            Expr.Ref ref = site.ref;
            if (!rules.containsKey(ref.name())) {
                String kind = isTerminalName(ref.name()) ? "terminal" : "rule";
                throw new GrammarException("undefined " + kind + " '" + ref.name() + "'", ref.line(), ref.column());
            }
            if (site.lexicalOwner != null && (tokenLimits.containsKey(ref.name()) || hiddenTails.containsKey(ref.name()))) {
                String owner = site.lexicalOwner.equals("%ignore") ? "%ignore" : "terminal '" + site.lexicalOwner + "'";
                String option = tokenLimits.containsKey(ref.name()) ? "max_tokens=" : "stop=";
                throw new GrammarException(owner + " cannot use lexeme '" + ref.name() + "' with " + option + ": it needs to be "
                        + "a lexeme of its own", ref.line(), ref.column());
            }
            if (site.lexicalOwner != null && !lexical.contains(ref.name())) {
                String owner = site.lexicalOwner.equals("%ignore") ? "%ignore" : "terminal '" + site.lexicalOwner + "'";
                throw new GrammarException(owner + " cannot reference rule '" + ref.name()
                        + "' (terminals may only use terminals)", ref.line(), ref.column());
            }
        }
        checkTerminalRecursion();
        if (firstJson >= 0 && !ignored.isEmpty()) {
            // llguidance scopes %ignore to the Lark terminals; here ignored text may stand between any two terminals
            throw in.error("%json cannot be combined with %ignore: the ignored text would be allowed inside the JSON too", firstJson);
        }
        if (!rules.containsKey(START_RULE)) {
            throw new GrammarException("grammar does not define the start rule '" + START_RULE + "'", 1, 1);
        }
    }

    /**
     * Computes the terminals of {@code &} and {@code ~}: their operands with every terminal they
     * reference written out (terminals are not recursive, checked before), then one automaton.
     */
    private void resolveAlgebra() {
        if (algebra.isEmpty()) return;
        Map<String, Expr> resolved = new HashMap<>();
        for (String name : algebra.keySet()) resolveTerminal(name, resolved);
    }

    private Expr resolveTerminal(String name, Map<String, Expr> resolved) {
        Expr done = resolved.get(name);
        if (done != null) return done;
        Algebra a = algebra.get(name);
        Expr out;
        if (a == null) {
            out = inline(rules.get(name), resolved, new java.util.IdentityHashMap<>());
        } else {
            try {
                if (a.negated() != null) {
                    out = RegularLanguages.complement(inline(a.negated(), resolved, new java.util.IdentityHashMap<>()));
                } else {
                    List<Expr> all = new ArrayList<>();
                    for (Expr e : a.all()) all.add(inline(e, resolved, new java.util.IdentityHashMap<>()));
                    out = RegularLanguages.intersection(all, List.of());
                }
            } catch (RegularLanguages.TooComplex e) {
                String what = a.negated() != null ? "~ (complement)" : "& (intersection)";
                throw in.error(what + " cannot be computed: " + e.getMessage(), a.pos());
            }
            rules.put(name, out);
        }
        resolved.put(name, out);
        return out;
    }

    /** {@code e} with references to terminals replaced by their languages. */
    private Expr inline(Expr e, Map<String, Expr> resolved, java.util.IdentityHashMap<Expr, Expr> memo) {
        Expr m = memo.get(e);
        if (m != null) return m;
        Expr out;
        if (e instanceof Expr.Ref r) out = resolveTerminal(r.name(), resolved);
        else if (e instanceof Expr.Seq s) out = new Expr.Seq(s.items().stream().map(x -> inline(x, resolved, memo)).toList());
        else if (e instanceof Expr.Alt a) out = new Expr.Alt(a.options().stream().map(x -> inline(x, resolved, memo)).toList());
        else if (e instanceof Expr.Repeat r) out = new Expr.Repeat(inline(r.body(), resolved, memo), r.min(), r.max());
        else if (e instanceof Expr.Lazy l) out = new Expr.Lazy(inline(l.body(), resolved, memo), l.consume());
        else out = e;
        memo.put(e, out);
        return out;
    }

    /**
     * Whether the compiler's ignored terminals give the {@code %ignore} reading the {@code %llguidance}
     * options ask for: ignored text before, between and after any terminals, any number of times. Else
     * {@link IgnorePlacement} writes it into the rules.
     */
    private boolean ignoreByTerminals() {
        if (ignored.isEmpty()) return true; // both options are about %ignore only
        if (!initialSkip()) return false;
        if (!Boolean.TRUE.equals(header.ignoreOnce)) return true;
        // once = the ignored language L at most once between terminals; the terminals allow L*: the same
        // exactly when L L is inside L (L closed under concatenation)
        Map<String, Expr> resolved = new HashMap<>();
        Expr l = new Expr.Alt(ignored.stream().map(e -> inline(e, resolved, new java.util.IdentityHashMap<>())).toList());
        try {
            return RegularLanguages.intersection(List.of(new Expr.Seq(List.of(l, l))), List.of(l)).equals(Expr.NOTHING);
        } catch (RegularLanguages.TooComplex e) {
            return false;
        }
    }

    /**
     * Whether ignored text may come before the first lexeme: the header's {@code allow_initial_skip}; without
     * it, llguidance's default (no) in a grammar with a {@code %llguidance} header, and Lark's (yes) without one.
     */
    private boolean initialSkip() {
        return header.allowInitialSkip != null ? header.allowInitialSkip : !header.seen;
    }

    /** Terminals become regular expressions, so they cannot refer to themselves. */
    private void checkTerminalRecursion() {
        Map<String, List<Expr.Ref>> uses = new HashMap<>();
        for (RefSite site : refs) {
            if (site.lexicalOwner != null && !site.lexicalOwner.equals("%ignore")) {
                uses.computeIfAbsent(site.lexicalOwner, k -> new ArrayList<>()).add(site.ref);
            }
        }
        Map<String, Integer> state = new HashMap<>(); // 1 = in progress, 2 = done
        for (String name : lexical) visit(name, uses, state);
    }

    private void visit(String name, Map<String, List<Expr.Ref>> uses, Map<String, Integer> state) {
        Integer s = state.get(name);
        if (s != null && s == 2) return;
        state.put(name, 1);
        for (Expr.Ref ref : uses.getOrDefault(name, List.of())) {
            Integer rs = state.get(ref.name());
            if (rs != null && rs == 1) {
                throw new GrammarException("terminal '" + ref.name() + "' is recursive (terminals must be regular)",
                        ref.line(), ref.column());
            }
            visit(ref.name(), uses, state);
        }
        state.put(name, 2);
    }

    /** Lark's rule: a name is a terminal when it has letters and all are upper case. */
    static boolean isTerminalName(String name) {
        boolean cased = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isLowerCase(c)) return false;
            if (Character.isUpperCase(c)) cased = true;
        }
        return cased;
    }

    // ---- token helpers ----------------------------------------------------------------------------

    private Token peek() { return tokens.get(t); }

    private Token next() {
        Token tok = tokens.get(t);
        if (tok.kind != Kind.EOF) t++;
        return tok;
    }

    private boolean acceptOp(String op) {
        if (!peek().isOp(op)) return false;
        next();
        return true;
    }

    private Token expect(Kind kind, String what) {
        if (peek().kind != kind) throw error("expected " + what + " but found " + peek().describe(), peek());
        return next();
    }

    private GrammarException error(String message, Token at) { return in.error(message, at.pos); }

    // ---- lexer --------------------------------------------------------------------------------------

    /** {@code JSON}: the JSON value after {@code %json}, {@code %regex} or {@code %llguidance}, as text. */
    private enum Kind { NAME, STRING, REGEX, NUMBER, OP, DIRECTIVE, NL, EOF, TOKEN, JSON }

    /** Token references by the position of their token. */
    private final java.util.Map<Integer, Expr.TokenRef> tokenRefs;

    /**
     * A token. {@code value} is the decoded text of strings and the pattern of regexes;
     * {@code flags} their suffix letters.
     */
    private record Token(Kind kind, String text, String value, String flags, int pos) {
        boolean isOp(String op) { return kind == Kind.OP && text.equals(op); }

        String describe() {
            return switch (kind) {
                case NL -> "end of line";
                case EOF -> "end of input";
                case STRING -> "string " + text;
                case REGEX -> "regex " + text;
                default -> "'" + text + "'";
            };
        }
    }

    /** Splits the source into tokens; line breaks inside brackets or before '|' are dropped. */
    private static final class Lexer {
        private final GrammarText in;
        private final List<Token> out = new ArrayList<>();
        private int depth; // open ( [ {

        Lexer(GrammarText in) { this.in = in; }

        /** Token references by the position of their token. */
        final java.util.Map<Integer, Expr.TokenRef> tokenRefs = new java.util.HashMap<>();

        List<Token> run() {
            while (true) {
                skipBlanksAndComments();
                int start = in.pos;
                int c = in.peek();
                if (c == GrammarText.EOF) {
                    out.add(new Token(Kind.EOF, "", null, "", start));
                    return out;
                }
                if (c == '\n') {
                    lineBreak(start);
                } else if (c == '"') {
                    string(start);
                } else if (c == '/') {
                    regex(start);
                } else if (isDigit(c)) {
                    while (isDigit(in.peek())) in.next();
                    add(Kind.NUMBER, start);
                } else if (isNameStart(c)) {
                    name();
                    add(Kind.NAME, start);
                } else if (c == '%') {
                    in.next();
                    if (!isNameStart(in.peek())) throw in.error("expected a directive name after '%'", start);
                    name();
                    add(Kind.DIRECTIVE, start);
                    String d = in.substring(start, in.pos);
                    if (d.equals("%json") || d.equals("%regex") || d.equals("%llguidance")) jsonValue(d);
                } else if (TokenRefSyntax.startsAt(in)) {
                    // llguidance's special tokens: <|python_tag|>, <[128010]>, <[128000-128255]>
                    tokenRefs.put(start, TokenRefSyntax.read(in));
                    add(Kind.TOKEN, start);
                } else if (c == '@') {
                    throw in.error("sub-grammar references @... are not supported", start);
                } else {
                    operator(start, c);
                }
            }
        }

        /**
         * The JSON value after a directive, found by its brackets and strings (the strict reader checks
         * it later): the grammar's line structure does not apply inside it.
         */
        private void jsonValue(String directive) {
            while (in.peek() == ' ' || in.peek() == '\t' || in.peek() == '\r' || in.peek() == '\n') in.next();
            int start = in.pos;
            if (in.peek() != '{' && in.peek() != '[') throw in.error("expected a JSON object after " + directive, start);
            int depth = 0;
            do {
                int c = in.next();
                if (c == GrammarText.EOF) throw in.error("unterminated JSON value after " + directive, start);
                if (c == '{' || c == '[') {
                    dev.domino.compiler.CompileLimits.NESTING_DEPTH.check(++depth, in.line(start), in.column(start));
                } else if (c == '}' || c == ']') {
                    depth--;
                } else if (c == '"') {
                    while (true) {
                        int s = in.next();
                        if (s == GrammarText.EOF) throw in.error("unterminated JSON string after " + directive, start);
                        if (s == '\\') in.next();
                        else if (s == '"') break;
                    }
                }
            } while (depth > 0);
            out.add(new Token(Kind.JSON, directive, in.substring(start, in.pos), "", start));
        }

        private void lineBreak(int start) {
            in.next();
            if (depth > 0) return;
            // A definition continues over line breaks when the next line starts with '|'.
            int save = in.pos;
            while (true) {
                skipBlanksAndComments();
                if (in.peek() != '\n') break;
                in.next();
            }
            if (in.peek() == '|') return;
            in.pos = save;
            if (out.isEmpty() || out.get(out.size() - 1).kind != Kind.NL) {
                out.add(new Token(Kind.NL, "\n", null, "", start));
            }
        }

        private void operator(int start, int c) {
            in.next();
            String op;
            if (c == '.' && in.peek() == '.') {
                in.next();
                op = "..";
            } else if (c == '-' && in.peek() == '>') {
                in.next();
                op = "->";
            } else if ("|:?*+()[]{}~,.!-=&".indexOf(c) >= 0) {
                op = String.valueOf((char) c);
                if (c == '(' || c == '[' || c == '{') depth++;
                if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
            } else {
                throw in.error("unexpected character " + GrammarText.describe(c), start);
            }
            out.add(new Token(Kind.OP, op, null, "", start));
        }

        // "..." with Lark's escapes, optionally followed by 'i'
        private void string(int start) {
            in.next();
            StringBuilder sb = new StringBuilder();
            while (in.peek() != '"') {
                int c = in.peek();
                if (c == GrammarText.EOF || c == '\n') throw in.error("unterminated string literal", start);
                if (c == '\\') {
                    escape(sb);
                } else {
                    sb.appendCodePoint(in.next());
                }
            }
            in.next();
            String flags = "";
            if (in.peek() == 'i' && !isNameChar(in.peek(1))) {
                in.next();
                flags = "i";
            }
            out.add(new Token(Kind.STRING, in.substring(start, in.pos), sb.toString(), flags, start));
        }

        /**
         * Lark evaluates string escapes like Python for {@code \\ \" \n \t \r \f \xNN}, backslash-u
         * with 4 hex digits and {@code \UNNNNNNNN}, and keeps any other backslash as a literal backslash.
         */
        private void escape(StringBuilder sb) {
            int at = in.pos;
            in.next();
            int e = in.peek();
            switch (e) {
                case '\\', '"' -> { in.next(); sb.append((char) e); }
                case 'n' -> { in.next(); sb.append('\n'); }
                case 't' -> { in.next(); sb.append('\t'); }
                case 'r' -> { in.next(); sb.append('\r'); }
                case 'f' -> { in.next(); sb.append('\f'); }
                case 'x' -> { in.next(); sb.appendCodePoint(hex(2, at)); }
                case 'u' -> { in.next(); sb.appendCodePoint(hex(4, at)); }
                case 'U' -> { in.next(); sb.appendCodePoint(hex(8, at)); }
                case GrammarText.EOF, '\n' -> throw in.error("unterminated string literal", at);
                default -> sb.append('\\'); // the next character is read as itself
            }
        }

        private int hex(int digits, int at) {
            long v = 0;
            for (int i = 0; i < digits; i++) {
                int c = in.peek();
                int d = c >= 0 && c < 128 ? Character.digit(c, 16) : -1;
                if (d < 0) throw in.error("bad escape sequence: expected " + digits + " hex digits", at);
                in.next();
                v = v * 16 + d;
            }
            if (v > CodePointSet.MAX || (v >= 0xD800 && v <= 0xDFFF)) {
                throw in.error("bad escape sequence: invalid code point", at);
            }
            return (int) v;
        }

        // /pattern/flags — "\/" stands for "/"; other escapes are left for the regex parser
        private void regex(int start) {
            in.next();
            StringBuilder sb = new StringBuilder();
            while (in.peek() != '/') {
                int c = in.peek();
                if (c == GrammarText.EOF || c == '\n') throw in.error("unterminated regular expression", start);
                in.next();
                if (c == '\\' && in.peek() == '/') {
                    sb.append('/');
                    in.next();
                } else if (c == '\\' && in.peek() != GrammarText.EOF && in.peek() != '\n') {
                    sb.append('\\').appendCodePoint(in.next());
                } else {
                    sb.appendCodePoint(c);
                }
            }
            in.next();
            int flagStart = in.pos;
            while (isNameChar(in.peek()) && Character.isLetter(in.peek())) in.next();
            out.add(new Token(Kind.REGEX, in.substring(start, in.pos), sb.toString(),
                    in.substring(flagStart, in.pos), start));
        }

        private void name() {
            while (isNameChar(in.peek())) {
                if (in.peek() == '-' && (in.peek(1) == '>' || !isNameChar(in.peek(1)))) break;
                in.next();
            }
        }

        private void skipBlanksAndComments() {
            while (true) {
                int c = in.peek();
                if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || (c == '\n' && depth > 0)) {
                    in.next();
                } else if (c == '#' || (c == '/' && in.peek(1) == '/')) {
                    while (!in.atEnd() && in.peek() != '\n') in.next();
                } else {
                    return;
                }
            }
        }

        private void add(Kind kind, int start) {
            String text = in.substring(start, in.pos);
            out.add(new Token(kind, text, text, "", start));
        }

        private static boolean isDigit(int c) { return c >= '0' && c <= '9'; }
        private static boolean isNameStart(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
        private static boolean isNameChar(int c) { return isNameStart(c) || isDigit(c) || c == '-'; }
    }
}
