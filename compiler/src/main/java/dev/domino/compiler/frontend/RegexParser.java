package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a regular expression (ECMA-262 / Python {@code re} common subset) into the grammar IR.
 *
 * <p>Supported: literals, escapes ({@code \n \t \r \f \v \0 \xHH}, backslash-u escapes (4 hex or braces), Python
 * {@code \UHHHHHHHH}, {@code \cX} in ECMA, escaped metacharacters), {@code .}, classes with
 * ranges/negation/escapes, {@code \d \D \w \W \s \S} (ASCII {@code \d \w}; {@code \s} is the
 * ECMA whitespace set), simple Unicode general-category escapes {@code \p{L}} etc., groups
 * (plain, non-capturing, named), alternation, greedy and lazy quantifiers (lazy quantifiers
 * denote the same language), and anchors {@code ^ $} (Python also {@code \A \Z}) at the very
 * start/end of a top-level alternative; in an ECMA search ({@link #parseSearch}, JSON Schema's
 * {@code pattern}) also anywhere else ({@code ^a$|^b$}, {@code (^|,)x}: {@link RegexAnchors}).
 * Everything else (backreferences, lookaround, word boundaries, other anchors, inline flags other
 * than a leading Python {@code (?i)}/{@code (?s)}) raises a {@link GrammarException} naming the
 * feature and its column (line is always 1).
 */
public final class RegexParser {
    /**
     * The dialect: ECMA-262 (JSON Schema's {@code pattern}), or the common dialect of the {@code regex}
     * request fields, Lark and regex files: what Python {@code re}, Rust {@code regex} and ECMA-262 agree
     * on, plus what one of them has and means the same by ({@code \p{..}} classes, POSIX classes in
     * brackets, scoped flags {@code (?i:..)}, {@code \A \Z}). A refusal names the construct and the dialect.
     */
    public enum Flavor {
        ECMA("ECMA-262"), COMMON("common regex dialect (Python re / Rust regex / ECMA-262)");

        private final String label;

        Flavor(String label) { this.label = label; }

        /** The dialect's name in error messages. */
        public String label() { return label; }
    }

    /** Regex flags: {@code ignoreCase} = {@code i}, {@code dotAll} = {@code s}. */
    public record Flags(boolean ignoreCase, boolean dotAll) {
        public static final Flags NONE = new Flags(false, false);
    }

    /**
     * Result of {@link #parseSearch}: {@code expr} already includes the any-code-point padding on
     * unanchored sides; {@code anchoredStart}/{@code anchoredEnd} tell whether every top-level
     * alternative was anchored at that side.
     */
    public record ParsedRegex(Expr expr, boolean anchoredStart, boolean anchoredEnd) {}

    public static final CodePointSet DIGIT = CodePointSet.range('0', '9');
    public static final CodePointSet WORD = CodePointSet.fromRanges(new int[] {'0', '9', 'A', 'Z', 'a', 'z', '_', '_'});
    public static final CodePointSet SPACE = CodePointSet.fromRanges(new int[] {
        '\t', '\r', ' ', ' ', 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029,
        0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF});

    private RegexParser() {}

    /** Parses a whole-string regex (implicitly anchored at both ends). */
    public static Expr parse(String pattern, Flavor flavor) { return parse(pattern, flavor, Flags.NONE); }

    /** Parses a whole-string regex with flags; leading {@code ^} / trailing {@code $} are redundant and accepted. */
    public static Expr parse(String pattern, Flavor flavor, Flags flags) {
        List<Branch> branches = new RegexParser.Parser(pattern, flavor, flags).parseTop();
        List<Expr> alts = new ArrayList<>();
        for (Branch b : branches) alts.add(b.body);
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    /** JSON-Schema / {@code re.search} semantics: the pattern may match anywhere unless anchored. */
    public static ParsedRegex parseSearch(String pattern, Flavor flavor) { return parseSearch(pattern, flavor, Flags.NONE); }

    public static ParsedRegex parseSearch(String pattern, Flavor flavor, Flags flags) {
        Parser parser = new RegexParser.Parser(pattern, flavor, flags);
        parser.markAnchors = flavor == Flavor.ECMA; // ECMA without multiline: ^ and $ only at the input's ends
        List<Branch> branches = parser.parseTop();
        Expr any = Expr.star(Expr.chars(CodePointSet.ANY));
        if (parser.markedAnchors) {
            // an anchor inside the pattern: every branch with its outer anchors as markers, then RegexAnchors
            List<Expr> marked = new ArrayList<>();
            boolean allStart = true, allEnd = true;
            for (Branch b : branches) {
                List<Expr> items = new ArrayList<>();
                if (b.startAnchored) items.add(RegexAnchors.START);
                items.add(b.body);
                if (b.endAnchored) items.add(RegexAnchors.END);
                marked.add(new Expr.Seq(items));
                allStart &= b.startAnchored;
                allEnd &= b.endAnchored;
            }
            try {
                return new ParsedRegex(RegexAnchors.search(marked.size() == 1 ? marked.get(0) : new Expr.Alt(marked)), allStart, allEnd);
            } catch (GrammarException e) {
                throw parser.error(e.getMessage(), 0);
            }
        }
        // branches with the same anchoring share their padding: ".*(A|B).*", not ".*A.*|.*B.*".
        // Same language (concatenation distributes over union), but the subset construction of
        // the latter tracks which branches have matched so far: 2^branches states before
        // minimization (17 keywords: beyond any state limit)
        Map<List<Boolean>, List<Expr>> bodiesByAnchoring = new LinkedHashMap<>();
        boolean allStart = true, allEnd = true;
        for (Branch b : branches) {
            if (nullable(b.body) && !(b.startAnchored && b.endAnchored)) {
                // a search for something that may be empty succeeds on every string: say so
                // directly (".*" then "x*" then ".*" would be one long, ambiguous lexing problem)
                return new ParsedRegex(any, false, false);
            }
            bodiesByAnchoring.computeIfAbsent(List.of(b.startAnchored, b.endAnchored, b.endAnchored && b.endAllowsNewline),
                    k -> new ArrayList<>()).add(b.body);
            allStart &= b.startAnchored;
            allEnd &= b.endAnchored;
        }
        List<Expr> alts = new ArrayList<>();
        for (Map.Entry<List<Boolean>, List<Expr>> group : bodiesByAnchoring.entrySet()) {
            boolean startAnchored = group.getKey().get(0), endAnchored = group.getKey().get(1), endAllowsNewline = group.getKey().get(2);
            List<Expr> bodies = group.getValue();
            if (!startAnchored && !endAnchored && bodies.size() == 1 && runOfOneClass(bodies.get(0)) != null) {
                alts.add(containsRun((Expr.Repeat) bodies.get(0), any));
                continue;
            }
            List<Expr> items = new ArrayList<>();
            if (!startAnchored) items.add(any);
            items.add(bodies.size() == 1 ? bodies.get(0) : new Expr.Alt(bodies));
            if (!endAnchored) items.add(any);
            else if (endAllowsNewline) items.add(Expr.optional(Expr.literal("\n")));
            alts.add(items.size() == 1 ? items.get(0) : new Expr.Seq(items));
        }
        return new ParsedRegex(alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts), allStart, allEnd);
    }

    /** The class X when {@code e} is X{n,m} with n >= 1, else null. */
    private static CodePointSet runOfOneClass(Expr e) {
        if (e instanceof Expr.Repeat r && r.min() >= 1 && r.body() instanceof Expr.Chars c
                && !c.set().equals(CodePointSet.ANY)) return c.set();
        return null;
    }

    /**
     * "Contains X{n,m}", i.e. {@code .*X{n}.*}, as {@code (.*[^X])?X{n}.*}: the run is matched
     * where a maximal run of X starts (at the start, or after a character outside X), which
     * loses no string, since that run is at least as long. Why: a search for a long run
     * ({@code [A-Za-z0-9_-]{162}}) becomes a counted terminal, and with {@code .*} in front
     * every X could start the run: one live lexing per character read (160 configurations per
     * mask). Here, at most two: the run that started at the last non-X, and the prefix.
     */
    private static Expr containsRun(Expr.Repeat run, Expr any) {
        CodePointSet x = ((Expr.Chars) run.body()).set();
        Expr prefix = Expr.optional(new Expr.Seq(List.of(any, Expr.chars(CodePointSet.ANY.minus(x)))));
        return new Expr.Seq(List.of(prefix, new Expr.Repeat(run.body(), run.min(), run.min()), any));
    }

    /** True when the (reference-free) expression matches the empty string. */
    static boolean nullable(Expr e) {
        if (e instanceof Expr.Seq s) { for (Expr i : s.items()) if (!nullable(i)) return false; return true; }
        if (e instanceof Expr.Alt a) { for (Expr o : a.options()) if (nullable(o)) return true; return false; }
        if (e instanceof Expr.Repeat r) return r.min() == 0 || nullable(r.body());
        if (e instanceof Expr.Literal l) return l.text().isEmpty();
        return false; // Chars, Ref
    }

    private record Branch(Expr body, boolean startAnchored, boolean endAnchored, boolean endAllowsNewline) {}

    private static final class Parser {
        final int[] cps;
        final String source;
        final Flavor flavor;
        boolean ignoreCase;
        boolean dotAll;
        int pos;
        int depth;
        /** Whether an anchor inside the pattern becomes a {@link RegexAnchors} marker instead of an error. */
        boolean markAnchors;
        /** Whether such a marker was left. */
        boolean markedAnchors;

        Parser(String pattern, Flavor flavor, Flags flags) {
            this.source = pattern;
            this.cps = pattern.codePoints().toArray();
            this.flavor = flavor;
            this.ignoreCase = flags.ignoreCase();
            this.dotAll = flags.dotAll();
        }

        GrammarException error(String what, int at) {
            // a long pattern is cut in the message: errors are one readable line
            String shown = source.length() <= 120 ? source : source.substring(0, 100) + "...";
            return new GrammarException("regex /" + shown + "/ (" + flavor.label() + "): " + what, 1, at + 1);
        }

        boolean more() { return pos < cps.length; }
        int peek() { return cps[pos]; }
        boolean peekIs(int c) { return pos < cps.length && cps[pos] == c; }
        boolean lookingAt(String s) {
            int[] t = s.codePoints().toArray();
            if (pos + t.length > cps.length) return false;
            for (int i = 0; i < t.length; i++) if (cps[pos + i] != t[i]) return false;
            return true;
        }

        List<Branch> parseTop() {
            // Python: leading global inline flags like (?i) (?s) (?is)
            if (flavor == Flavor.COMMON) {
                while (lookingAt("(?")) {
                    int save = pos;
                    pos += 2;
                    boolean ok = false;
                    boolean i = false, s = false;
                    while (more() && "isuU".indexOf(peek()) >= 0) { if (peek() == 'i') i = true; else if (peek() == 's') s = true; pos++; ok = true; }
                    if (more() && (peek() == 'm' || peek() == 'x')) throw error("flag '" + Character.toString(peek()) + "' is not supported", pos);
                    if (ok && peekIs(')')) { pos++; ignoreCase |= i; dotAll |= s; }
                    else { pos = save; break; }
                }
            }
            List<Branch> out = new ArrayList<>();
            while (true) {
                out.add(parseTopBranch());
                if (!more()) break;
                if (peek() == '|') { pos++; continue; }
                if (peek() == ')') throw error("unmatched ')'", pos);
                throw error("unexpected character", pos);
            }
            return out;
        }

        Branch parseTopBranch() {
            boolean start = false, end = false, endNl = false;
            if (peekIs('^')) { pos++; start = true; }
            else if (flavor == Flavor.COMMON && lookingAt("\\A")) { pos += 2; start = true; }
            List<Expr> items = new ArrayList<>();
            List<Expr> lookaheads = new ArrayList<>(), negativeLookaheads = new ArrayList<>();
            int lookaheadAt = pos;
            // leading lookaheads of a whole-string match: they see the string from its start, where
            // the branch starts too, so the branch is an intersection of regular languages
            while (!markAnchors && (lookingAt("(?=") || lookingAt("(?!"))) {
                boolean positive = cps[pos + 2] == '=';
                int at = pos;
                pos += 3;
                Expr body = parseDisjunction();
                if (!peekIs(')')) throw error("missing ')'", at);
                pos++;
                Expr seen = new Expr.Seq(List.of(body, Expr.star(Expr.chars(CodePointSet.ANY))));
                (positive ? lookaheads : negativeLookaheads).add(seen);
            }
            while (more() && peek() != '|' && peek() != ')') {
                // \Z (Python) and \z (Rust, Python 3.14): the end of the text
                if (peek() == '$' || (flavor == Flavor.COMMON && (lookingAt("\\Z") || lookingAt("\\z")))) {
                    int at = pos;
                    boolean dollar = peek() == '$';
                    pos += dollar ? 1 : 2;
                    if (more() && peek() != '|' && peek() != ')' && dollar && markAnchors) {
                        items.add(RegexAnchors.END);
                        markedAnchors = true;
                        continue;
                    }
                    if (more() && peek() != '|' && peek() != ')') throw error("anchor '" + (dollar ? "$" : "\\" + Character.toString(cps[at + 1])) + "' in the middle of the pattern is not supported", at);
                    if (more() && peek() == ')') throw error("anchor in the middle of the pattern is not supported", at);
                    end = true;
                    endNl = dollar && flavor == Flavor.COMMON;
                    break;
                }
                parseTerm(items);
            }
            Expr body = items.size() == 1 ? items.get(0) : new Expr.Seq(items);
            if (!lookaheads.isEmpty() || !negativeLookaheads.isEmpty()) {
                List<Expr> all = new ArrayList<>(lookaheads);
                all.add(body);
                try {
                    body = dev.domino.compiler.jsonschema.algebra.RegularLanguages.intersection(all, negativeLookaheads);
                } catch (dev.domino.compiler.jsonschema.algebra.RegularLanguages.TooComplex e) {
                    throw error("lookahead: the intersection is too large (" + e.getMessage() + ")", lookaheadAt);
                }
            }
            return new Branch(body, start, end, endNl);
        }

        Expr parseDisjunction() {
            List<Expr> alts = new ArrayList<>();
            while (true) {
                List<Expr> items = new ArrayList<>();
                while (more() && peek() != '|' && peek() != ')') parseTerm(items);
                alts.add(items.size() == 1 ? items.get(0) : new Expr.Seq(items));
                if (peekIs('|')) { pos++; continue; }
                break;
            }
            return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
        }

        void parseTerm(List<Expr> items) {
            int at = pos;
            int c = peek();
            if ((c == '^' || c == '$') && markAnchors) {
                pos++;
                items.add(c == '^' ? RegexAnchors.START : RegexAnchors.END);
                markedAnchors = true;
                return;
            }
            if (c == '^') throw error("anchor '^' in the middle of the pattern is not supported", at);
            if (c == '$') throw error("anchor '$' in the middle of the pattern is not supported", at);
            Expr atom = parseAtom();
            items.add(parseQuantifiers(atom, at));
        }

        Expr parseQuantifiers(Expr atom, int atomAt) {
            while (more()) {
                int c = peek();
                int at = pos;
                int min, max;
                if (c == '*') { min = 0; max = Expr.Repeat.UNBOUNDED; pos++; }
                else if (c == '+') { min = 1; max = Expr.Repeat.UNBOUNDED; pos++; }
                else if (c == '?') { min = 0; max = 1; pos++; }
                else if (c == '{') {
                    int[] q = tryBraces();
                    if (q == null) return atom;
                    min = q[0]; max = q[1];
                } else return atom;
                if (peekIs('?')) pos++; // lazy: same language
                else if (peekIs('+')) throw error("possessive quantifier is not supported", pos);
                if (atom == null) throw error("quantifier without an operand", at);
                if (max != Expr.Repeat.UNBOUNDED && max < min) throw error("quantifier range out of order", at);
                atom = new Expr.Repeat(atom, min, max);
                if (more() && (peek() == '*' || peek() == '+' || peek() == '?')) throw error("nothing to repeat", pos);
            }
            return atom;
        }

        /** Parses {n}, {n,}, {n,m} (Python also {,m}); returns null (pos unchanged) if not a quantifier. */
        int[] tryBraces() {
            int save = pos;
            pos++;
            long a = readInt();
            long b;
            if (peekIs(',')) {
                pos++;
                b = readInt();
                if (b == -2) b = -1; // unbounded
                if (a == -2) {
                    if (flavor == Flavor.COMMON) a = 0;
                    else { pos = save; return null; }
                }
            } else {
                if (a == -2) { pos = save; return null; }
                b = a;
            }
            if (!peekIs('}')) { pos = save; return null; }
            pos++;
            if (a > 100000 || b > 100000) throw error("repetition count too large", save);
            return new int[] {(int) a, (int) b};
        }

        long readInt() {
            int start = pos;
            long v = 0;
            while (more() && peek() >= '0' && peek() <= '9') { v = Math.min(v * 10 + (peek() - '0'), 1_000_000_000L); pos++; }
            return pos == start ? -2 : v;
        }

        Expr parseAtom() {
            int at = pos;
            int c = cps[pos++];
            switch (c) {
                case '.': {
                    CodePointSet s = dotAll ? CodePointSet.ANY
                        : flavor == Flavor.COMMON ? CodePointSet.of('\n').complement()
                        : CodePointSet.fromRanges(new int[] {'\n', '\n', '\r', '\r', 0x2028, 0x2029}).complement();
                    return Expr.chars(s);
                }
                case '(': return parseGroup(at);
                case ')': throw error("unmatched ')'", at);
                case '[': { CodePointSet cs = parseClass(at); return cs.size() == 1 ? Expr.literal(Character.toString(cs.lo(0))) : Expr.chars(cs); }
                case '\\': return parseEscapeAtom(at);
                case '*': case '+': case '?': throw error("quantifier without an operand", at);
                case '{':
                    if (flavor == Flavor.ECMA) { pos = at; if (tryBraces() != null) throw error("quantifier without an operand", at); pos = at + 1; }
                    return literalChar(c);
                default: return literalChar(c);
            }
        }

        Expr parseGroup(int at) {
            if (peekIs('?')) {
                pos++;
                if (peekIs(':')) { pos++; }
                else if (peekIs('=') || peekIs('!')) {
                    throw error(markAnchors ? "lookahead is only supported in the shape ^(?=A)(?!B)R, R without a top-level '|'"
                            : "lookahead is only supported at the start of the pattern", at);
                }
                else if (lookingAt("<=") || lookingAt("<!")) throw error("lookbehind is not supported", at);
                else if (isFlagStart()) return scopedFlags(at);
                else if (peekIs('<') || (flavor == Flavor.COMMON && lookingAt("P<"))) {
                    pos += peekIs('<') ? 1 : 2;
                    while (more() && peek() != '>') pos++;
                    if (!more()) throw error("unterminated group name", at);
                    pos++;
                } else if (flavor == Flavor.COMMON && lookingAt("P=")) throw error("backreference is not supported", at);
                else if (peekIs('#')) throw error("comment group is not supported", at);
                else throw error("extension group '(?" + (more() ? Character.toString(peek()) : "") + "' is not supported", at);
            }
            depth++;
            // bounded before recursing: 10,000 nested groups overflowed the stack
            if (depth > dev.domino.compiler.CompileLimits.NESTING_DEPTH.value()) {
                throw error("groups nested " + depth + " deep exceed the limit " + dev.domino.compiler.CompileLimits.NESTING_DEPTH.id() + "="
                        + dev.domino.compiler.CompileLimits.NESTING_DEPTH.value() + " (raise it with --limit "
                        + dev.domino.compiler.CompileLimits.NESTING_DEPTH.id() + "=N)", at);
            }
            Expr e = parseDisjunction();
            depth--;
            if (!peekIs(')')) throw error("missing ')'", at);
            pos++;
            return e;
        }

        boolean isFlagStart() {
            return more() && (peek() == '-' || "imsxuU".indexOf(peek()) >= 0);
        }

        /**
         * {@code (?flags:...)} (ECMA-262 modifiers, Python, Rust): {@code i} and {@code s} on or off
         * ({@code -}); {@code u} and Rust's {@code U} (laziness) leave the language as it is; {@code m} and
         * {@code x} are refused by name. Flags for the rest of the pattern, {@code (?i)}, only at its start
         * (see parseTop). Pos is after {@code (?}.
         */
        Expr scopedFlags(int at) {
            boolean on = true, i = ignoreCase, sAll = dotAll;
            while (more() && peek() != ':' && peek() != ')') {
                int f = cps[pos];
                switch (f) {
                    case '-' -> on = false;
                    case 'i' -> i = on;
                    case 's' -> sAll = on;
                    case 'u', 'U' -> { }
                    case 'm' -> throw error("flag 'm' (multi-line anchors) is not supported", pos);
                    case 'x' -> throw error("flag 'x' (verbose) is not supported", pos);
                    default -> throw error("unknown inline flag '" + Character.toString(f) + "'", pos);
                }
                pos++;
            }
            if (!more()) throw error("missing ')'", at);
            if (peek() == ')') throw error("inline flags '(?...)' are only supported at the start of the pattern; use a scoped group (?flags:...)", at);
            pos++; // ':'
            boolean savedI = ignoreCase, savedS = dotAll;
            ignoreCase = i;
            dotAll = sAll;
            depth++;
            Expr e = parseDisjunction();
            depth--;
            ignoreCase = savedI;
            dotAll = savedS;
            if (!peekIs(')')) throw error("missing ')'", at);
            pos++;
            return e;
        }

        Expr parseEscapeAtom(int at) {
            if (!more()) throw error("trailing backslash", at);
            int c = peek();
            switch (c) {
                case 'b': throw error("word boundary \\b is not supported", at);
                case 'B': throw error("word boundary \\B is not supported", at);
                case 'A': case 'Z': case 'z': case 'G':
                    throw error("anchor \\" + Character.toString(c) + " in the middle of the pattern is not supported", at);
                case 'k': throw error("backreference \\k is not supported", at);
                default:
            }
            if (c >= '1' && c <= '9') throw error("backreference \\" + Character.toString(c) + " is not supported", at);
            CodePointSet set = parseClassEscape(at, false);
            return chars(set);
        }

        /** After a backslash (pos at the escaped char). Returns the set denoted by the escape. */
        CodePointSet parseClassEscape(int at, boolean inClass) {
            int c = cps[pos++];
            switch (c) {
                case 'd': return DIGIT;
                case 'D': return DIGIT.complement();
                case 'w': return WORD;
                case 'W': return WORD.complement();
                case 's': return SPACE;
                case 'S': return SPACE.complement();
                case 'n': return CodePointSet.of('\n');
                case 't': return CodePointSet.of('\t');
                case 'r': return CodePointSet.of('\r');
                case 'f': return CodePointSet.of('\f');
                case 'v': return CodePointSet.of(0x0B);
                case 'a': if (flavor == Flavor.COMMON) return CodePointSet.of(7); break;
                case 'b': if (inClass) return CodePointSet.of(8); break;
                case '0':
                    if (more() && peek() >= '0' && peek() <= '9') throw error("octal escape is not supported", at);
                    return CodePointSet.of(0);
                case 'x':
                    if (peekIs('{')) {
                        // Rust regex's braced form (llguidance); Python re and ECMA-262 with the u flag refuse it
                        if (flavor != Flavor.COMMON) throw error("braced hex escape \\x{...} is not supported (write \\u{...})", at);
                        return CodePointSet.of(braced("\\x{...}", at));
                    }
                    return CodePointSet.of(hex(2, at));
                case 'u': {
                    if (peekIs('{')) return CodePointSet.of(braced("\\u{...}", at));
                    int v = hex(4, at);
                    if (v >= 0xD800 && v <= 0xDBFF && lookingAt("\\u")) {
                        int save = pos;
                        pos += 2;
                        try {
                            int lo = hex(4, at);
                            if (lo >= 0xDC00 && lo <= 0xDFFF) return CodePointSet.of(Character.toCodePoint((char) v, (char) lo));
                        } catch (GrammarException ignored) { /* fall through */ }
                        pos = save;
                    }
                    if (v >= 0xD800 && v <= 0xDFFF) throw error("lone surrogate escape is not supported", at);
                    return CodePointSet.of(v);
                }
                case 'U': if (flavor == Flavor.COMMON) return CodePointSet.of(peekIs('{') ? braced("\\U{...}", at) : hex(8, at)); break;
                case 'c':
                    if (flavor == Flavor.ECMA && more() && Character.isLetter(peek()) && peek() < 128) return CodePointSet.of(cps[pos++] % 32);
                    break;
                case 'p': case 'P': {
                    CodePointSet s = unicodeProperty(at);
                    return c == 'P' ? s.complement() : s;
                }
                case 'N': throw error("named character escape \\N is not supported", at);
                default:
            }
            if (c >= '1' && c <= '9') {
                if (inClass) throw error("octal escape is not supported", at);
                throw error("backreference is not supported", at);
            }
            if (c < 128 && Character.isLetterOrDigit(c)) throw error("unknown escape \\" + Character.toString(c), at);
            return CodePointSet.of(c); // identity escape of a metacharacter / punctuation
        }

        /** A braced hex escape's code point: {@code {} then 1 to 8 hex digits then {@code }}, not a surrogate. */
        int braced(String form, int at) {
            pos++; // '{'
            int start = pos;
            while (more() && peek() != '}' && pos - start <= 8) pos++;
            if (!more() || peek() != '}' || pos == start || pos - start > 8) throw error("bad " + form + " escape", at);
            int v = 0;
            for (int i = start; i < pos; i++) {
                int d = Character.digit(cps[i], 16);
                if (d < 0) throw error("bad " + form + " escape", at);
                v = v * 16 + d;
            }
            pos++; // '}'
            if (v > CodePointSet.MAX) throw error("code point out of range", at);
            if (v >= 0xD800 && v <= 0xDFFF) throw error("lone surrogate escape is not supported", at);
            return v;
        }

        int hex(int n, int at) {
            if (pos + n > cps.length) throw error("bad hex escape", at);
            int v = 0;
            for (int i = 0; i < n; i++) {
                int d = Character.digit(cps[pos + i], 16);
                if (d < 0) throw error("bad hex escape", at);
                v = v * 16 + d;
            }
            pos += n;
            if (v > CodePointSet.MAX) throw error("code point out of range", at);
            return v;
        }

        CodePointSet unicodeProperty(int at) {
            if (flavor == Flavor.COMMON && more() && peek() != '{') {
                // Rust's one-letter form: \pL
                CodePointSet s = UnicodeCategories.byName(Character.toString(cps[pos++]));
                if (s == null) throw error("Unicode property escape \\p" + Character.toString(cps[pos - 1]) + " is not supported", at);
                return s;
            }
            if (!peekIs('{')) throw error("bad Unicode property escape", at);
            int start = ++pos;
            while (more() && peek() != '}') pos++;
            if (!more()) throw error("bad Unicode property escape", at);
            String name = new String(cps, start, pos - start);
            pos++;
            if (name.startsWith("General_Category=")) name = name.substring(17);
            else if (name.startsWith("gc=")) name = name.substring(3);
            CodePointSet s;
            if (name.startsWith("Script=") || name.startsWith("sc=")) s = UnicodeCategories.script(name.substring(name.indexOf('=') + 1));
            else if (name.contains("=")) throw error("Unicode property escape \\p{" + name + "} is not supported (general categories, Script=, binary properties)", at);
            else {
                s = UnicodeCategories.byName(name);
                if (s == null) s = UnicodeCategories.binary(name);
                // Rust and Python's regex module take a bare script name; ECMA-262 needs Script=
                if (s == null && flavor == Flavor.COMMON) s = UnicodeCategories.script(name);
            }
            if (s == null) throw error("Unicode property escape \\p{" + name + "} is not supported", at);
            return s;
        }

        CodePointSet parseClass(int at) {
            boolean negate = false;
            if (peekIs('^')) { pos++; negate = true; }
            CodePointSet set = CodePointSet.EMPTY;
            boolean first = true;
            while (true) {
                if (!more()) throw error("unterminated character class", at);
                int c = peek();
                if (c == ']' && !(first && flavor == Flavor.COMMON)) { pos++; break; }
                first = false;
                int itemAt = pos;
                if (flavor == Flavor.COMMON) refuseClassSetSyntax();
                CodePointSet lo = classAtom();
                // "--" after a class escape ([\w--\d]) cannot start a range: name the set operation it is in Rust regex
                if (flavor == Flavor.COMMON && more() && lo.size() != 1) refuseClassSetSyntax();
                if (peekIs('-') && pos + 1 < cps.length && cps[pos + 1] != ']') {
                    pos++;
                    int hiAt = pos;
                    CodePointSet hi = classAtom();
                    if (lo.size() != 1 || hi.size() != 1 || lo.rangeCount() != 1 || hi.rangeCount() != 1) {
                        if (flavor == Flavor.COMMON) throw error("bad character range", itemAt);
                        // ECMA annex B: class escape in a range means literal '-'
                        set = set.union(lo).union(hi).union(CodePointSet.of('-'));
                        continue;
                    }
                    int a = lo.lo(0), b = hi.lo(0);
                    if (a > b) throw error("character class range out of order", hiAt);
                    set = set.union(CodePointSet.range(a, b));
                } else {
                    set = set.union(lo);
                }
            }
            if (ignoreCase) set = foldCase(set);
            return negate ? set.complement() : set;
        }

        /**
         * Rust regex reads a nested class {@code [a[^b]]} and the set operators {@code && -- ~~} inside a
         * class; Python {@code re} and ECMA-262 read the same text as literal characters. Neither reading
         * is common to the dialect, so it is refused rather than guessed (pos is at a class item).
         */
        void refuseClassSetSyntax() {
            int c = cps[pos];
            boolean pair = pos + 1 < cps.length && cps[pos + 1] == c;
            if (c == '[' && !(pos + 1 < cps.length && cps[pos + 1] == ':')) {
                throw error("'[' inside a character class (a nested class in Rust regex, a literal '[' in Python re and ECMA-262) "
                        + "is not supported; write \\[ for the character", pos);
            }
            if (pair && (c == '&' || c == '-' || c == '~')) {
                String op = c == '&' ? "intersection" : c == '-' ? "difference" : "symmetric difference";
                throw error("'" + (char) c + (char) c + "' inside a character class (" + op + " in Rust regex, literal characters in "
                        + "Python re and ECMA-262) is not supported; write the class out, or escape the characters", pos);
            }
        }

        CodePointSet classAtom() {
            int at = pos;
            int c = cps[pos++];
            if (c == '\\') {
                if (!more()) throw error("trailing backslash", at);
                if (peek() == '-') { pos++; return CodePointSet.of('-'); }
                return parseClassEscape(at, true);
            }
            if (c == '[' && flavor == Flavor.COMMON && peekIs(':')) return posixClass(at);
            return CodePointSet.of(c);
        }

        /** {@code [:alpha:]} inside brackets (Rust's ASCII classes; {@code [:^alpha:]} negated). Pos is at the ':'. */
        CodePointSet posixClass(int at) {
            int start = pos + 1;
            int end = start;
            while (end < cps.length && cps[end] != ':') end++;
            if (end + 1 >= cps.length || cps[end + 1] != ']') throw error("unterminated POSIX class", at);
            String name = new String(cps, start, end - start);
            boolean negated = name.startsWith("^");
            CodePointSet set = PosixClasses.byName(negated ? name.substring(1) : name);
            if (set == null) throw error("unknown POSIX class [:" + name + ":]", at);
            pos = end + 2;
            return negated ? set.complement() : set;
        }

        Expr literalChar(int c) { return chars(CodePointSet.of(c)); }

        Expr chars(CodePointSet s) {
            if (s.size() == 1 && ignoreCase) s = foldCase(s);
            if (s.size() == 1) return Expr.literal(Character.toString(s.lo(0)));
            return Expr.chars(s);
        }
    }

    /** Adds simple case variants (lower/upper/title) of every member. */
    static CodePointSet foldCase(CodePointSet s) {
        List<Integer> extra = new ArrayList<>();
        for (int i = 0; i < s.rangeCount(); i++) {
            int hi = s.hi(i);
            for (int cp = s.lo(i); cp <= hi; cp++) {
                int l = Character.toLowerCase(cp), u = Character.toUpperCase(cp), t = Character.toTitleCase(cp);
                if (l != cp) extra.add(l);
                if (u != cp) extra.add(u);
                if (t != cp) extra.add(t);
            }
        }
        if (extra.isEmpty()) return s;
        int[] pairs = new int[extra.size() * 2];
        for (int i = 0; i < extra.size(); i++) { pairs[2 * i] = extra.get(i); pairs[2 * i + 1] = extra.get(i); }
        return s.union(CodePointSet.fromRanges(pairs));
    }

    /** Unicode general categories by short or long name. */
    static final class UnicodeCategories {
        private static final dev.domino.runtime.internal.util.BoundedCache<String, CodePointSet> CACHE = dev.domino.runtime.internal.util.ProcessCaches.register(
                new dev.domino.runtime.internal.util.BoundedCache<>("unicode categories", 4L << 20));
        /** Estimated bytes of a cached set: two ints per range and the object. */
        private static final java.util.function.ToLongFunction<CodePointSet> SIZE = set -> 64 + 8L * set.rangeCount();
        private static final java.util.Map<String, String> LONG = java.util.Map.ofEntries(
            java.util.Map.entry("Letter", "L"), java.util.Map.entry("Uppercase_Letter", "Lu"),
            java.util.Map.entry("Lowercase_Letter", "Ll"), java.util.Map.entry("Titlecase_Letter", "Lt"),
            java.util.Map.entry("Modifier_Letter", "Lm"), java.util.Map.entry("Other_Letter", "Lo"),
            java.util.Map.entry("Mark", "M"), java.util.Map.entry("Number", "N"),
            java.util.Map.entry("Decimal_Number", "Nd"), java.util.Map.entry("digit", "Nd"),
            java.util.Map.entry("Letter_Number", "Nl"), java.util.Map.entry("Other_Number", "No"),
            java.util.Map.entry("Punctuation", "P"), java.util.Map.entry("Symbol", "S"),
            java.util.Map.entry("Separator", "Z"), java.util.Map.entry("Space_Separator", "Zs"),
            java.util.Map.entry("Other", "C"), java.util.Map.entry("Control", "Cc"));

        /** A script by name or alias, from the JDK's Unicode data (Greek, Grek, Han, Latin...); null if unknown. */
        static CodePointSet script(String name) {
            Character.UnicodeScript script;
            try {
                script = Character.UnicodeScript.forName(name);
            } catch (IllegalArgumentException e) {
                return null;
            }
            return CACHE.computeIfAbsent("sc=" + script.name(), k -> compute(cp -> Character.UnicodeScript.of(cp) == script), SIZE);
        }

        /** Binary properties the JDK knows: Alphabetic, Ideographic, Uppercase, Lowercase, ASCII, Any, Assigned. */
        static CodePointSet binary(String name) {
            java.util.function.IntPredicate p = switch (name) {
                case "Alphabetic", "Alpha" -> Character::isAlphabetic;
                case "Ideographic", "Ideo" -> Character::isIdeographic;
                case "Uppercase", "Upper" -> Character::isUpperCase;
                case "Lowercase", "Lower" -> Character::isLowerCase;
                case "ASCII" -> cp -> cp < 128;
                case "Any" -> cp -> true;
                case "Assigned" -> cp -> Character.getType(cp) != Character.UNASSIGNED;
                default -> null;
            };
            return p == null ? null : CACHE.computeIfAbsent("bin=" + name, k -> compute(p), SIZE);
        }

        private static CodePointSet compute(java.util.function.IntPredicate p) {
            List<Integer> pairs = new ArrayList<>();
            int runStart = -1;
            for (int cp = 0; cp <= CodePointSet.MAX + 1; cp++) {
                boolean in = cp <= CodePointSet.MAX && p.test(cp);
                if (in && runStart < 0) runStart = cp;
                if (!in && runStart >= 0) { pairs.add(runStart); pairs.add(cp - 1); runStart = -1; }
            }
            return CodePointSet.fromRanges(pairs.stream().mapToInt(Integer::intValue).toArray());
        }

        static CodePointSet byName(String name) {
            String code = LONG.getOrDefault(name, name);
            if (!code.matches("[LMNPSZC][a-z]?")) return null;
            return CACHE.computeIfAbsent(code, c -> compute(cp -> matches(c, cp)), SIZE);
        }

        private static boolean matches(String code, int cp) {
            String cat = categoryCode(Character.getType(cp));
            return code.length() == 1 ? cat.charAt(0) == code.charAt(0) : cat.equals(code);
        }

        private static String categoryCode(int type) {
            switch (type) {
                case Character.UPPERCASE_LETTER: return "Lu";
                case Character.LOWERCASE_LETTER: return "Ll";
                case Character.TITLECASE_LETTER: return "Lt";
                case Character.MODIFIER_LETTER: return "Lm";
                case Character.OTHER_LETTER: return "Lo";
                case Character.NON_SPACING_MARK: return "Mn";
                case Character.COMBINING_SPACING_MARK: return "Mc";
                case Character.ENCLOSING_MARK: return "Me";
                case Character.DECIMAL_DIGIT_NUMBER: return "Nd";
                case Character.LETTER_NUMBER: return "Nl";
                case Character.OTHER_NUMBER: return "No";
                case Character.CONNECTOR_PUNCTUATION: return "Pc";
                case Character.DASH_PUNCTUATION: return "Pd";
                case Character.START_PUNCTUATION: return "Ps";
                case Character.END_PUNCTUATION: return "Pe";
                case Character.INITIAL_QUOTE_PUNCTUATION: return "Pi";
                case Character.FINAL_QUOTE_PUNCTUATION: return "Pf";
                case Character.OTHER_PUNCTUATION: return "Po";
                case Character.MATH_SYMBOL: return "Sm";
                case Character.CURRENCY_SYMBOL: return "Sc";
                case Character.MODIFIER_SYMBOL: return "Sk";
                case Character.OTHER_SYMBOL: return "So";
                case Character.SPACE_SEPARATOR: return "Zs";
                case Character.LINE_SEPARATOR: return "Zl";
                case Character.PARAGRAPH_SEPARATOR: return "Zp";
                case Character.CONTROL: return "Cc";
                case Character.FORMAT: return "Cf";
                case Character.SURROGATE: return "Cs";
                case Character.PRIVATE_USE: return "Co";
                default: return "Cn";
            }
        }
    }

    /** POSIX bracket classes as Rust's regex defines them (ASCII only). */
    static final class PosixClasses {
        private PosixClasses() {}

        static CodePointSet byName(String name) {
            int[] r = switch (name) {
                case "alnum" -> new int[] {'0', '9', 'A', 'Z', 'a', 'z'};
                case "alpha" -> new int[] {'A', 'Z', 'a', 'z'};
                case "ascii" -> new int[] {0, 0x7F};
                case "blank" -> new int[] {'\t', '\t', ' ', ' '};
                case "cntrl" -> new int[] {0, 0x1F, 0x7F, 0x7F};
                case "digit" -> new int[] {'0', '9'};
                case "graph" -> new int[] {'!', '~'};
                case "lower" -> new int[] {'a', 'z'};
                case "print" -> new int[] {' ', '~'};
                case "punct" -> new int[] {'!', '/', ':', '@', '[', '`', '{', '~'};
                case "space" -> new int[] {'\t', '\r', ' ', ' '};
                case "upper" -> new int[] {'A', 'Z'};
                case "word" -> new int[] {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'};
                case "xdigit" -> new int[] {'0', '9', 'A', 'F', 'a', 'f'};
                default -> null;
            };
            return r == null ? null : CodePointSet.fromRanges(r);
        }
    }
}
