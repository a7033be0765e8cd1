package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.AmbiguousCounts;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.internal.scan.Terminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Groups of counted words with an optional separator ({@code (B{0,N} ","?){0,M}}, B splitting several
 * ways) as counted terminals by the groups a segment needs (see GroupedCounts): membership of every
 * string up to a length against the byte-level oracle, masks against the oracle at random prefixes,
 * and the shapes left as they were. The counter from count 4 on, so strings reach the bounds, and grouped
 * repeats split out even where one exact terminal would do (small counts).
 */
class GroupedCountsTest {
    private static int before;

    @BeforeAll static void load() {
        DirectMaskOracleTest.load();
        before = AmbiguousCounts.setMinCountForTests(4);
        AmbiguousCounts.setGroupsAlwaysForTests(true); // small counts would make one exact terminal
    }

    @AfterAll static void restore() {
        AmbiguousCounts.setMinCountForTests(before);
        AmbiguousCounts.setGroupsAlwaysForTests(false);
    }

    /** The counted terminals: M cost classes for a grouped repeat, at most one (the words) otherwise. */
    private static long costClasses(Grammar g) {
        LexedGrammar l = TerminalDerivation.derive(g);
        return l.terminals().stream().filter(t -> t.counted() != null).count();
    }

    @Test void issueShapeWithSmallCountsIsGrouped() {
        Grammar g = GbnfParser.parse("root ::= \"<\" ((([a-z]{1,2} | \"-\"){0,3}){0,2} \",\"?){0,3} \">\"\n");
        assertThat(costClasses(g)).isEqualTo(3);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(10, 30), 3901);
    }

    @Test void theIssuesGrammarIsGrouped() {
        Grammar g = GbnfParser.parse("root ::= \"<\" ((([a-z]{1,5} | \"-\"){0,50}){0,50} \",\"?){0,20} \">\"\n");
        assertThat(costClasses(g)).isEqualTo(20);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(3, 10), 3902);
    }

    @Test void separatorsOfSeveralBytesAndHeavyEnds() {
        Grammar g = GbnfParser.parse("root ::= ((\"a\" | \"aab\" | \"b\"){0,4} \"; \"?){0,3} \".\"\n");
        assertThat(costClasses(g)).isEqualTo(3);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(10, 30), 3903);
        Grammar digits = GbnfParser.parse("root ::= item (\"|\" item)*\nitem ::= ((\"a\" | \"bc\" | [0-9]+){0,5} \",\"?){0,3}\n");
        assertThat(costClasses(digits)).isEqualTo(3);
        DirectMaskOracleTest.check(digits, CompileOptions.defaults(), LongTests.scale(10, 30), 3904);
    }

    /** Every string over the alphabet up to the length: the matcher accepts it (and its prefixes) exactly when the oracle does. */
    @Test void membershipOfEveryShortString() {
        everyString("root ::= \"<\" (([a]{1,2} | \"-\"){0,4} \",\"?){0,2} \">\"\n", "<", "a-,", ">", 10);
        everyString("root ::= ((\"a\" | \"aab\" | \"b\"){0,4} \";\"?){0,2} \".\"\n", "", "ab;", ".", 10);
        everyString("root ::= \"<\" ([a-z]{0,4} \",\"?){0,3} \">\"\n", "<", "a,", ">", 15);
        everyString("root ::= \"<\" ((\"ab\" | \"c\"){0,4} \", \"?){0,2} \">\"\n", "<", "abc, ", ">", 10);
        everyString("root ::= \"<\" (\",\"? ([a]{1,2} | \"-\"){0,4}){0,2} \">\"\n", "<", "a-,", ">", 10);
        everyString("root ::= \"<\" (\",\"? [a-z]{0,4}){0,3} \">\"\n", "<", "a,", ">", 15);
    }

    /** The group and its parts named by rules, as llama.cpp grammars write them (a repeat of a rule is not counted: see docs). */
    @Test void groupsNamedByRules() {
        Grammar g = GbnfParser.parse("""
                root ::= "<" group{0,20} ">"
                group ::= words sep
                words ::= ([a-z]{1,5} | "-"){0,300}
                sep ::= ","?
                """);
        assertThat(costClasses(g)).isEqualTo(20);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(3, 10), 3908);
    }

    /** The separator before the words: the mirror rules. */
    @Test void separatorBeforeTheWords() {
        Grammar g = GbnfParser.parse("root ::= \"<\" (\",\"? (([a-z]{1,5} | \"-\"){0,50}){0,50}){0,20} \">\"\n");
        assertThat(costClasses(g)).isEqualTo(20);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(3, 10), 3909);
        Grammar small = GbnfParser.parse("root ::= (\"; \"? (\"a\" | \"aab\" | \"b\"){0,4}){0,3} \".\"\n");
        assertThat(costClasses(small)).isEqualTo(3);
        DirectMaskOracleTest.check(small, CompileOptions.defaults(), LongTests.scale(10, 30), 3910);
    }

    /** Bodies that split one way (a letter) count with the plain loop. */
    @Test void lettersInGroups() {
        Grammar g = GbnfParser.parse("root ::= \"<\" ([a-z]{0,300} \",\"?){0,20} \">\"\n");
        assertThat(costClasses(g)).isEqualTo(20);
        DirectMaskOracleTest.check(g, CompileOptions.defaults(), LongTests.scale(3, 10), 3906);
        Grammar small = GbnfParser.parse("root ::= item (\"|\" item)*\nitem ::= ((\"ab\" | [0-9]){0,5} \",\"?){0,3}\n");
        assertThat(costClasses(small)).isEqualTo(3);
        DirectMaskOracleTest.check(small, CompileOptions.defaults(), LongTests.scale(10, 30), 3907);
    }

    private static void everyString(String grammar, String open, String alphabet, String close, int length) {
        Grammar g = GbnfParser.parse(grammar);
        assertThat(costClasses(g)).isGreaterThan(0);
        Artifact artifact = GrammarCompiler.compile(g, DirectMaskOracleTest.o200k.vocabulary(), "t", "ir", "t", CompileOptions.defaults());
        ByteEarleyOracle oracle = new ByteEarleyOracle(g);
        List<String> level = new ArrayList<>(List.of(""));
        int checked = 0, sentences = 0;
        for (int len = 0; len <= length; len++) {
            List<String> next = new ArrayList<>();
            for (String w : level) {
                byte[] prefix = (open + w).getBytes(StandardCharsets.UTF_8);
                byte[] whole = (open + w + close).getBytes(StandardCharsets.UTF_8);
                Matcher m = artifact.newMatcher();
                boolean viable = m.acceptBytes(prefix);
                assertThat(viable).as("prefix '%s'", w).isEqualTo(oracle.isViablePrefix(prefix));
                if (!viable) continue; // no extension is viable either (both agree)
                Matcher full = artifact.newMatcher();
                boolean sentence = full.acceptBytes(whole) && full.isAccepting();
                assertThat(sentence).as("sentence '%s'", w).isEqualTo(oracle.isSentence(whole));
                if (sentence) sentences++;
                checked++;
                if (len < length) for (char c : alphabet.toCharArray()) next.add(w + c);
            }
            level = next;
        }
        assertThat(checked).isGreaterThan(300);
        assertThat(sentences).isGreaterThan(50);
    }

    /** A separator whose bytes occur in the words, or one that is required, keeps the rules as they were. */
    @Test void otherShapesAreLeftAsTheyWere() {
        Grammar shared = GbnfParser.parse("root ::= \"<\" (([a-z]{1,2} | \"-\"){0,4} \"a\"?){0,3} \">\"\n");
        assertThat(costClasses(shared)).isLessThanOrEqualTo(1);
        DirectMaskOracleTest.check(shared, CompileOptions.defaults(), LongTests.scale(4, 12), 3905);
        Grammar required = GbnfParser.parse("root ::= \"<\" (([a-z]{1,2} | \"-\"){0,4} \",\"){0,3} \">\"\n");
        assertThat(costClasses(required)).isLessThanOrEqualTo(1);
    }
}
