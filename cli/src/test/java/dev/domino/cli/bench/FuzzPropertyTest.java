package dev.domino.cli.bench;

import dev.domino.runtime.Vocabulary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Hostile grammar text, JSON Schemas and artifact bytes ({@link Fuzz}): every case succeeds or ends in
 * an error the CLI classifies (exit 2 or 3), within 30 s. {@code bench fuzz --cases N} runs the same
 * cases for longer.
 */
class FuzzPropertyTest {
    private static Vocabulary vocab;
    private static List<byte[]> artifacts;

    @BeforeContainer static void setUp() {
        vocab = Fuzz.smallVocabulary();
        artifacts = Fuzz.artifactSeeds(vocab);
        assertThat(Fuzz.headerLayoutHolds(artifacts.get(0))).isTrue();
    }

    @Property(tries = 1500, seed = "20")
    void hostileInputsNeverCrashOrHang(@ForAll long seed) {
        Fuzz.Result r = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Fuzz.run(seed, vocab, artifacts),
                () -> "case " + seed + " hung");
        assertThat(r.outcome()).as(r::describe).isNotEqualTo(Fuzz.Outcome.CRASH);
    }
}
