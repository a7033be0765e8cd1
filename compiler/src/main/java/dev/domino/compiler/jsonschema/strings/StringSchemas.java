package dev.domino.compiler.jsonschema.strings;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.KeywordValues;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.algebra.CodePointDfa;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code string}: characters (every JSON escaping) repeated {@code minLength..maxLength} times, or the
 * language of {@code pattern} (ECMA-262 search semantics, {@link RegexParser}) or {@code format}
 * ({@link Formats}) restricted to the length bounds where that can be done exactly (structurally by
 * {@link ExprLanguage#withLength}, else by unrolling derivatives, {@link LengthBounds}, while the result stays
 * small, else as a counted terminal over the pattern's automaton, {@link Expr.Units}), mapped to JSON string
 * content by {@link JsonStrings}. A pattern and a format together are the
 * intersection of their automata ({@link CodePointDfa}). Formats that accept every string
 * (OpenAPI's {@code binary}, {@code byte}, {@code password}) constrain nothing.
 */
public final class StringSchemas {
    private final SchemaCompiler sc;

    public StringSchemas(SchemaCompiler sc) { this.sc = sc; }

    public Expr stringExpr(ObjectNode n, String ptr) {
        int minL = KeywordValues.countOr(n, "minLength", 0, ptr);
        int maxL = KeywordValues.countOr(n, "maxLength", Expr.Repeat.UNBOUNDED, ptr);
        List<Expr> constraints = new ArrayList<>();
        List<String> kws = new ArrayList<>();
        if (n.has("pattern")) {
            try {
                constraints.add(RegexParser.parseSearch(n.get("pattern").asText(), RegexParser.Flavor.ECMA).expr());
                kws.add("pattern");
            } catch (GrammarException e) {
                sc.unsupported(ptr, "pattern", e.getMessage());
            }
        }
        if (n.has("format") && !Formats.isAnyString(n.get("format").asText())) {
            Expr f = Formats.format(n.get("format").asText());
            if (f == null) sc.unsupported(ptr, "format", Formats.refusal(n.get("format").asText()));
            else { constraints.add(f); kws.add("format"); }
            int formatMax = Formats.maxLength(n.get("format").asText());
            if (f != null && formatMax >= 0 && (maxL == Expr.Repeat.UNBOUNDED || maxL > formatMax)) maxL = formatMax;
        }
        if (maxL != Expr.Repeat.UNBOUNDED && maxL < minL) return Expr.NOTHING;
        Expr content;
        if (constraints.isEmpty()) {
            content = new Expr.Repeat(JsonSyntax.ANY_CHAR, minL, maxL);
        } else {
            Expr c = constraints.get(0);
            if (constraints.size() > 1) {
                // pattern and format: one language, the product of their automata (an IR leaf)
                try {
                    c = CodePointDfa.of(c).intersect(constraints.get(1)).toLeaf();
                } catch (CodePointDfa.TooComplex e) {
                    sc.unsupported(ptr, "pattern", "combined with 'format': " + e.getMessage());
                    c = constraints.get(1); // only with --ignore-keyword pattern: the format alone
                }
                if (sc.syn.isNothing(c)) return Expr.NOTHING;
            }
            int lo = ExprLanguage.minLen(c), hi = ExprLanguage.maxLen(c);
            Expr counted = null;
            if (lo < minL || (maxL != Expr.Repeat.UNBOUNDED && hi > maxL)) {
                Expr restricted = ExprLanguage.withLength(c, minL, maxL);
                if (restricted == null) {
                    restricted = LengthBounds.restrict(c, minL, maxL);
                    // unrolled into many tails: counted instead, when the counter can hold it (see countedFits)
                    if (restricted != null && variableRepeats(restricted, new java.util.HashSet<>()) > MAX_UNROLLED_TAILS
                            && countedFits(c, hi, maxL)) restricted = null;
                }
                if (restricted != null && holdsInnerLongRepeat(restricted) && countedFits(c, hi, maxL)) restricted = null;
                if (restricted != null) c = restricted;
                else if (maxL != Expr.Repeat.UNBOUNDED && (counted = counted(c, minL, maxL, ptr, kws.get(0))) != null) c = null;
                else {
                    if (lo < minL) sc.unsupported(ptr, "minLength", "combined with '" + kws.get(0) + "'");
                    if (maxL != Expr.Repeat.UNBOUNDED && hi > maxL) sc.unsupported(ptr, "maxLength", "combined with '" + kws.get(0) + "'");
                }
            }
            content = c == null ? counted : InnerCounts.encode(c, "a repeat in '" + kws.get(0) + "' at " + SchemaCompiler.showPointer(ptr));
        }
        return JsonSyntax.seq(Expr.literal("\""), content, Expr.literal("\""));
    }

    /**
     * Distinct variable-length repeats above which an unrolled pattern is counted instead. Unrolling a loop
     * under a {@code maxLength} gives one branch per length, each ending in its own {@code .{i,j}} tail, and
     * each tail became a terminal of its own whose trees cross (many tokens checked byte by byte at run
     * time). Where unrolling stays small ({@code "[0-9]{10}"} with length 10 is just ten digits) it is
     * kept: counting those is slower (docs/performance.md).
     */
    static final int MAX_UNROLLED_TAILS = 4;

    /** Counts from this up make a repeat too long to unroll into one terminal: it becomes a counted terminal of its own. */
    static final int LONG_REPEAT = 16;

    /**
     * Whether e holds a long variable repeat beside other parts ({@code [\w-][\w/-]{0,253}[\w-]}, a slug
     * under maxLength 255). The repeat would be a counted terminal of its own, between terminals that read
     * the same characters, so a token inside the string splits there in many ways and most tokens of the
     * value's trees are checked byte by byte at every mask. The pattern counted as one terminal has no
     * such boundary.
     */
    private static boolean holdsInnerLongRepeat(Expr e) {
        return !(e instanceof Expr.Repeat) && longRepeatInside(e);
    }

    private static boolean longRepeatInside(Expr e) {
        if (e instanceof Expr.Repeat r) {
            return (r.min() != r.max() && (r.max() == Expr.Repeat.UNBOUNDED || r.max() >= LONG_REPEAT)) || longRepeatInside(r.body());
        }
        if (e instanceof Expr.Seq sq) for (Expr x : sq.items()) if (longRepeatInside(x)) return true;
        if (e instanceof Expr.Alt a) for (Expr x : a.options()) if (longRepeatInside(x)) return true;
        return false;
    }

    /** Distinct repeats of e whose count is not fixed. */
    private static int variableRepeats(Expr e, java.util.Set<Expr> seen) {
        if (e instanceof Expr.Repeat r && r.min() != r.max() && seen.add(r)) variableRepeats(r.body(), seen);
        else if (e instanceof Expr.Repeat r) variableRepeats(r.body(), seen);
        else if (e instanceof Expr.Seq sq) for (Expr x : sq.items()) variableRepeats(x, seen);
        else if (e instanceof Expr.Alt a) for (Expr x : a.options()) variableRepeats(x, seen);
        return seen.size();
    }

    /**
     * Whether an infinite pattern under a {@code maxLength} can be one counted terminal: estimated against
     * the counter's state limit with 16 byte states per code point state (UTF-8 and JSON escapes).
     */
    private static boolean countedFits(Expr c, int hi, int maxL) {
        if (maxL == Expr.Repeat.UNBOUNDED || maxL < 1 || hi != ExprLanguage.INF) return false;
        int states;
        try {
            states = CodePointDfa.of(c).edges.size();
        } catch (CodePointDfa.TooComplex e) {
            return false;
        }
        return 16L * states * (maxL + 1L) <= dev.domino.runtime.internal.scan.CountedLoop.MAX_STATES
                && 16L * states <= dev.domino.compiler.lexer.TerminalDerivation.UNITS_PRODUCT_STATES;
    }

    /**
     * The pattern c under maxLength and minLength as JSON string content counted in characters
     * ({@link Expr.Units}: one counted terminal, its size independent of maxLength).
     */
    private static Expr counted(Expr c, int minL, int maxL, String ptr, String kw) {
        if (maxL < 1) return null;
        String origin = "'maxLength' " + maxL + " at " + SchemaCompiler.showPointer(ptr) + " with '" + kw + "'";
        return new Expr.Units(JsonStrings.encodeRegex(c, true), JsonSyntax.ANY_CHAR, minL, maxL, origin);
    }
}
