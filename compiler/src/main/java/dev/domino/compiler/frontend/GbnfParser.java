package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses llama.cpp GBNF grammars into the grammar IR.
 *
 * <p>Follows {@code llama-grammar.cpp} (rules {@code name ::= alternatives}, strings, character
 * classes, {@code .}, groups, postfix {@code * + ? {m} {m,} {m,n}}, {@code #} comments, start
 * rule {@code root}) with a few deliberate, strictly more permissive differences:
 * <ul>
 *   <li>rule names may contain {@code _}, as llama.cpp's README says (its parser has only accepted
 *       {@code [a-zA-Z0-9-]});</li>
 *   <li>{@code {,n}} means {@code {0,n}} (llama.cpp requires the lower bound);</li>
 *   <li>{@code \-} is accepted as an escape for {@code -};</li>
 *   <li>a rule may continue on the next line anywhere (llama.cpp only after {@code ::=},
 *       {@code |} and inside parentheses): a rule ends only where the next {@code name ::=}
 *       starts or at the end of input.</li>
 * </ul>
 * llama.cpp's token matching syntax ({@code <[id]>}, {@code <token>}, {@code !<...>}) is rejected
 * with an error: the IR is character-level.
 * Like llama.cpp, defining a rule twice is not an error: the later definition replaces the
 * earlier one. Everything llama.cpp accepts is parsed the same way here.
 */
public final class GbnfParser {
    public static final String START_RULE = "root";

    private final GrammarText in;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final Map<String, int[]> positions = new LinkedHashMap<>();
    /** Every reference in source order, checked once all rules are known. */
    private final List<Expr.Ref> refs = new ArrayList<>();

    private GbnfParser(String source) { this.in = new GrammarText(source); }

    /** Parses a GBNF grammar; throws {@link GrammarException} with a position on any error. */
    public static Grammar parse(String source) {
        return new GbnfParser(source).parseGrammar();
    }

    private Grammar parseGrammar() {
        skipSpace(true);
        if (in.atEnd()) throw in.error("empty grammar: no rules defined", 0);
        while (!in.atEnd()) parseRule();
        for (Expr.Ref ref : refs) {
            if (!rules.containsKey(ref.name())) {
                throw new GrammarException("undefined rule '" + ref.name() + "'", ref.line(), ref.column());
            }
        }
        if (!rules.containsKey(START_RULE)) {
            throw new GrammarException("grammar does not define the start rule '" + START_RULE + "'", 1, 1);
        }
        return new Grammar(START_RULE, rules, positions, Set.of(), List.of());
    }

    // rule ::= name '::=' alternates (newline | end)
    private void parseRule() {
        int start = in.pos;
        String name = parseName();
        if (name == null) {
            throw in.error("expected a rule name but found " + GrammarText.describe(in.peek()), in.pos);
        }
        skipSpace(false);
        if (!in.accept("::=")) {
            throw in.error("expected '::=' after rule name '" + name + "' but found "
                    + GrammarText.describe(in.peek()), in.pos);
        }
        skipSpace(false);
        Expr body = parseAlternates(false);
        // Top-level alternates stop only at a line ending before the next rule, or at the end.
        if (in.peek() == '\r' || in.peek() == '\n') {
            skipSpace(true);
        } else if (!in.atEnd()) {
            throw in.error("unexpected " + GrammarText.describe(in.peek()) + " in rule '" + name + "'", in.pos);
        }
        rules.put(name, body); // redefinition replaces, as in llama.cpp
        positions.put(name, new int[] {in.line(start), in.column(start)});
    }

    /** Groups open at this point of the text. */
    private int groupDepth;

    private Expr parseAlternates(boolean nested) {
        List<Expr> options = new ArrayList<>();
        options.add(parseSequence(nested));
        while (in.peek() == '|') {
            in.next();
            skipSpace(true); // llama.cpp allows a line break right after '|'
            options.add(parseSequence(nested));
        }
        return options.size() == 1 ? options.get(0) : new Expr.Alt(options);
    }

