package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The byte automaton of a code point automaton made directly ({@link CodePointBytes}) is the one the
 * general path makes (Thompson NFA, subset construction, minimization) state for state, and the state
 * bounds count what that subset construction made.
 */
class CodePointBytesTest {
    /** Code points around every UTF-8 length and continuation boundary, and a few in between. */
    static final int[] POINTS = {0, 0x1F, ' ', '"', '\\', 'a', 'z', 0x7E, 0x7F, 0x80, 0xBF, 0xC0, 0xFF, 0x100, 0x7BF, 0x7FF,
            0x800, 0x83F, 0x840, 0xFFF, 0x1000, 0x4E00, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1003F, 0x10040, 0x3FFFF,
            0x40000, 0x10FFFF};

    @Test void randomAutomataEqualTheGeneralPath() {
        Random random = new Random(34);
        int checked = 0;
        for (int round = 0; round < 800; round++) {
            CodePointAutomaton cp = randomAutomaton(random, 1 + random.nextInt(8));
            if (cp.isEmpty()) {
                assertThat(CodePointBytes.of(cp, DfaBuilder.MAX_STATES)).isNull();
                continue;
            }
            checkAgainstGeneralPath(cp);
            checked++;
        }
        assertThat(checked).isGreaterThan(400);
    }

    @Test void theWholeRangeAndSingleCharacters() {
        for (int[] r : List.of(new int[] {0, 0x10FFFF}, new int[] {0x80, 0x80}, new int[] {0x10FFFF, 0x10FFFF},
                new int[] {0x800, 0xFFFF}, new int[] {0x7F, 0x800}, new int[] {'a', 'a'})) {
            CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
            int s = b.addState(false), t = b.addState(true);
            b.addRange(s, r[0], r[1], t);
            b.addRange(t, r[0], r[1], s);
            checkAgainstGeneralPath(b.build());
        }
    }

    /** A key complement's shape: every state steps on its own letters, and above ASCII to one "any other key" state. */
    @Test void statesSharingTheirRangesAboveAscii() {
        CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        int rest = 5;
        for (int s = 0; s <= rest; s++) b.addState(s != 3);
        for (int s = 0; s < rest; s++) {
            b.addRange(s, 'a' + s, 'a' + s, s + 1);
            b.addRange(s, 'a' + s + 1, 0x7F, rest);
            b.addRange(s, 0x80, 0x10FFFF, rest);
        }
        b.addRange(rest, 0, 0x10FFFF, rest);
        checkAgainstGeneralPath(b.build());
        // a range across the ASCII boundary, split there, and states with different ranges above ASCII
        CodePointAutomaton.Builder c = new CodePointAutomaton.Builder();
        int x = c.addState(false), y = c.addState(true), z = c.addState(true);
        c.addRange(x, 'a', 0x4E00, y);
        c.addRange(x, 0x4E01, 0x10FFFF, z);
        c.addRange(y, 0x20, 0x800, y);
        c.addRange(z, 0x20, 0x800, y);
        c.addRange(z, 0x801, 0xFFFF, z);
        checkAgainstGeneralPath(c.build());
    }

    /** Equal automata (numbering included), through build and through a sequence's items, and the same bound. */
    static void checkAgainstGeneralPath(CodePointAutomaton cp) {
        Expr e = new Expr.Automaton(cp);
        DfaBuilder general = new DfaBuilder(name -> null);
        DfaBuilder.Sparse subsets = general.subsetAutomaton(e);
        DfaBuilder.Sparse direct = CodePointBytes.of(cp, DfaBuilder.MAX_STATES);
        assertThat(direct.boundStates()).as("subset states of %s", cp).isEqualTo(subsets.count);
        ByteDfa expected = Minimizer.minimize(subsets);
        assertThat(Minimizer.minimize(direct)).as("automaton of %s", cp).isEqualTo(expected);
        assertThat(new DfaBuilder(name -> null).build(e)).isEqualTo(general.buildBySubsets(e, DfaBuilder.MAX_STATES));
        // the bound: too large exactly when the subset construction was
        int n = subsets.count;
        assertThat(CodePointBytes.of(cp, n)).isNotNull();
        if (n > 1) {
            assertThatThrownBy(() -> CodePointBytes.of(cp, n - 1)).isInstanceOf(DfaBuilder.TooLarge.class);
            assertThatThrownBy(() -> new DfaBuilder(name -> null).subsetAutomaton(e, n - 1)).isInstanceOf(DfaBuilder.TooLarge.class);
        }
        // as an item between literals: the minimal concatenation takes the direct automaton as it is
        Expr.Seq seq = new Expr.Seq(List.of(Expr.literal("\""), e, Expr.literal("\"")));
        assertThat(new DfaBuilder(name -> null).build(seq)).isEqualTo(new DfaBuilder(name -> null).buildBySubsets(seq, DfaBuilder.MAX_STATES));
    }

    static CodePointAutomaton randomAutomaton(Random random, int states) {
        CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        for (int s = 0; s < states; s++) b.addState(random.nextInt(5) < 2);
        for (int s = 0; s < states; s++) {
            int edges = random.nextInt(5);
            int from = 0;
            for (int k = 0; k < edges && from <= 0x10FFFF; k++) {
                int lo = Math.max(from, pick(random));
                int hi = random.nextInt(3) == 0 ? lo : Math.max(lo, pick(random));
                if (lo > 0x10FFFF) break;
                b.addRange(s, lo, Math.min(hi, 0x10FFFF), random.nextInt(states));
                from = Math.min(hi, 0x10FFFF) + 1;
            }
        }
        return b.build();
    }

    private static int pick(Random random) {
        int p = POINTS[random.nextInt(POINTS.length)];
        return random.nextBoolean() ? p : Math.min(0x10FFFF, p + random.nextInt(64));
    }
}
