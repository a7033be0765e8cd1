package dev.domino.constraints;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConstraintCacheTest {
    static Tokenizer tok;

    @BeforeAll static void load() { tok = VocabularyLoader.load("o200k_base", null); }

    static ConstraintOptions quick() { return ConstraintOptions.defaults().withPrebuildMillis(0); }

    @Test void concurrentRequestsShareOneCompile() throws Exception {
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).build()) {
            String request = "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"p\", \"schema\": "
                    + "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}}";
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Artifact>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) results.add(pool.submit(() -> { go.await(); return cache.artifact(request, tok.vocabulary()); }));
            go.countDown();
            Artifact first = results.get(0).get();
            for (Future<Artifact> f : results) assertThat(f.get()).isSameAs(first);
            pool.shutdown();
            ConstraintCache.Stats s = cache.stats();
            assertThat(s.compiles()).isEqualTo(1);
            assertThat(s.misses()).isEqualTo(1);
            assertThat(s.hits() + s.joins()).isEqualTo(7);
            assertThat(cache.artifact(request, tok.vocabulary())).isSameAs(first);
            assertThat(cache.stats().hits()).isEqualTo(s.hits() + 1);
            assertThat(cache.stats().bytes()).isPositive();
            assertThat(cache.stats().compileNanos()).isPositive();
            if (java.lang.management.ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported()) {
                assertThat(cache.stats().compileCpuNanos()).isPositive();
            }
        }
    }

    @Test void boundedByBytesLeastRecentlyUsedFirst() {
        Artifact probe = Constraints.compile(ConstraintsTest.regexRequest(0), tok.vocabulary(), quick());
        long one = ArtifactBytes.estimate(probe);
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).maxBytes(one * 5 / 2).build()) {
            Artifact a0 = cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary());
            cache.artifact(ConstraintsTest.regexRequest(1), tok.vocabulary());
            assertThat(cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary())).isSameAs(a0); // 0 is now the most recent
            cache.artifact(ConstraintsTest.regexRequest(2), tok.vocabulary()); // evicts 1
            assertThat(cache.stats().evictions()).isEqualTo(1);
            assertThat(cache.artifact(ConstraintsTest.regexRequest(0), tok.vocabulary())).isSameAs(a0);
            long compiles = cache.stats().compiles();
            cache.artifact(ConstraintsTest.regexRequest(1), tok.vocabulary());
            assertThat(cache.stats().compiles()).isEqualTo(compiles + 1);
            assertThat(cache.stats().bytes()).isLessThanOrEqualTo(one * 5 / 2);
        }
    }

    @Test void compileErrorsAreCachedAndClear() {
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).build()) {
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> cache.artifact("{\"json\": {\"$ref\": \"https://example.com/remote.json\"}}", tok.vocabulary()))
                        .isInstanceOf(ConstraintException.class).hasMessageContaining("https://example.com/remote.json")
                        .extracting(e -> ((ConstraintException) e).reason()).isEqualTo(ConstraintException.Reason.COMPILE_ERROR);
            }
            assertThat(cache.stats().failures()).isEqualTo(1);
            assertThat(cache.stats().hits()).isEqualTo(1);
            assertThatThrownBy(() -> cache.artifact("{\"messages\": []}", tok.vocabulary()))
                    .extracting(e -> ((ConstraintException) e).reason()).isEqualTo(ConstraintException.Reason.INVALID_REQUEST);
        }
    }

    /**
     * A compile past the budget: the request fails at the budget with a clear error, the compile
     * thread is interrupted and free for the next request.
     */
    @Test void compileTimeBudget() throws InterruptedException {
        StringBuilder props = new StringBuilder();
        for (int i = 0; i < 60; i++) props.append(i == 0 ? "" : ", ").append("\"key_").append(i).append("\": {\"type\": \"string\", \"pattern\": \"^[a-z]{1,40}$\"}");
        String slow = "{\"json\": {\"type\": \"object\", \"properties\": {" + props + "}}}";
        ConstraintOptions longPrebuild = ConstraintOptions.defaults().withPrebuildMillis(60_000).withLazy(true);
        try (ConstraintCache cache = ConstraintCache.builder().options(longPrebuild).compileThreads(1)
                .compileBudget(Duration.ofMillis(300)).build()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> cache.artifact(slow, tok.vocabulary()))
                    .isInstanceOf(ConstraintException.class).hasMessageContaining("budget of 300 ms")
                    .extracting(e -> ((ConstraintException) e).reason()).isEqualTo(ConstraintException.Reason.TIME_BUDGET);
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(15);
            assertThat(cache.stats().timeouts()).isEqualTo(1);
            // the compile stopped (uninterrupted, its prebuild would run for 60 s): no timing of the
            // machine's speed, only a generous bound
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (cache.stats().running() > 0 && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(cache.stats().running()).isZero();
            // the timed-out key is not cached: asking again compiles (and times out) again
            assertThatThrownBy(() -> cache.artifact(slow, tok.vocabulary())).isInstanceOf(ConstraintException.class);
            assertThat(cache.stats().timeouts()).isEqualTo(2);
        }
    }

    @Test void prebuiltArtifactsAreServedLikeCompiledOnes() {
        String request = ConstraintsTest.regexRequest(7);
        Artifact built = Constraints.compile(dev.domino.compiler.request.RequestSpec.parse(request), tok.vocabulary(), quick());
        try (ConstraintCache cache = ConstraintCache.builder().options(quick()).maxBytes(1).build()) {
            cache.addPrebuilt(built);
            assertThat(cache.artifact("{\"model\": \"x\", " + request.substring(1), tok.vocabulary())).isSameAs(built);
            assertThat(cache.stats().compiles()).isZero();
            cache.artifact(ConstraintsTest.regexRequest(8), tok.vocabulary()); // over the bound: not kept, the pinned one stays
            assertThat(cache.artifact(request, tok.vocabulary())).isSameAs(built);
        }
        Artifact plain = Constraints.compile(request, tok.vocabulary());
        try (ConstraintCache cache = ConstraintCache.builder().options(quick().withJsonSchema(quick().jsonSchema().withPropertyOrder(dev.domino.compiler.jsonschema.JsonSchemaOptions.PropertyOrder.SCHEMA))).build()) {
            assertThatThrownBy(() -> cache.addPrebuilt(plain)).hasMessageContaining("compiled with options");
        }
    }
}