    private Expr parseSequence(boolean nested) {
        List<Expr> items = new ArrayList<>();
        while (true) {
            int c = in.peek();
            int at = in.pos;
            if (c == '"') {
                items.add(parseString());
            } else if (c == '[') {
                items.add(parseCharClass());
            } else if (isNameChar(c)) {
                String name = parseName();
                Expr.Ref ref = new Expr.Ref(name, in.line(at), in.column(at));
                refs.add(ref);
                items.add(ref);
            } else if (c == '(') {
                in.next();
                skipSpace(true);
                // bounded before recursing: 10,000 nested groups overflowed the stack
                dev.domino.compiler.CompileLimits.NESTING_DEPTH.check(++groupDepth, in.line(at), in.column(at));
                Expr inner = parseAlternates(true);
                groupDepth--;
                if (in.peek() != ')') {
                    throw in.atEnd()
                            ? in.error("unclosed '(': expected ')' before end of input", at)
                            : in.error("expected ')' but found " + GrammarText.describe(in.peek()), in.pos);
                }
                in.next();
                items.add(inner);
            } else if (c == '.') {
                in.next();
                items.add(new Expr.Chars(CodePointSet.ANY));
            } else if (TokenRefSyntax.startsAt(in)) {
                // llama.cpp's token matching: <[id]>, <|eot_id|>, !<...> (whole tokens, by id)
                items.add(TokenRefSyntax.read(in));
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                if (items.isEmpty()) {
                    throw in.error("expected an item before " + GrammarText.describe(c), at);
                }
                int last = items.size() - 1;
                items.set(last, parseRepetition(items.get(last)));
            } else {
                break;
            }
            skipSpace(nested);
        }
        return items.size() == 1 ? items.get(0) : new Expr.Seq(items);
    }

    // '*' | '+' | '?' | '{' m '}' | '{' m ',' '}' | '{' m ',' n '}' | '{' ',' n '}'
    private Expr parseRepetition(Expr body) {
        int at = in.pos;
        int c = in.next();
        switch (c) {
            case '*': return new Expr.Repeat(body, 0, Expr.Repeat.UNBOUNDED);
            case '+': return new Expr.Repeat(body, 1, Expr.Repeat.UNBOUNDED);
            case '?': return new Expr.Repeat(body, 0, 1);
            default: break;
        }
        skipSpace(true);
        int min = 0, max;
        boolean hasMin = isDigit(in.peek());
        if (hasMin) {
            min = parseInt();
            skipSpace(true);
        }
        if (in.peek() == '}' && hasMin) {
            max = min;
        } else if (in.peek() == ',') {
            in.next();
            skipSpace(true);
            max = isDigit(in.peek()) ? parseInt() : Expr.Repeat.UNBOUNDED;
            skipSpace(true);
            if (!hasMin && max == Expr.Repeat.UNBOUNDED) {
                throw in.error("expected a number in repetition '{...}'", at);
            }
            if (in.peek() != '}') {
                throw in.error("expected '}' but found " + GrammarText.describe(in.peek()), in.pos);
            }
        } else {
            throw in.error("expected " + (hasMin ? "',' or '}'" : "a number") + " in repetition but found "
                    + GrammarText.describe(in.peek()), in.pos);
        }
        in.next(); // '}'
        if (max != Expr.Repeat.UNBOUNDED && max < min) {
            throw in.error("repetition maximum " + max + " is less than minimum " + min, at);
        }
        return new Expr.Repeat(body, min, max);
    }

    private int parseInt() {
        int at = in.pos;
        long v = 0;
        while (isDigit(in.peek())) {
            v = v * 10 + (in.next() - '0');
            if (v > Integer.MAX_VALUE) throw in.error("repetition count too large", at);
        }
        return (int) v;
    }

    // '"' char* '"' — any character but '"' and '\' stands for itself, line breaks included
    private Expr parseString() {
        int open = in.pos;
        in.next();
        StringBuilder sb = new StringBuilder();
        while (in.peek() != '"') {
            if (in.atEnd()) throw in.error("unterminated string literal", open);
            int at = in.pos;
            int cp = parseChar();
            if (cp >= 0xD800 && cp <= 0xDFFF) throw in.error("surrogate code point in string literal", at);
            sb.appendCodePoint(cp);
        }
        in.next();
        return new Expr.Literal(sb.toString());
    }

