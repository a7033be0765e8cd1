package dev.domino.constraints;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Issue 37 items 6 and 7: errors inside compiles reported as what they are; cost visible; warm-up. */
class ConstraintCacheResourcesTest {
    static Tokenizer tok;

    @BeforeAll static void load() { tok = VocabularyLoader.load("o200k_base", null); }

    static ConstraintOptions quick() { return ConstraintOptions.defaults().withPrebuildMillis(0); }

    @Test void outOfMemoryInACompileIsAResourcesFailureNotCached() {
        AtomicInteger calls = new AtomicInteger();
        ConstraintCache.Compiler oom = (spec, vocabulary, options) -> {
            if (calls.incrementAndGet() == 1) throw new OutOfMemoryError("Java heap space");
            return Constraints.compile(spec, vocabulary, options);
        };
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).compileBudget(Duration.ofSeconds(60)).compiler(oom).build()) {
            long t0 = System.nanoTime();
            ConstraintException e = catchThrowableOfType(() -> cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary()),
                    ConstraintException.class);
            assertThat(e.reason()).isEqualTo(ConstraintException.Reason.RESOURCES);
            assertThat(e.getMessage()).contains("ran out of heap").doesNotContain("\n");
            assertThat(System.nanoTime() - t0).as("failed at once, not at the budget").isLessThan(Duration.ofSeconds(30).toNanos());
            assertThat(cache.stats().failures()).isEqualTo(1);
            assertThat(cache.stats().entries()).isZero();
            // the next request compiles again, and succeeds
            Artifact a = cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary());
            assertThat(a).isNotNull();
            assertThat(calls.get()).isEqualTo(2);
        }
    }

    @Test void deepRequestsAreConstraintExceptions() {
        ObjectNode root = JsonNodeFactory.instance.objectNode().put("regex", "a");
        ArrayNode n = root.putArray("x");
        for (int i = 0; i < 2000; i++) n = n.addArray();
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).build()) {
            ConstraintException e = catchThrowableOfType(() -> cache.artifact(root, tok.vocabulary()), ConstraintException.class);
            assertThat(e.reason()).isEqualTo(ConstraintException.Reason.INVALID_REQUEST);
            assertThat(e.getMessage()).contains("nesting-depth");
            String deepText = "{\"regex\": \"a\", \"x\": " + "[".repeat(5000) + "]".repeat(5000) + "}";
            e = catchThrowableOfType(() -> cache.artifact(deepText, tok.vocabulary()), ConstraintException.class);
            assertThat(e.reason()).isEqualTo(ConstraintException.Reason.INVALID_REQUEST);
        }
    }

    @Test void anArtifactLargerThanTheBoundIsCountedAndServed() {
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).maxBytes(1024).build()) {
            Artifact a = cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary());
            assertThat(a).isNotNull();
            assertThat(cache.stats().oversized()).isEqualTo(1);
            assertThat(cache.stats().entries()).isZero();
            cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary());
            assertThat(cache.stats().oversized()).isEqualTo(2);
            assertThat(cache.stats().compiles()).isEqualTo(2);
        }
    }

    @Test void warmUpBuildsWhatTheFirstCompileNeeds() {
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).build()) {
            Duration first = cache.warmUp(tok.vocabulary());
            assertThat(first).isPositive();
            assertThat(cache.stats().entries()).isZero();
            assertThat(cache.stats().misses()).isZero();
        }
    }
}
