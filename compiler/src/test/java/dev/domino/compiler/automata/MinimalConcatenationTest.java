package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import dk.brics.automaton.Automaton;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sequences built right to left from their items' minimal automata ({@link MinimalConcatenation})
 * give the automaton that joining and minimizing the whole gave before, and the subset construction
 * of the whole, and brics: the same object state for state, not only the same language.
 */
class MinimalConcatenationTest {
    private static final Expr WS = new Expr.Repeat(Expr.chars(CodePointSet.fromRanges(new int[] {'\t', '\n', '\r', '\r', ' ', ' '})), 0, 20);

    /** Pieces of generated grammars, and pieces whose parts merge across the boundary ({@code y (yy)* x}). */
    private static final Expr[] PIECES = {
            WS, Expr.literal("\"key\""), Expr.literal(":"), Expr.literal(","), Expr.literal("\""), Expr.literal("y"),
            Expr.literal("yy"), Expr.literal("x"), Expr.literal(""), new Expr.Repeat(Expr.literal("yy"), 0, 3),
            new Expr.Repeat(Expr.literal("ab"), 1, 3), new Expr.Repeat(Expr.chars(CodePointSet.range('0', '9')), 1, 5),
            Expr.alt(Expr.literal("x"), Expr.literal("yx")), Expr.alt(Expr.literal("yy"), Expr.literal("y")),
            new Expr.Seq(List.of(Expr.star(Expr.literal("yy")), Expr.literal("x"))), // a cycle: only last, else the general path
            Expr.plus(Expr.chars(CodePointSet.range('a', 'z'))), Expr.chars(CodePointSet.range('x', 'y')),
            Expr.literal("é"), new Expr.Repeat(Expr.chars(CodePointSet.range(0x80, 0x3000)), 0, 2),
            // cycles before the last item: a JSON string body, x*, and (z x*)* q, which x* merges into
            Expr.star(Expr.alt(Expr.chars(CodePointSet.fromRanges(new int[] {0x20, 0x21, 0x23, 0x5B, 0x5D, 0x10FFFF})),
                    new Expr.Seq(List.of(Expr.literal("\\"), Expr.chars(CodePointSet.fromRanges(new int[] {'"', '"', '\\', '\\', 'n', 'n'})))))),
            Expr.star(Expr.literal("x")), new Expr.Seq(List.of(Expr.star(new Expr.Seq(List.of(Expr.literal("z"), Expr.star(Expr.literal("x"))))), Expr.literal("q"))),
    };

    @Test void sequencesEqualTheMinimizationOfTheWhole() {
        Random random = new Random(34);
        int byParts = 0;
        for (int i = 0; i < 3000; i++) {
            List<Expr> items = new ArrayList<>();
            for (int k = 2 + random.nextInt(5); k > 0; k--) items.add(PIECES[random.nextInt(PIECES.length)]);
            Expr.Seq e = new Expr.Seq(items);
            DfaBuilder.Language parts = new DfaBuilder(name -> null).minimalConcatenation(e, 5000);
            DfaBuilder.Language whole;
            try {
                whole = new DfaBuilder(name -> null).buildBySubsets(e, 5000);
            } catch (DfaBuilder.TooLarge tooLarge) {
                assertThat(parts).as("by parts only where the joins are exact: %s", e).isNull();
                continue;
            }
            DfaBuilder.Language ours = new DfaBuilder(name -> null).build(e, 5000);
            DfaBuilder.Language joined = new DfaBuilder(name -> null).buildByJoin(e, 5000);
            assertThat(ours.nullable()).as("nullable %s", e).isEqualTo(whole.nullable());
            assertThat(ours.dfa()).as("automaton of %s", e).isEqualTo(whole.dfa()).isEqualTo(joined.dfa());
            if (parts != null) {
                byParts++;
                assertThat(parts.dfa()).as("by parts: %s", e).isEqualTo(whole.dfa());
            }
            if (i % 10 == 0) {
                Automaton reference = new ByteAutomata(name -> null).build(e);
                if (reference.run("")) reference = ByteAutomata.withoutEmptyString(reference);
                assertThat(ours.dfa()).as("brics: %s", e).isEqualTo(reference.isEmpty() ? null : ByteAutomata.toByteDfa(reference));
            }
        }
        assertThat(byParts).as("sequences built by parts").isGreaterThan(500);
    }

