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
}
