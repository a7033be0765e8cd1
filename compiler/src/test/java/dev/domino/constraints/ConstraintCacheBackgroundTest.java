package dev.domino.constraints;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.BackgroundBuild;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ConstraintCache.Builder#backgroundTreeThreads}: serving mode's masks, and the builds' lifecycle. */
class ConstraintCacheBackgroundTest {
    static Tokenizer tok;

    @BeforeAll static void load() { tok = VocabularyLoader.load("o200k_base", null); }

    static final String SCHEMA = """
            {"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}, "tags": {"type": "array", "items": {"enum": ["a", "bb", "ccc"]}},
             "n": {"type": "number"}, "inner": {"type": "object", "properties": {"ok": {"type": "boolean"}}}},
             "required": ["name"], "additionalProperties": {"type": "integer"}}""";

    static String request(String schema) {
        return "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"s\", \"schema\": " + schema + "}}}";
    }

    @Test void servingModeByDefaultWithBackgroundThreads() {
        try (ConstraintCache cache = ConstraintCache.builder().backgroundTreeThreads(1).build()) {
            assertThat(cache.options()).isEqualTo(ConstraintOptions.serving());
            assertThat(cache.options().lazy()).isTrue();
            assertThat(cache.options().prebuildMillis()).isZero();
            assertThat(cache.options().key()).isEqualTo(ConstraintOptions.defaults().key()); // prebuilt artifacts serve both
        }
        try (ConstraintCache cache = ConstraintCache.builder().build()) {
            assertThat(cache.options()).isEqualTo(ConstraintOptions.defaults());
            assertThat(cache.backgroundTreeThreads()).isZero();
        }
        ConstraintOptions given = ConstraintOptions.defaults().withPrebuildMillis(50); // given options are used as they are
        try (ConstraintCache cache = ConstraintCache.builder().options(given).backgroundTreeThreads(2).build()) {
            assertThat(cache.options()).isEqualTo(given);
        }
        assertThatThrownBy(() -> ConstraintCache.builder().backgroundTreeThreads(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("backgroundTreeThreads must be in [0, 256], got -1");
        assertThatThrownBy(() -> ConstraintCache.builder().options(ConstraintOptions.defaults().withLazy(false)).backgroundTreeThreads(1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eager");
    }

    /** Masks of the cache's lazy artifact, while its background build runs and after it finished, equal an eager compile's. */
    @Test void backgroundMasksEqualEagerOnes() throws Exception {
        List<Recorded> builds = new CopyOnWriteArrayList<>();
        try (ConstraintCache cache = ConstraintCache.builder().backgroundTreeThreads(1).onBackgroundBuild(Recorded.into(builds)).build()) {
            Artifact lazy = cache.artifact(request(SCHEMA), tok.vocabulary());
            assertThat(lazy.isLazy()).isTrue();
            assertThat(builds).hasSize(1);
            Artifact eager = Constraints.compile(request(SCHEMA), tok.vocabulary(), ConstraintOptions.serving().withLazy(false));
            assertThat(eager.isLazy()).isFalse();
            Grammar g = JsonSchemaGrammar.from(SCHEMA).grammar();
            SentenceSampler sampler = new SentenceSampler(g).maxLength(80);
            Random random = new Random(34);
            List<int[]> outputs = new ArrayList<>();
            for (int i = 0; i < 12; i++) outputs.add(tok.encode(sampler.sample(random)));
            outputs.add(tok.encode("{\"name\": \"x\", \"zz\": 12, \"inner\": {\"ok\": true}, \"tags\": [\"bb\"]}"));
            outputs.add(tok.encode("{\"name\": \"x\", \"n\": \"not a number\"}")); // compared up to where the eager artifact refuses
            for (int[] o : outputs) sameMasksAlong(lazy, eager, o); // racing the background build
            Recorded build = builds.get(0);
            assertThat(build.cancels).isZero();
            assertThat(build.await(2, TimeUnit.MINUTES)).isTrue();
            assertThat(build.isCancelled()).isFalse();
            assertThat(build.builtTrees()).isPositive();
            for (int[] o : outputs) sameMasksAlong(lazy, eager, o);
        }
    }

    private static void sameMasksAlong(Artifact lazy, Artifact eager, int[] tokens) {
        Matcher a = lazy.newMatcher(), b = eager.newMatcher();
        for (int k = 0; k <= tokens.length; k++) {
            assertThat(a.nextTokenMask()).as("mask after %d tokens", k).isEqualTo(b.nextTokenMask());
            if (k == tokens.length || !b.acceptToken(tokens[k])) break;
            assertThat(a.acceptToken(tokens[k])).isTrue();
        }
    }

    /** An evicted artifact's build is cancelled; close() cancels the rest and stops the threads. */
    @Test void evictionAndCloseStopTheBuilds() throws Exception {
        List<Recorded> builds = new CopyOnWriteArrayList<>();
        String wide = wideSchema(0);
        long one = ArtifactBytes.estimate(Constraints.compile(request(wide), tok.vocabulary(), ConstraintOptions.serving()));
        ConstraintCache cache = ConstraintCache.builder().backgroundTreeThreads(1).maxBytes(one * 3 / 2).onBackgroundBuild(Recorded.into(builds)).build();
        try {
            cache.artifact(request(wide), tok.vocabulary());
            cache.artifact(request(wideSchema(1)), tok.vocabulary()); // evicts the first
            assertThat(cache.stats().evictions()).isEqualTo(1);
            assertThat(builds).hasSize(2);
            assertThat(builds.get(0).cancels).isEqualTo(1);
            assertThat(builds.get(1).cancels).isZero();
            assertThat(builds.get(0).await(1, TimeUnit.MINUTES)).isTrue();
        } finally {
            cache.close();
        }
        assertThat(builds.get(1).cancels).isEqualTo(1);
        assertThat(builds.get(1).await(1, TimeUnit.MINUTES)).isTrue();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (backgroundThreadsAlive() && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(backgroundThreadsAlive()).as("background threads after close()").isFalse();
    }

    /** A lazy prebuilt artifact is built in the background too. */
    @Test void prebuiltLazyArtifactsAreBuiltInTheBackground() throws Exception {
        List<Recorded> builds = new CopyOnWriteArrayList<>();
        Artifact prebuilt = Constraints.compile(request(SCHEMA), tok.vocabulary(), ConstraintOptions.serving());
        Artifact eager = Constraints.compile(ConstraintsTest.regexRequest(3), tok.vocabulary(), ConstraintOptions.serving().withLazy(false));
        try (ConstraintCache cache = ConstraintCache.builder().backgroundTreeThreads(1).onBackgroundBuild(Recorded.into(builds)).build()) {
            cache.addPrebuilt(prebuilt);
            cache.addPrebuilt(eager); // nothing to build
            assertThat(builds).hasSize(1);
            assertThat(builds.get(0).await(2, TimeUnit.MINUTES)).isTrue();
            assertThat(builds.get(0).builtTrees()).isPositive();
        }
    }

    /** A build whose cancel() calls are counted. */
    static final class Recorded implements BackgroundBuild {
        final BackgroundBuild build;
        volatile int cancels;

        Recorded(BackgroundBuild build) { this.build = build; }

        static java.util.function.UnaryOperator<BackgroundBuild> into(List<Recorded> list) {
            return b -> {
                Recorded r = new Recorded(b);
                list.add(r);
                return r;
            };
        }

        @Override public synchronized void cancel() {
            cancels++;
            build.cancel();
        }
        @Override public boolean isDone() { return build.isDone(); }
        @Override public boolean isCancelled() { return build.isCancelled(); }
        @Override public boolean await(long timeout, TimeUnit unit) throws InterruptedException { return build.await(timeout, unit); }
        @Override public int builtTrees() { return build.builtTrees(); }
    }

    private static String wideSchema(int n) {
        StringBuilder props = new StringBuilder();
        for (int i = 0; i < 30; i++) props.append(i == 0 ? "" : ", ").append("\"key_").append(n).append('_').append(i).append("\": {\"type\": \"string\", \"pattern\": \"^[a-z]{1,30}$\"}");
        return "{\"type\": \"object\", \"properties\": {" + props + "}}";
    }

    private static boolean backgroundThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && t.getName().startsWith("domino-constraint-trees-"));
    }
}