    /** The member head of a generated object grammar, per key: equal to the old construction, for many keys in a row (the suffix is shared). */
    @Test void memberHeadsPerKey() {
        Expr ws = new Expr.Repeat(Expr.chars(CodePointSet.fromRanges(new int[] {'\t', '\n', '\r', '\r', ' ', ' '})), 0, 100);
        for (String key : List.of("name", "n", "nam", "a\"b", "é", "", "name")) {
            Expr.Seq e = new Expr.Seq(List.of(ws, Expr.literal("\"" + key + "\""), ws, Expr.literal(":"), ws));
            DfaBuilder.Language parts = new DfaBuilder(name -> null).minimalConcatenation(e, 4000);
            assertThat(parts).as(key).isNotNull();
            assertThat(parts.dfa()).as(key).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(e, 4000).dfa());
        }
    }

    /**
     * Member heads with their value languages (a number, a string), per key: the suffix after each key,
     * value included, is kept per process ({@link DfaBuilder#isShareable}); every key still gets the
     * automaton of the subset construction of the whole.
     */
    @Test void memberHeadsWithValuesPerKey() {
        Expr ws = new Expr.Repeat(Expr.chars(CodePointSet.fromRanges(new int[] {'\t', '\n', '\r', '\r', ' ', ' '})), 0, 100);
        Expr digits = Expr.plus(Expr.chars(CodePointSet.range('0', '9')));
        Expr number = new Expr.Seq(List.of(Expr.optional(Expr.literal("-")), Expr.alt(Expr.literal("0"),
                new Expr.Seq(List.of(Expr.chars(CodePointSet.range('1', '9')), Expr.star(Expr.chars(CodePointSet.range('0', '9'))))))));
        Expr fraction = Expr.optional(new Expr.Seq(List.of(Expr.literal("."), digits)));
        Expr body = Expr.star(Expr.alt(Expr.chars(CodePointSet.fromRanges(new int[] {0x20, 0x21, 0x23, 0x5B, 0x5D, 0x10FFFF})),
                new Expr.Seq(List.of(Expr.literal("\\"), Expr.chars(CodePointSet.fromRanges(new int[] {'"', '"', '\\', '\\', 'n', 'n'}))))));
        assertThat(DfaBuilder.isShareable(number)).isTrue();
        assertThat(DfaBuilder.isShareable(body)).isTrue();
        for (int round = 0; round < 2; round++) {
            for (String key : List.of("width", "w", "a\"b", "é", "width")) {
                for (List<Expr> value : List.of(List.of(number, fraction), List.of(Expr.literal("\""), body, Expr.literal("\"")))) {
                    List<Expr> items = new ArrayList<>(List.of(ws, Expr.literal("\"" + key + "\""), ws, Expr.literal(":"), ws));
                    items.addAll(value);
                    Expr.Seq e = new Expr.Seq(items);
                    DfaBuilder.Language parts = new DfaBuilder(name -> null).minimalConcatenation(e, 4000);
                    assertThat(parts).as(key).isNotNull();
                    assertThat(parts.dfa()).as("%s %s", key, value).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(e, 4000).dfa());
                }
            }
        }
    }

    /** A reference names a rule of one grammar: an item with one is never kept per process, so two grammars get their own rule's language. */
    @Test void itemsWithReferencesAreNotShared() {
        Expr.Seq e = new Expr.Seq(List.of(Expr.literal("k"), Expr.literal(":"), Expr.ref("value")));
        assertThat(DfaBuilder.isShareable(Expr.ref("value"))).isFalse();
        for (String value : List.of("1", "22", "1")) {
            DfaBuilder builder = new DfaBuilder(name -> Expr.literal(value));
            ByteDfa d = builder.build(e, 100).dfa();
            assertThat(d).as(value).isEqualTo(new DfaBuilder(name -> Expr.literal(value)).buildBySubsets(e, 100).dfa());
            assertThat(d.stateCount()).isEqualTo(3 + value.length());
        }
    }

    /** {@code y · (yy)*x}: the literal's states are the suffix's own states, and the result is the suffix's automaton from its second state. */
    @Test void partsMergeAcrossTheBoundary() {
        Expr.Seq e = new Expr.Seq(List.of(Expr.literal("y"), new Expr.Seq(List.of(Expr.star(Expr.literal("yy")), Expr.literal("x")))));
        DfaBuilder.Language parts = new DfaBuilder(name -> null).minimalConcatenation(e, 100);
        assertThat(parts).isNotNull();
        assertThat(parts.dfa().stateCount()).isEqualTo(3);
        assertThat(parts.dfa()).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(e, 100).dfa());
    }

    /** {@code x* · (z x*)* q}: the cycle of x* is the suffix's state after z. */
    @Test void cyclesMergeAcrossTheBoundary() {
        Expr.Seq e = new Expr.Seq(List.of(Expr.literal("z"), Expr.star(Expr.literal("x")),
                new Expr.Seq(List.of(Expr.star(new Expr.Seq(List.of(Expr.literal("z"), Expr.star(Expr.literal("x"))))), Expr.literal("q")))));
        DfaBuilder.Language parts = new DfaBuilder(name -> null).minimalConcatenation(e, 100);
        assertThat(parts).isNotNull();
        assertThat(parts.dfa().stateCount()).isEqualTo(3);
        assertThat(parts.dfa()).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(e, 100).dfa());
    }

    /** An accepting end of one part that may go on with a byte the next part starts with: not by parts. */
    @Test void ambiguousBoundariesAreLeftToTheGeneralPath() {
        Expr.Seq e = new Expr.Seq(List.of(new Expr.Repeat(Expr.literal("y"), 0, 3), Expr.literal("yx")));
        assertThat(new DfaBuilder(name -> null).minimalConcatenation(e, 100)).isNull();
        ByteDfa d = new DfaBuilder(name -> null).build(e, 100).dfa();
        assertThat(d).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(e, 100).dfa());
    }
}
