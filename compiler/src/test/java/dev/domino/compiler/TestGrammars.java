package dev.domino.compiler;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.domino.compiler.ir.Expr.*;

/** Grammars built directly in IR, so core tests do not depend on a front-end. */
final class TestGrammars {
    private TestGrammars() {}

    /** JSON as llama.cpp's json.gbnf writes it (ws as right-linear recursion). */
    static Grammar json() {
        Map<String, Expr> r = new LinkedHashMap<>();
        Expr ws = ref("ws");
        r.put("root", ref("value"));
        r.put("value", alt(ref("object"), ref("array"), ref("string"), ref("number"),
                seq(alt(literal("true"), literal("false"), literal("null")), ws)));
        r.put("object", seq(literal("{"), ws, optional(seq(ref("string"), literal(":"), ws, ref("value"),
                star(seq(literal(","), ws, ref("string"), literal(":"), ws, ref("value"))))), literal("}"), ws));
        r.put("array", seq(literal("["), ws, optional(seq(ref("value"), star(seq(literal(","), ws, ref("value"))))),
                literal("]"), ws));
        CodePointSet plain = CodePointSet.fromRanges(new int[] {'"', '"', '\\', '\\', 0, 0x1F, 0x7F, 0x7F}).complement();
        r.put("string", seq(literal("\""), star(alt(chars(plain),
                seq(literal("\\"), alt(chars(CodePointSet.fromRanges(new int[] {'"', '"', '\\', '\\', '/', '/', 'b', 'b', 'f', 'f', 'n', 'n', 'r', 'r', 't', 't'})),
                        seq(literal("u"), new Repeat(chars(hex()), 4, 4)))))), literal("\""), ws));
        r.put("number", seq(optional(literal("-")), alt(literal("0"), seq(chars(CodePointSet.range('1', '9')), star(chars(digit())))),
                optional(seq(literal("."), plus(chars(digit())))),
                optional(seq(chars(CodePointSet.fromRanges(new int[] {'e', 'e', 'E', 'E'})), optional(chars(CodePointSet.fromRanges(new int[] {'-', '-', '+', '+'}))), plus(chars(digit())))),
                ws));
        r.put("ws", optional(seq(chars(CodePointSet.fromRanges(new int[] {' ', ' ', '\t', '\t', '\n', '\n'})), ref("ws"))));
        return Grammar.of("root", r);
    }

    /** Left-recursive, ambiguous arithmetic over words and numbers. */
    static Grammar ambiguousExpr() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", ref("e"));
        r.put("e", alt(seq(ref("e"), literal("+"), ref("e")), seq(ref("e"), literal("*"), ref("e")),
                seq(literal("("), ref("e"), literal(")")), ref("atom")));
        r.put("atom", alt(plus(chars(CodePointSet.range('a', 'z'))), plus(chars(digit()))));
        return Grammar.of("root", r);
    }

    /** Words separated by nothing: every split of a letter run is a valid lexing. */
    static Grammar wordSoup() {
        Map<String, Expr> r = new LinkedHashMap<>();
        r.put("root", ref("words"));
        r.put("words", alt(ref("word"), seq(ref("words"), ref("word"))));
        r.put("word", alt(literal("if"), plus(chars(CodePointSet.range('a', 'z'))), literal(" ")));
        return Grammar.of("root", r);
    }

    static CodePointSet digit() { return CodePointSet.range('0', '9'); }

    static CodePointSet hex() { return CodePointSet.fromRanges(new int[] {'0', '9', 'a', 'f', 'A', 'F'}); }
}
