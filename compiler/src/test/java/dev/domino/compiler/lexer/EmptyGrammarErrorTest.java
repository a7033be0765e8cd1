package dev.domino.compiler.lexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import org.junit.jupiter.api.Test;

/** A grammar whose language is empty names the rule that can never finish, at its line and column. */
class EmptyGrammarErrorTest {

    private static GrammarException error(Grammar g) {
        Throwable t = catchThrowable(() -> TerminalDerivation.derive(g));
        assertThat(t).isInstanceOf(GrammarException.class);
        assertThat(t.getMessage()).contains(EmptyGrammarError.PREFIX).doesNotContain("\n");
        return (GrammarException) t;
    }

    @Test
    void gbnfRecursionWithoutBaseCase() {
        GrammarException e = error(GbnfParser.parse("root ::= \"a\" b\nb ::= \"b\" b"));
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.getMessage()).contains("rule 'b' can never finish (needed by root)").contains("needs itself again at line 2, column 11");
    }

    @Test
    void gbnfEveryAlternativeEmpty() {
        GrammarException e = error(GbnfParser.parse("root ::= x\nx ::= \"a\" y\ny ::= \"b\" z | \"d\" z\nz ::= \"x\" y"));
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.getMessage()).contains("rule 'y' can never finish (needed by root -> x)").contains("none of the alternatives");
    }

    @Test
    void gbnfEmptyCharacterClass() {
        GrammarException e = error(GbnfParser.parse("root ::= \"a\" b\n\nb ::= [^\\x00-\\U0010FFFF]"));
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.getMessage()).contains("rule 'b' can never finish").contains("matches nothing");
    }

    @Test
    void larkRuleAndTerminal() {
        GrammarException e = error(LarkParser.parse("start: \"a\" b\nb: \"b\" b"));
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.getMessage()).contains("rule 'b' can never finish (needed by start)");
        e = error(LarkParser.parse("start: \"a\" item\nitem: B\nB: /[^\\x00-\\U0010FFFF]/"));
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.getMessage()).contains("rule 'B' can never finish (needed by start -> item)");
    }

    @Test
    void startItself() {
        GrammarException e = error(GbnfParser.parse("root ::= \"a\" root"));
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.getMessage()).contains("rule 'root' can never finish: it needs itself again at line 1, column 14");
    }

    @Test
    void aRuleThatRecursesWithoutEndBesideAProductiveAlternative() {
        // the language is "a", but c can never finish: a mistake named at its line and column
        for (Grammar g : java.util.List.of(GbnfParser.parse("root ::= \"a\" | c\nc ::= \"b\" c"), LarkParser.parse("start: \"a\" | c\nc: \"b\" c"))) {
            Throwable t = catchThrowable(() -> TerminalDerivation.derive(g));
            assertThat(t).isInstanceOf(GrammarException.class);
            GrammarException e = (GrammarException) t;
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.getMessage()).doesNotContain(EmptyGrammarError.PREFIX).contains("rule 'c' can never finish (needed by ")
                .contains("needs itself again at line 2");
        }
        Throwable t = catchThrowable(() -> TerminalDerivation.derive(GbnfParser.parse("root ::= \"a\" | c\nc ::= \"b\" c | \"d\" c")));
        assertThat(t).hasMessageContaining("line 2, column 1: rule 'c' can never finish (needed by root): none of the alternatives");
    }

    @Test
    void anEmptyPartWrittenOnPurposeIsDropped() {
        java.util.Map<String, dev.domino.compiler.ir.Expr> rules = new java.util.LinkedHashMap<>();
        rules.put("root", new dev.domino.compiler.ir.Expr.Alt(java.util.List.of(new dev.domino.compiler.ir.Expr.Literal("a"),
            new dev.domino.compiler.ir.Expr.Ref("x", 0, 0))));
        rules.put("x", new dev.domino.compiler.ir.Expr.Seq(java.util.List.of(new dev.domino.compiler.ir.Expr.Literal("b"),
            new dev.domino.compiler.ir.Expr.Ref("none", 0, 0))));
        rules.put("none", dev.domino.compiler.ir.Expr.NOTHING);
        assertThat(TerminalDerivation.derive(Grammar.of("root", rules)).terminals()).isNotEmpty();
        TerminalDerivation.derive(GbnfParser.parse("root ::= \"a\" | b\nb ::= \"b\" [^\\x00-\\U0010FFFF]"));
    }
}
