package dev.domino.compiler.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Expr.Alt;
import dev.domino.compiler.ir.Expr.Chars;
import dev.domino.compiler.ir.Expr.Literal;
import dev.domino.compiler.ir.Expr.Ref;
import dev.domino.compiler.ir.Expr.Repeat;
import dev.domino.compiler.ir.Expr.Seq;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GbnfParserTest {

    private static Expr root(String src) { return GbnfParser.parse(src).rules().get("root"); }

    private static Chars chars(int lo, int hi) { return new Chars(CodePointSet.range(lo, hi)); }

    // ---- structure -------------------------------------------------------------------------

    @Test
    void literalAndSequence() {
        assertThat(root("root ::= \"ab\" \"c\"")).isEqualTo(new Seq(List.of(new Literal("ab"), new Literal("c"))));
        assertThat(root("root ::= \"\"")).isEqualTo(new Literal(""));
    }

    @Test
    void alternationAndGrouping() {
        Expr e = root("root ::= \"a\" | (\"b\" | \"c\") \"d\"");
        assertThat(e).isEqualTo(new Alt(List.of(
                new Literal("a"),
                new Seq(List.of(new Alt(List.of(new Literal("b"), new Literal("c"))), new Literal("d"))))));
    }

    @Test
    void emptyAlternative() {
        assertThat(root("root ::= | \"x\"")).isEqualTo(new Alt(List.of(new Seq(List.of()), new Literal("x"))));
    }

    @Test
    void repetitions() {
        Literal a = new Literal("a");
        assertThat(root("root ::= \"a\"*")).isEqualTo(new Repeat(a, 0, Repeat.UNBOUNDED));
        assertThat(root("root ::= \"a\"+")).isEqualTo(new Repeat(a, 1, Repeat.UNBOUNDED));
        assertThat(root("root ::= \"a\"?")).isEqualTo(new Repeat(a, 0, 1));
        assertThat(root("root ::= \"a\"{3}")).isEqualTo(new Repeat(a, 3, 3));
        assertThat(root("root ::= \"a\"{2,}")).isEqualTo(new Repeat(a, 2, Repeat.UNBOUNDED));
        assertThat(root("root ::= \"a\"{2,5}")).isEqualTo(new Repeat(a, 2, 5));
        assertThat(root("root ::= \"a\"{ 2 , 5 }")).isEqualTo(new Repeat(a, 2, 5));
        assertThat(root("root ::= \"a\"{,4}")).isEqualTo(new Repeat(a, 0, 4));
        // postfix operators stack, applying to the previous item only
        assertThat(root("root ::= \"b\" \"a\"+?")).isEqualTo(new Seq(List.of(new Literal("b"),
                new Repeat(new Repeat(a, 1, Repeat.UNBOUNDED), 0, 1))));
    }

    @Test
    void stringEscapes() {
        assertThat(root("root ::= \"\\x41\\u00e9\\U0001F600\\n\\r\\t\\\\\\\"\\[\\]\\-\""))
                .isEqualTo(new Literal("A\u00e9\uD83D\uDE00\n\r\t\\\"[]-"));
        assertThat(root("root ::= \"日本\"")).isEqualTo(new Literal("日本"));
    }

    @Test
    void charClasses() {
        assertThat(root("root ::= [a-z]")).isEqualTo(chars('a', 'z'));
        assertThat(root("root ::= [a-cx]")).isEqualTo(new Chars(CodePointSet.range('a', 'c').union(CodePointSet.of('x'))));
        assertThat(root("root ::= [a-]")).isEqualTo(new Chars(CodePointSet.of('a').union(CodePointSet.of('-'))));
        assertThat(root("root ::= [-a]")).isEqualTo(new Chars(CodePointSet.of('a').union(CodePointSet.of('-'))));
        assertThat(root("root ::= [\\]\\[\\\\]")).isEqualTo(new Chars(
                CodePointSet.of(']').union(CodePointSet.of('[')).union(CodePointSet.of('\\'))));
        assertThat(root("root ::= [\\x00-\\x1F]")).isEqualTo(chars(0, 0x1F));
        assertThat(root("root ::= [^\"\\\\]")).isEqualTo(new Chars(
                CodePointSet.of('"').union(CodePointSet.of('\\')).complement()));
        assertThat(root("root ::= [ぁ-ゟ]")).isEqualTo(chars(0x3041, 0x309F));
        assertThat(root("root ::= .")).isEqualTo(new Chars(CodePointSet.ANY));
        // a '^' that is not first is literal
        assertThat(root("root ::= [a^]")).isEqualTo(new Chars(CodePointSet.of('a').union(CodePointSet.of('^'))));
    }

    @Test
    void referencesCarryPositions() {
        Grammar g = GbnfParser.parse("root ::= item\n  item-2\nitem ::= \"x\"\nitem-2 ::= \"y\"");
        assertThat(g.rules().get("root")).isEqualTo(new Seq(List.of(new Ref("item", 1, 10), new Ref("item-2", 2, 3))));
        assertThat(g.start()).isEqualTo("root");
        assertThat(g.rules().keySet()).containsExactly("root", "item", "item-2");
        assertThat(g.rulePositions().get("root")).containsExactly(1, 1);
        assertThat(g.rulePositions().get("item")).containsExactly(3, 1);
        assertThat(g.rulePositions().get("item-2")).containsExactly(4, 1);
        assertThat(g.lexicalRules()).isEmpty();
        assertThat(g.ignored()).isEmpty();
    }

    @Test
    void namesWithDashesUnderscoresDigits() {
        Grammar g = GbnfParser.parse("root ::= a_b-1 2x\na_b-1 ::= \"a\"\n2x ::= \"b\"");
        assertThat(g.rules()).containsKeys("a_b-1", "2x");
    }

    @Test
    void commentsAndMultiLineRules() {
        String src = "# leading comment\n"
                + "root ::= (\n"
                + "    # inside parens\n"
                + "    \"a\"   # trailing\n"
                + "\n"
                + "    \"b\"\n"
                + ")\n"
                + "  | \"c\"\n"                 // continuation with a leading '|'
                + "  \"d\"\n"                   // continuation without any operator
                + "other ::=\n"
                + "  \"e\" |\n"
                + "  \"f\"\n";
        Grammar g = GbnfParser.parse(src);
        assertThat(g.rules().get("root")).isEqualTo(new Alt(List.of(
                new Seq(List.of(new Literal("a"), new Literal("b"))),
                new Seq(List.of(new Literal("c"), new Literal("d"))))));
        assertThat(g.rules().get("other")).isEqualTo(new Alt(List.of(new Literal("e"), new Literal("f"))));
    }

    @Test
    void windowsLineEndings() {
        Grammar g = GbnfParser.parse("root ::= a\r\na ::= \"x\"\r\n");
        assertThat(g.rules().get("a")).isEqualTo(new Literal("x"));
    }

    @Test
    void byteOrderMarkIsIgnored() {
        assertError("\uFEFFroot ::= x", "undefined rule 'x'", 1, 10);
    }

    @Test
    void ruleWithEmptyBodyBeforeNextRule() {
        Grammar g = GbnfParser.parse("root ::=\nx ::= \"a\"");
        assertThat(g.rules().get("root")).isEqualTo(new Seq(List.of()));
    }

    @Test
    void redefinitionReplacesLikeLlamaCpp() {
        Grammar g = GbnfParser.parse("root ::= a\na ::= \"x\"\na ::= \"y\"");
        assertThat(g.rules().get("a")).isEqualTo(new Literal("y"));
        assertThat(g.rules().keySet()).containsExactly("root", "a");
        assertThat(g.rulePositions().get("a")).containsExactly(3, 1);
    }

    @Test
    void readmeExampleGrammar() {
        String src = "char ::= [^\"\\\\\\x7F\\x00-\\x1F] | [\\\\] ([\"\\\\bfnrt] | \"u\" [0-9a-fA-F]{4})\n"
                + "item ::= \"{\" space item-name-kv \",\" space item-age-kv \"}\" space\n"
                + "item-age ::= ([0-9] | ([1-8] [0-9] | [9] [0-9]) | \"1\" ([0-4] [0-9] | [5] \"0\")) space\n"
                + "item-age-kv ::= \"\\\"age\\\"\" space \":\" space item-age\n"
                + "item-name ::= \"\\\"\" char{1,100} \"\\\"\" space\n"
                + "item-name-kv ::= \"\\\"name\\\"\" space \":\" space item-name\n"
                + "root ::= \"[\" space item (\",\" space item){9,99} \"]\" space\n"
                + "space ::= | \" \" | \"\\n\" [ \\t]{0,20}\n";
        Grammar g = GbnfParser.parse(src);
        assertThat(g.rules()).hasSize(8);
        assertThat(g.rules().get("item-age-kv")).isEqualTo(new Seq(List.of(new Literal("\"age\""),
                new Ref("space", 4, 27), new Literal(":"), new Ref("space", 4, 37), new Ref("item-age", 4, 43))));
    }

    // ---- llama.cpp's own grammars ------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"arithmetic", "c", "chess", "english", "japanese", "json", "json_arr", "list"})
    void llamaCppGrammarsParse(String name) throws IOException {
        Grammar g = GbnfParser.parse(fixture(name));
        assertThat(g.start()).isEqualTo("root");
        assertThat(g.rules()).containsKey("root");
    }

    @Test
    void englishPunctuationClass() throws IOException {
        Expr p = GbnfParser.parse(fixture("english")).rules().get("punctuation");
        CodePointSet set = ((Chars) p).set();
        for (char c : "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".toCharArray()) assertThat(set.contains(c)).as("%s", c).isTrue();
        assertThat(set.size()).isEqualTo(32);
    }

    @Test
    void listGrammarNegatedClass() throws IOException {
        Expr item = GbnfParser.parse(fixture("list")).rules().get("item");
        Chars cls = (Chars) ((Repeat) ((Seq) item).items().get(1)).body();
        assertThat(cls.set().contains('a')).isTrue();
        assertThat(cls.set().contains('\n')).isFalse();
        assertThat(cls.set().contains(0x2028)).isFalse();
        assertThat(cls.set().contains(0x10FFFF)).isTrue();
    }

    private static String fixture(String name) throws IOException {
        try (InputStream s = GbnfParserTest.class.getResourceAsStream("/gbnf/" + name + ".gbnf")) {
            assertThat(s).as("fixture %s", name).isNotNull();
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    // ---- errors --------------------------------------------------------------------------------

    private static void assertError(String src, String messagePart, int line, int column) {
        assertThatThrownBy(() -> GbnfParser.parse(src))
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining(messagePart)
                .hasMessageContaining("line " + line + ", column " + column)
                .satisfies(e -> {
                    GrammarException ge = (GrammarException) e;
                    assertThat(ge.line()).isEqualTo(line);
                    assertThat(ge.column()).isEqualTo(column);
                });
    }

    @Test
    void unknownRule() {
        assertError("root ::= a b\na ::= \"x\"", "undefined rule 'b'", 1, 12);
    }

    @Test
    void badEscape() {
        assertError("root ::= \"a\\qb\"", "unknown escape sequence '\\q'", 1, 12);
        assertError("root ::= [\\d]", "unknown escape", 1, 11);
        assertError("root ::= \"\\x4\"", "expected 2 hex digits", 1, 11);
        assertError("root ::= \"\\u12G4\"", "expected 4 hex digits", 1, 11);
        assertError("root ::= \"\\UFFFFFFFF\"", "out of range", 1, 11);
    }

    @Test
    void unterminatedString() {
        assertError("root ::= \"abc\n", "unterminated string literal", 1, 10);
    }

    @Test
    void unterminatedClass() {
        assertError("root ::= \"x\"\n  [a-z", "unterminated character class", 2, 3);
        assertError("root ::= [a-", "unterminated character class", 1, 10);
    }

    @Test
    void reversedRange() {
        assertError("root ::= [z-a]", "invalid character range", 1, 11);
    }

    @Test
    void missingDefinitionOperator() {
        assertError("root \"a\"", "expected '::='", 1, 6);
        assertError("root ::= \"a\"\nx := \"b\"", "expected '::='", 2, 3);
    }

    @Test
    void missingRuleName() {
        assertError("::= \"a\"", "expected a rule name", 1, 1);
    }

    @Test
    void undefinedRoot() {
        assertError("start ::= \"a\"", "start rule 'root'", 1, 1);
    }

    @Test
    void emptyInput() {
        assertError("", "empty grammar", 1, 1);
        assertError("  # only a comment\n\n", "empty grammar", 1, 1);
    }

    @Test
    void unbalancedParentheses() {
        assertError("root ::= (\"a\" \"b\"", "unclosed '('", 1, 10);
        assertError("root ::= \"a\")", "unexpected ')'", 1, 13);
    }

    @Test
    void repetitionErrors() {
        assertError("root ::= *", "expected an item before '*'", 1, 10);
        assertError("root ::= \"a\" | +\"b\"", "expected an item before '+'", 1, 16);
        assertError("root ::= \"a\"{x}", "expected a number", 1, 14);
        assertError("root ::= \"a\"{2,1}", "less than minimum", 1, 13);
        assertError("root ::= \"a\"{2", "expected ',' or '}'", 1, 15);
        assertError("root ::= \"a\"{,}", "expected a number", 1, 13);
    }

    @Test
    void tokenReferences() {
        Expr root = GbnfParser.parse("root ::= <think> !<[1-3,7]> <|eot_id|>").rules().get("root");
        assertThat(root).isInstanceOf(Expr.Seq.class);
        List<Expr> items = ((Expr.Seq) root).items();
        assertThat(items).allMatch(e -> e instanceof Expr.TokenRef);
        assertThat(((Expr.TokenRef) items.get(0)).text()).isEqualTo("<think>");
        assertThat(((Expr.TokenRef) items.get(1)).negated()).isTrue();
        assertThat(((Expr.TokenRef) items.get(1)).display()).isEqualTo("!<[1-3,7]>");
        assertError("root ::= <[12 \"a\"", "expected ']>'", 1, 14);
        assertError("root ::= <think \"a\"", "unclosed token reference", 1, 10);
    }

    @Test
    void columnsCountCodePoints() {
        assertError("root ::= \"日本\" nope", "undefined rule 'nope'", 1, 15);
    }
}