    // '[' '^'? (char ('-' char)?)* ']' — a '-' right before ']' is a literal '-'
    private Expr parseCharClass() {
        int open = in.pos;
        in.next();
        boolean negated = false;
        if (in.peek() == '^') {
            in.next();
            negated = true;
        }
        List<Integer> ranges = new ArrayList<>();
        while (in.peek() != ']') {
            if (in.atEnd()) throw in.error("unterminated character class", open);
            int at = in.pos;
            int lo = parseChar();
            int hi = lo;
            if (in.peek() == '-' && in.peek(1) != ']') {
                in.next();
                if (in.atEnd()) throw in.error("unterminated character class", open);
                hi = parseChar();
                if (hi < lo) {
                    throw in.error("invalid character range: end is before start", at);
                }
            }
            ranges.add(lo);
            ranges.add(hi);
        }
        in.next();
        CodePointSet set = CodePointSet.fromRanges(ranges.stream().mapToInt(Integer::intValue).toArray());
        return new Expr.Chars(negated ? set.complement() : set);
    }

    /** One (possibly escaped) character of a string or class. Caller ensures not at end. */
    private int parseChar() {
        int at = in.pos;
        int c = in.next();
        if (c != '\\') return c;
        int e = in.next();
        switch (e) {
            case 'x': return parseHex(2, at);
            case 'u': return parseHex(4, at);
            case 'U': return parseHex(8, at);
            case 't': return '\t';
            case 'r': return '\r';
            case 'n': return '\n';
            case '\\': case '"': case '[': case ']': case '-':
                return e;
            case GrammarText.EOF:
                throw in.error("unterminated escape sequence", at);
            default:
                throw in.error("unknown escape sequence '\\" + new String(Character.toChars(e)) + "'", at);
        }
    }

    private int parseHex(int digits, int escapeStart) {
        long v = 0;
        for (int i = 0; i < digits; i++) {
            int d = Character.digit(in.peek(), 16);
            if (in.peek() == GrammarText.EOF || d < 0 || in.peek() > 'f') {
                throw in.error("expected " + digits + " hex digits in escape sequence", escapeStart);
            }
            in.next();
            v = v * 16 + d;
        }
        if (v > CodePointSet.MAX) throw in.error("code point out of range in escape sequence", escapeStart);
        return (int) v;
    }

    private String parseName() {
        int start = in.pos;
        while (isNameChar(in.peek())) in.next();
        return in.pos == start ? null : in.substring(start, in.pos);
    }

    /**
     * Skips blanks and {@code #} comments. Line breaks are skipped when {@code nested} (inside
     * parentheses), and at the top level unless what follows them is the next rule's
     * {@code name ::=} or the end of input — that is how a rule ends.
     */
    private void skipSpace(boolean nested) {
        while (true) {
            int c = in.peek();
            if (c == ' ' || c == '\t') {
                in.next();
            } else if (c == '#') {
                while (!in.atEnd() && in.peek() != '\n' && in.peek() != '\r') in.next();
            } else if ((c == '\n' || c == '\r') && (nested || !ruleEndsHere())) {
                in.next();
            } else {
                return;
            }
        }
    }

    /** At a line break: is the next non-blank content a new rule ({@code name ::=}) or nothing? */
    private boolean ruleEndsHere() {
        int save = in.pos;
        try {
            while (true) {
                int c = in.peek();
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    in.next();
                } else if (c == '#') {
                    while (!in.atEnd() && in.peek() != '\n' && in.peek() != '\r') in.next();
                } else {
                    break;
                }
            }
            if (in.atEnd()) return true;
            if (parseName() == null) return false;
            while (in.peek() == ' ' || in.peek() == '\t') in.next();
            // A name followed by ':' can only be a (possibly misspelt) definition; treating it
            // as one gives the better error message ("expected '::='").
            return in.peek() == ':';
        } finally {
            in.pos = save;
        }
    }

    private static boolean isDigit(int c) { return c >= '0' && c <= '9'; }

    private static boolean isNameChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-' || c == '_';
    }
}
