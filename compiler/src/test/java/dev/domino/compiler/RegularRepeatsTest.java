package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regular stays regular: nested counted repeats of a reference-free body are one terminal (or one
 * counted terminal), never nested repeats run by the parser; masks against the byte-level oracle.
 */
class RegularRepeatsTest {
    @org.junit.jupiter.api.BeforeAll static void load() { OracleMaskTest.load(); }

    private static LexedGrammar lexed(Grammar g) { return TerminalDerivation.derive(g); }

    /**
     * llama.cpp accepts it; its language is [^x]*: one terminal, no counter, the very automaton of
     * [^x]* (minimized automata are equal exactly when the languages are). The oracle, which unrolls
     * the repeats, duels the same nesting with small counts.
     */
    @Test void nestedRepeatsOfAStarAreTheStar() {
        LexedGrammar l = lexed(GbnfParser.parse("root ::= ((([^x]*){0,99}){0,99}){0,99}\n"));
        assertThat(l.terminals()).hasSize(1);
        assertThat(l.terminals().get(0).counted()).isNull();
        assertThat(l.terminals().get(0).dfa()).isEqualTo(lexed(GbnfParser.parse("root ::= [^x]*\n")).terminals().get(0).dfa());
        OracleMaskTest.check(GbnfParser.parse("root ::= (([^x]*){0,2}){1,2}\n"), 3, 81);
    }

    /** The same nesting written in Lark (a rule, a regex lexeme, a terminal) and as a regex field: the same one terminal. */
    @Test void nestedRepeatsOfAStarInEveryFrontEnd() {
        var star = lexed(GbnfParser.parse("root ::= [^x]*\n")).terminals().get(0).dfa();
        for (String lark : java.util.List.of("start: (((/[^x]/*)~0..99)~0..99)~0..99\n", "start: /((([^x]*){0,99}){0,99}){0,99}/\n",
                "start: X\nX: ((/[^x]*/)~0..99)~0..99\n")) {
            LexedGrammar l = lexed(dev.domino.compiler.frontend.LarkParser.parse(lark));
            assertThat(l.terminals()).as(lark).hasSize(1);
            assertThat(l.terminals().get(0).dfa()).as(lark).isEqualTo(star);
        }
        LexedGrammar regex = lexed(GrammarSources.regexGrammar("((([^x]*){0,99}){0,99}){0,99}"));
        assertThat(regex.terminals()).hasSize(1);
        assertThat(regex.terminals().get(0).dfa()).isEqualTo(star);
    }

    /** (B{0,99}){0,99} is B{0,9801}: one counted terminal, whatever the nesting. */
    @Test void nestedBoundedRepeatsMultiply() {
        LexedGrammar l = lexed(GbnfParser.parse("root ::= (((\"a\" | \"bc\"){0,99}){0,99}){0,99} \"x\" ([0-9]{1,3}){2,5} \";\"\n"));
        assertThat(l.grammar().productionCount()).as("parser productions").isLessThan(40);
        OracleMaskTest.check(GbnfParser.parse("root ::= ((\"a\" | \"bc\"){0,3}){0,2} \"x\" ([0-9]{1,3}){2,3} \";\"\n"), 4, 82);
    }

    /** A body closed under concatenation inside a sequence, with references around it. */
    @Test void closedBodiesInsideParserRules() {
        Grammar g = GbnfParser.parse("""
                root ::= item ("," item)*
                item ::= "[" (([a-z]*){0,2}){0,2} "|" (([a-z]+ ";"){0,2}){1,2} "]" | "(" root ")"
                """);
        OracleMaskTest.check(g, 4, 83);
    }

    /**
     * A body that splits several ways ("12" is one copy of [0-9]+ or two) under nested counts: one
     * counted terminal B{1,300} over the least-count loop with final weights (AmbiguousCounts), not
     * ambiguous counted rules in the parser nor the exact automaton of every count; masks against the oracle.
     */
    @Test void ambiguousBodiesUnderNestedCountsAreOneCountedTerminal() {
        Grammar g = GbnfParser.parse("root ::= ((\"a\" | \"bc\" | [0-9]+){0,20}){0,15} \";\"\n");
        LexedGrammar l = lexed(g);
        assertThat(l.terminals()).hasSize(2);
        var counted = l.terminals().stream().filter(t -> t.counted() != null).findFirst().orElseThrow().counted();
        assertThat(counted.max()).isEqualTo(300);
        assertThat(counted.weights()).isNotNull();
        assertThat(l.terminals().stream().filter(t -> t.counted() != null).findFirst().orElseThrow().dfa().stateCount()).isLessThanOrEqualTo(6);
        assertThat(l.grammar().productionCount()).isLessThan(6);
        OracleMaskTest.check(g, 4, 84);
        // a count with a minimum (sets of counts, not the least) beside one without
        OracleMaskTest.check(GbnfParser.parse("root ::= (\"a\" | \"aaa\" | \"b\"){12,30} \"x\"? ([a-c]{1,3} | \"-\"){0,400}\n"), 4, 85);
    }
}
