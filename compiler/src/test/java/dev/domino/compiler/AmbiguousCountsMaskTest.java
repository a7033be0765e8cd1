package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.AmbiguousCounts;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.scan.Terminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counted repeats of bodies that split several ways ({@code ("a" | "bc" | [0-9]+){0,300}}) as one
 * counted terminal with final weights (see AmbiguousCounts, CountedLoop): masks of eager trees,
 * lazy trees and the tree-free walk against each other and against the byte-level oracle at random
 * prefixes, on the issue's shapes and on random nested repeats with small counts (the counter from
 * count 4 on here, so that tokens reach its bounds).
 */
class AmbiguousCountsMaskTest {
    private static int before;

    @BeforeAll static void load() {
        DirectMaskOracleTest.load();
        OracleMaskTest.load();
        before = AmbiguousCounts.setMinCountForTests(4);
    }

    @AfterAll static void restore() { AmbiguousCounts.setMinCountForTests(before); }

    private static CountedLoop weightedCounter(Grammar g) {
        LexedGrammar l = TerminalDerivation.derive(g);
        for (Terminal t : l.terminals()) if (t.counted() != null && t.counted().weights() != null) return t.counted();
        return null;
    }

    /** The issue's shape (its nested counts fold to one) with counts small enough for tokens to reach the bounds. */
    @Test void issueShapeWithSmallCounts() {
        Grammar g = GbnfParser.parse("root ::= (((\"a\" | \"bc\" | [0-9]+){0,3}){0,3} \";\")\n");
        CountedLoop c = weightedCounter(g);
        assertThat(c).isNotNull();
        assertThat(c.max()).isEqualTo(9);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(8, 30), 3801);
    }

    /** Words of one to five letters or a dash, between brackets; with a minimum of one copy and a follower that continues a copy. */
    @Test void wordsWithBounds() {
        DirectMaskOracleTest.check(GbnfParser.parse("root ::= \"<\" ([a-z]{1,3} | \"-\"){0,6} \">\"\n"), CompileOptions.defaults(),
                LongTests.scale(8, 30), 3802);
        Grammar g = GbnfParser.parse("root ::= ([a-c]{1,3} | \"-\"){1,5} [a-c]? \".\"\n");
        assertThat(weightedCounter(g)).isNotNull();
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(8, 30), 3803);
    }

    /** Bodies whose cheapest split is not the cheapest end (final weights past 1). */
    @Test void bodiesWithHeavyEnds() {
        // after "aa" the cheapest split is inside "aab" (one copy), the cheapest end two copies of "a"
        Grammar g = GbnfParser.parse("root ::= (\"a\" | \"aab\" | \"b\"){0,7} \"!\"\n");
        CountedLoop c = weightedCounter(g);
        assertThat(c).isNotNull();
        assertThat(java.util.Arrays.stream(c.weights()).max().getAsInt()).isGreaterThan(1);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(8, 30), 3804);
        OracleMaskTest.check(GbnfParser.parse("root ::= (\"aa\" | \"aaa\" | [0-9]{1,2} \"a\"?){0,6} (\";\" root)?\n"), 6, 3805);
    }

    /**
     * The issue's first shape with small counts: the words fold into one counted terminal, the
     * comma groups around it stay parser rules (a counted terminal after a counted terminal).
     */
    @Test void countedWordsInsideParserGroups() {
        // the groups' body (words then a comma) passes the counter's body bound: the groups stay parser rules
        Grammar g = GbnfParser.parse("root ::= \"<\" ((([a-z]{1,2} | \"-\"){0,20}){0,15} \",\"?){0,20} \">\"\n");
        assertThat(weightedCounter(g)).isNotNull();
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(2, 8), 3808); // the parser's groups are slow: few sentences
    }

    /** Random nested repeats (folding to one count) of random bodies that split several ways, inside small grammars. */
    @Test void randomNestedRepeats() {
        Random random = new Random(3806);
        int counted = 0;
        for (int i = 0; i < LongTests.scale(6, 24); i++) {
            String inner = "(" + body(random) + "){" + random.nextInt(2) + "," + (2 + random.nextInt(3)) + "}";
            String repeat = "(" + inner + "){" + random.nextInt(2) + "," + (2 + random.nextInt(3)) + "}";
            String root = switch (random.nextInt(3)) {
                case 0 -> "root ::= " + repeat + " \";\"\n";
                case 1 -> "root ::= \"<\" " + repeat + " \">\" | \"x\" " + repeat + "\n";
                default -> "root ::= item (\",\" item)*\nitem ::= " + repeat + " \".\" | [0-9]\n";
            };
            Grammar g = GbnfParser.parse(root);
            if (weightedCounter(g) != null) counted++;
            DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(4, 12), 3810 + i);
        }
        assertThat(counted).isGreaterThan(LongTests.scale(6, 24) / 2);
    }

    private static String body(Random random) {
        List<String> pieces = List.of("\"a\"", "\"ab\"", "\"ba\"", "\"aab\"", "[ab]+", "[0-9]+", "[a-c]{1,3}", "\"a\" [0-9]*", "\"1\"", "[0-9]{1,2}");
        int n = 2 + random.nextInt(2);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(i == 0 ? "" : " | ").append(pieces.get(random.nextInt(pieces.size())));
        return b.toString();
    }
}
