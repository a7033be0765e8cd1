package dev.domino.compiler.testing;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.domino.compiler.ir.Expr.alt;
import static dev.domino.compiler.ir.Expr.literal;
import static dev.domino.compiler.ir.Expr.optional;
import static dev.domino.compiler.ir.Expr.plus;
import static dev.domino.compiler.ir.Expr.ref;
import static dev.domino.compiler.ir.Expr.seq;
import static dev.domino.compiler.ir.Expr.star;

/** Grammars built directly from the IR, shared by the oracle and sampler tests. */
final class TestGrammars {
    private TestGrammars() {}

    static Expr cs(int... pairs) { return Expr.chars(CodePointSet.fromRanges(pairs)); }
    static Expr ch(char c) { return cs(c, c); }

    static Map<String, Expr> rules(Object... kv) {
        Map<String, Expr> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (Expr) kv[i + 1]);
        return m;
    }

    /** JSON (RFC 8259) in GBNF style, whitespace explicit. */
    static Grammar json() {
        Expr ws = ref("ws");
        Expr digit = cs('0', '9');
        Expr hex = cs('0', '9', 'a', 'f', 'A', 'F');
        return Grammar.of("root", rules(
                "root", seq(ws, ref("value")),
                "value", alt(ref("object"), ref("array"), ref("string"), ref("number"),
                        seq(literal("true"), ws), seq(literal("false"), ws), seq(literal("null"), ws)),
                "object", seq(literal("{"), ws,
                        optional(seq(ref("member"), star(seq(literal(","), ws, ref("member"))))),
                        literal("}"), ws),
                "member", seq(ref("string"), literal(":"), ws, ref("value")),
                "array", seq(literal("["), ws,
                        optional(seq(ref("value"), star(seq(literal(","), ws, ref("value"))))),
                        literal("]"), ws),
                "string", seq(literal("\""), star(ref("char")), literal("\""), ws),
                "char", alt(Expr.chars(CodePointSet.fromRanges(new int[] {0, 0x1F, '"', '"', '\\', '\\'}).complement()),
                        seq(literal("\\"), cs('"', '"', '\\', '\\', '/', '/', 'b', 'b', 'f', 'f', 'n', 'n', 'r', 'r', 't', 't')),
                        seq(literal("\\u"), hex, hex, hex, hex)),
                "number", seq(optional(literal("-")), alt(literal("0"), seq(cs('1', '9'), star(digit))),
                        optional(seq(literal("."), plus(digit))),
                        optional(seq(cs('e', 'e', 'E', 'E'), optional(cs('+', '+', '-', '-')), plus(digit))), ws),
                "ws", star(cs(' ', ' ', '\t', '\t', '\n', '\n', '\r', '\r'))));
    }

    /** Left-recursive arithmetic: expr: expr [+-] term | term; term: term [*\/] factor | factor. */
    static Grammar arithmetic() {
        return Grammar.of("expr", rules(
                "expr", alt(seq(ref("expr"), literal("+"), ref("term")), seq(ref("expr"), literal("-"), ref("term")), ref("term")),
                "term", alt(seq(ref("term"), literal("*"), ref("factor")), seq(ref("term"), literal("/"), ref("factor")), ref("factor")),
                "factor", alt(plus(cs('0', '9')), seq(literal("("), ref("expr"), literal(")")))));
    }

    /** Highly ambiguous, with ε: S -> S S | "a" | ε. Language a*. */
    static Grammar ambiguous() {
        return Grammar.of("S", rules("S", alt(seq(ref("S"), ref("S")), literal("a"), Expr.EMPTY)));
    }

    /**
     * Nullable nonterminals in awkward places (the cases Aycock–Horspool fixes):
     * S -> A S "b" | E E "x" E ; A -> ε ; E -> ε | F ; F -> E | "e". Language: (e*) x (e*) b* roughly:
     * exactly e{0,2} x e? b*, since each E is ε or one "e".
     */
    static Grammar epsilon() {
        return Grammar.of("S", rules(
                "S", alt(seq(ref("A"), ref("S"), literal("b")), seq(ref("E"), ref("E"), literal("x"), ref("E"))),
                "A", Expr.EMPTY,
                "E", alt(Expr.EMPTY, ref("F")),
                "F", alt(ref("E"), literal("e"))));
    }

    /** Multi-byte classes: word: [a-zé€中😀]+ ("-" [α-ω]{1,3})? */
    static Grammar multiByte() {
        return Grammar.of("word", rules(
                "word", seq(plus(cs('a', 'z', 0xE9, 0xE9, 0x20AC, 0x20AC, 0x4E2D, 0x4E2D, 0x1F600, 0x1F600)),
                        optional(seq(literal("-"), new Expr.Repeat(cs(0x3B1, 0x3C9), 1, 3))))));
    }

    /** Any code point, any number of times: exercises every UTF-8 shape. */
    static Grammar anyText() {
        return Grammar.of("t", rules("t", star(Expr.chars(CodePointSet.ANY))));
    }

    /**
     * Lark style: start: "[" [item ("," item)*] "]" | "<" "true" ">" ; item: NUMBER | WORD | pair ;
     * pair: "(" NUMBER NUMBER ")" ; NUMBER: /[0-9]+/ ; WORD: /[a-z]+/ ("_" /[a-z]+/)? ;
     * %ignore WS ; %ignore COMMENT ; WS: /[ \t\n]+/ ; COMMENT: "#" /[a-z ]* / "\n".
     */
    static Grammar lark() {
        Map<String, Expr> r = rules(
                "start", alt(seq(literal("["), optional(seq(ref("item"), star(seq(literal(","), ref("item"))))), literal("]")),
                        seq(literal("<"), literal("true"), literal(">"))),
                "item", alt(ref("NUMBER"), ref("WORD"), ref("pair")),
                "pair", seq(literal("("), ref("NUMBER"), ref("NUMBER"), literal(")")),
                "NUMBER", plus(cs('0', '9')),
                "WORD", seq(ref("LOWER"), optional(seq(literal("_"), ref("LOWER")))),
                "LOWER", plus(cs('a', 'z')),
                "WS", plus(cs(' ', ' ', '\t', '\t', '\n', '\n')),
                "COMMENT", seq(literal("#"), star(cs('a', 'z', ' ', ' ')), literal("\n")));
        return new Grammar("start", r, Map.of(), Set.of("NUMBER", "WORD", "LOWER", "WS", "COMMENT"),
                List.of(ref("WS"), ref("COMMENT")));
    }
}
