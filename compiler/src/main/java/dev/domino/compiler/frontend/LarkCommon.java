package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The terminals of Lark's {@code common.lark}, written directly as IR so that
 * {@code %import common.X} works without a regex parser. Each definition mirrors the Lark source
 * (quoted in the comments); the terminals a definition uses are inlined, so every entry is
 * self-contained and importing one name never drags helper names into the grammar.
 */
final class LarkCommon {
    private LarkCommon() {}

    static final Map<String, Expr> TERMINALS = build();

    private static Map<String, Expr> build() {
        Map<String, Expr> t = new LinkedHashMap<>();
        CodePointSet notNewline = CodePointSet.of('\n').complement(); // Python '.' without re.S

        // DIGIT: "0".."9"
        Expr digit = chars(CodePointSet.range('0', '9'));
        // HEXDIGIT: "a".."f"|"A".."F"|DIGIT
        Expr hexdigit = alt(chars(CodePointSet.range('a', 'f')), chars(CodePointSet.range('A', 'F')), digit);
        // INT: DIGIT+
        Expr integer = Expr.plus(digit);
        Expr sign = Expr.optional(alt(lit("+"), lit("-")));     // ["+"|"-"]
        // SIGNED_INT: ["+"|"-"] INT
        Expr signedInt = seq(sign, integer);
        // DECIMAL: INT "." INT? | "." INT
        Expr decimal = alt(seq(integer, lit("."), Expr.optional(integer)), seq(lit("."), integer));
        // _EXP: ("e"|"E") SIGNED_INT
        Expr exp = seq(alt(lit("e"), lit("E")), signedInt);
        // FLOAT: INT _EXP | DECIMAL _EXP?
        Expr flt = alt(seq(integer, exp), seq(decimal, Expr.optional(exp)));
        // SIGNED_FLOAT: ["+"|"-"] FLOAT
        Expr signedFloat = seq(sign, flt);
        // NUMBER: FLOAT | INT
        Expr number = alt(flt, integer);
        // SIGNED_NUMBER: ["+"|"-"] NUMBER
        Expr signedNumber = seq(sign, number);

        // STRING_INNER: ("\\\""|/[^"]/)
        Expr stringInner = alt(lit("\\\""), chars(CodePointSet.of('"').complement()));
        // ESCAPED_STRING: "\"" STRING_INNER* "\""
        Expr escapedString = seq(lit("\""), Expr.star(stringInner), lit("\""));
        // Older common.lark: _STRING_INNER: /.*?/ and
        // _STRING_ESC_INNER: _STRING_INNER /(?<!\\)(\\\\)*?/ — a line not ending in an odd
        // number of backslashes, written without the lookbehind.
        Expr oldStringInner = Expr.star(chars(notNewline));
        Expr oldStringEscInner = seq(
                Expr.optional(seq(Expr.star(chars(notNewline)), chars(notNewline.minus(CodePointSet.of('\\'))))),
                Expr.star(lit("\\\\")));

        // LCASE_LETTER: "a".."z" | "ç" | "ğ" | "ı" | "ö" | "ş" | "ü"
        Expr lcase = alt(chars(CodePointSet.range('a', 'z')),
                lit("\u00e7"), lit("\u011f"), lit("\u0131"), lit("\u00f6"), lit("\u015f"), lit("\u00fc"));
        // UCASE_LETTER: "A".."Z" | "Ç" | "Ğ" | "İ" | "Ö" | "Ş" | "Ü"
        Expr ucase = alt(chars(CodePointSet.range('A', 'Z')),
                lit("\u00c7"), lit("\u011e"), lit("\u0130"), lit("\u00d6"), lit("\u015e"), lit("\u00dc"));
        // LETTER: UCASE_LETTER | LCASE_LETTER
        Expr letter = alt(ucase, lcase);
        // WORD: LETTER+
        Expr word = Expr.plus(letter);
        // CNAME: ("_"|LETTER) ("_"|LETTER|DIGIT)*
        Expr cname = seq(alt(lit("_"), letter), Expr.star(alt(lit("_"), letter, digit)));

        // WS_INLINE: (" "|/\t/)+
        Expr wsInline = Expr.plus(alt(lit(" "), chars(CodePointSet.of('\t'))));
        // WS: /[ \t\f\r\n]/+
        Expr ws = Expr.plus(chars(set(' ', '\t', '\f', '\r', '\n')));
        // CR : /\r/   LF : /\n/   NEWLINE: (CR? LF)+
        Expr cr = chars(CodePointSet.of('\r'));
        Expr lf = chars(CodePointSet.of('\n'));
        Expr newline = Expr.plus(seq(Expr.optional(cr), lf));

        // SH_COMMENT: /#[^\n]*/   CPP_COMMENT: /\/\/[^\n]*/   SQL_COMMENT: /--[^\n]*/
        Expr shComment = seq(lit("#"), Expr.star(chars(notNewline)));
        Expr cppComment = seq(lit("//"), Expr.star(chars(notNewline)));
        Expr sqlComment = seq(lit("--"), Expr.star(chars(notNewline)));
        // C_COMMENT: "/*" /(.|\n)*?/ "*/" — the lazy match stops at the first "*/", i.e.
        // "/*" ([^*] | "*"+ [^*/])* "*"+ "/"
        Expr star = lit("*");
        Expr cComment = seq(lit("/*"),
                Expr.star(alt(chars(CodePointSet.of('*').complement()),
                        seq(Expr.plus(star), chars(set('*', '/').complement())))),
                Expr.plus(star), lit("/"));

        t.put("DIGIT", digit);
        t.put("HEXDIGIT", hexdigit);
        t.put("INT", integer);
        t.put("SIGNED_INT", signedInt);
        t.put("DECIMAL", decimal);
        t.put("_EXP", exp);
        t.put("FLOAT", flt);
        t.put("SIGNED_FLOAT", signedFloat);
        t.put("NUMBER", number);
        t.put("SIGNED_NUMBER", signedNumber);
        t.put("STRING_INNER", stringInner);
        t.put("ESCAPED_STRING", escapedString);
        t.put("_STRING_INNER", oldStringInner);
        t.put("_STRING_ESC_INNER", oldStringEscInner);
        t.put("LCASE_LETTER", lcase);
        t.put("UCASE_LETTER", ucase);
        t.put("LETTER", letter);
        t.put("WORD", word);
        t.put("CNAME", cname);
        t.put("WS_INLINE", wsInline);
        t.put("WS", ws);
        t.put("CR", cr);
        t.put("LF", lf);
        t.put("NEWLINE", newline);
        t.put("SH_COMMENT", shComment);
        t.put("CPP_COMMENT", cppComment);
        t.put("C_COMMENT", cComment);
        t.put("SQL_COMMENT", sqlComment);
        return Map.copyOf(t);
    }

    private static CodePointSet set(int... cps) {
        CodePointSet s = CodePointSet.EMPTY;
        for (int cp : cps) s = s.union(CodePointSet.of(cp));
        return s;
    }

    private static Expr chars(CodePointSet s) { return new Expr.Chars(s); }
    private static Expr lit(String s) { return new Expr.Literal(s); }
    private static Expr seq(Expr... items) { return Expr.seq(items); }
    private static Expr alt(Expr... options) { return Expr.alt(options); }
}
