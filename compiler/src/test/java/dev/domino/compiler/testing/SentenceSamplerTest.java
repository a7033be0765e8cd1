package dev.domino.compiler.testing;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static dev.domino.compiler.ir.Expr.alt;
import static dev.domino.compiler.ir.Expr.literal;
import static dev.domino.compiler.ir.Expr.ref;
import static dev.domino.compiler.ir.Expr.seq;
import static dev.domino.compiler.testing.TestGrammars.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SentenceSamplerTest {

    @Test
    void samplesAreSentencesForEveryTestGrammar() {
        for (Grammar g : new Grammar[] {TestGrammars.json(), TestGrammars.arithmetic(), TestGrammars.ambiguous(),
                TestGrammars.epsilon(), TestGrammars.multiByte(), TestGrammars.anyText(), TestGrammars.lark()}) {
            ByteEarleyOracle o = new ByteEarleyOracle(g);
            SentenceSampler s = new SentenceSampler(g);
            Random rnd = new Random(42);
            Set<String> distinct = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                String x = s.sample(rnd);
                distinct.add(x);
                assertThat(o.isSentence(x)).as("%s: %s", g.start(), x).isTrue();
            }
            assertThat(distinct.size()).as("variety for %s", g.start()).isGreaterThan(5);
        }
    }

    @Test
    void deterministicForASeed() {
        SentenceSampler s = new SentenceSampler(TestGrammars.json());
        assertThat(s.sample(new Random(5))).isEqualTo(s.sample(new Random(5)));
    }

    @Test
    void terminatesOnDeeplyRecursiveAndNullableCycles() {
        // A -> A A | A | "(" A ")" | ε : every choice but ε can recurse forever.
        Grammar g = Grammar.of("A", rules("A", alt(seq(ref("A"), ref("A")), ref("A"),
                seq(literal("("), ref("A"), literal(")")), Expr.EMPTY)));
        SentenceSampler s = new SentenceSampler(g).maxDepth(30).maxLength(100);
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        Random rnd = new Random(9);
        for (int i = 0; i < 500; i++) {
            String x = s.sample(rnd);
            assertThat(x.length()).isLessThan(5000);
            assertThat(o.isSentence(x)).isTrue();
        }
    }

    @Test
    void producesMultiByteCharactersOfEveryLength() {
        SentenceSampler s = new SentenceSampler(TestGrammars.anyText());
        Random rnd = new Random(1);
        boolean[] seenLength = new boolean[5];
        for (int i = 0; i < 300; i++) {
            s.sample(rnd).codePoints().forEach(cp ->
                    seenLength[new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length] = true);
        }
        assertThat(seenLength).containsExactly(false, true, true, true, true);
    }

    @Test
    void emptyLanguageIsReported() {
        SentenceSampler s = new SentenceSampler(Grammar.of("r", rules("r", seq(literal("a"), Expr.NOTHING))));
        assertThat(s.languageIsEmpty()).isTrue();
        assertThatThrownBy(() -> s.sample(new Random(0))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void mutationsUsuallyBreakSentences() {
        Grammar g = TestGrammars.json();
        SentenceSampler s = new SentenceSampler(g);
        ByteEarleyOracle o = new ByteEarleyOracle(g);
        Random rnd = new Random(2);
        int broken = 0, changed = 0;
        for (int i = 0; i < 300; i++) {
            String x = s.sample(rnd);
            String m = SentenceSampler.mutate(x, rnd);
            if (!m.equals(x)) changed++;
            if (!o.isSentence(m)) broken++;
        }
        assertThat(changed).isGreaterThan(280);
        assertThat(broken).isGreaterThan(150);
    }
}
