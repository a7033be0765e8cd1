package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.format.ArtifactFormat;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The artifacts the runtime's own tests load ({@code runtime/src/test/resources/fixtures/}:
 * {@code grammars/json.gbnf} against a 4,097-token vocabulary, lazy and eager): the runtime module
 * cannot depend on the compiler, so they are compiled here and committed. This test checks that
 * each committed file still loads and gives the masks of a fresh compile on random outputs; {@code -Ddomino.fixtures.write=true} rewrites it (after an artifact format change):
 * {@code mvn -B -q -pl compiler -am test -Dtest=RuntimeFixturesTest -Dsurefire.failIfNoSpecifiedTests=false -Ddomino.fixtures.write=true}.
 */
class RuntimeFixturesTest {
    static final Path FIXTURES = Path.of("..", "runtime", "src", "test", "resources", "fixtures");
    static final Path GRAMMAR = Path.of("..", "grammars", "json.gbnf");

    /** The first 4,096 tokens of o200k_base (every single byte, the commonest merges) and an EOS token: a 30 KB section. */
    static Vocabulary smallVocabulary() {
        Vocabulary o200k = VocabularyLoader.load("o200k_base", null).vocabulary();
        byte[][] bytes = new byte[4097][];
        for (int id = 0; id < 4096; id++) bytes[id] = o200k.bytes(id).clone();
        bytes[4096] = "<|endoftext|>".getBytes(StandardCharsets.UTF_8);
        BitSet special = new BitSet();
        special.set(4096);
        return new Vocabulary("o200k_base[0,4096)+eos", bytes, special, new int[] {4096});
    }

    static Artifact compile(boolean lazy) throws Exception {
        String text = Files.readString(GRAMMAR);
        GrammarSources.Parsed parsed = GrammarSources.parse(text, SourceFormat.GBNF, JsonSchemaOptions.defaults());
        return GrammarCompiler.compile(parsed.grammar(), smallVocabulary(), "json.gbnf", SourceFormat.GBNF.id(), text,
                parsed.applyTo(CompileOptions.defaults().withLazy(lazy).withPrebuildMillis(0).withThreads(1)));
    }

    @Test void lazyFixture() throws Exception { check(FIXTURES.resolve("json-4k.domino"), true); }

    @Test void eagerFixture() throws Exception { check(FIXTURES.resolve("json-4k-eager.domino"), false); }

    private static void check(Path fixture, boolean lazy) throws Exception {
        Artifact fresh = compile(lazy);
        if (Boolean.getBoolean("domino.fixtures.write")) {
            Files.createDirectories(fixture.getParent());
            Files.write(fixture, ArtifactFormat.toBytes(fresh));
        }
        assertThat(Files.size(fixture)).as("fixture size").isLessThan(1 << 20);
        Artifact committed = Artifact.load(fixture);
        assertThat(committed.vocabulary().fingerprint()).isEqualTo(fresh.vocabulary().fingerprint());
        assertThat(committed.isLazy()).isEqualTo(lazy);
        Random random = new Random(18);
        for (int output = 0; output < 20; output++) {
            Matcher a = fresh.newMatcher(), b = committed.newMatcher();
            int[] ma = new int[a.bitmaskInts()], mb = new int[ma.length];
            for (int step = 0; step < 40 && !a.isTerminated(); step++) {
                a.fillNextTokenBitmask(ma, 0);
                b.fillNextTokenBitmask(mb, 0);
                assertThat(mb).as("output %d step %d: regenerate with -Ddomino.fixtures.write=true", output, step).isEqualTo(ma);
                int token = randomAllowed(ma, random);
                assertThat(a.acceptToken(token)).isTrue();
                assertThat(b.acceptToken(token)).isTrue();
            }
        }
    }

    static int randomAllowed(int[] mask, Random random) {
        int count = 0;
        for (int w : mask) count += Integer.bitCount(w);
        int pick = random.nextInt(count);
        for (int i = 0; i < mask.length * 32; i++) {
            if ((mask[i >>> 5] & (1 << i)) != 0 && pick-- == 0) return i;
        }
        throw new AssertionError(Arrays.toString(mask));
    }
}
