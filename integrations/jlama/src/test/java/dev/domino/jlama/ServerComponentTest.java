package dev.domino.jlama;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tjake.jlama.model.AbstractModel;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ConstrainedGenerator} shared by threads, with stop sequences, streaming, cancellation and logprobs. */
class ServerComponentTest {
    @TempDir static Path dir;
    static AbstractModel model;
    static Vocabulary vocabulary;

    @BeforeAll
    static void writeModel() throws Exception {
        Path tokenizer = dir.resolve("small-tokenizer.json");
        SmallTokenizer.write(tokenizer);
        model = TestModels.writeAndLoad(dir.resolve("model"), tokenizer, 7);
        vocabulary = TestModels.vocabulary(tokenizer);
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
    }

    static ConstrainedGenerator.Options options(long seed) {
        return ConstrainedGenerator.Options.defaults(300, new Sampling(1.0, 1.0), seed);
    }

    @Test
    void threadsDecodingTogetherGetTheOutputsOfOneAtATime() throws Exception {
        List<Artifact> artifacts = List.of(TestModels.compile("person", vocabulary), TestModels.compile("toolcall", vocabulary));
        ConstrainedGenerator generator = new ConstrainedGenerator(model);
        int[] prompt = generator.encodePrompt("Output:");
        int n = 12;
        List<String> alone = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            alone.add(generator.generate(prompt, artifacts.get(i % 2), options(i), ConstrainedGenerator.Control.none()).output());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> together = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                together.add(pool.submit(() -> generator.generate(prompt, artifacts.get(k % 2), options(k), ConstrainedGenerator.Control.none()).output()));
            }
            for (int i = 0; i < n; i++) assertThat(together.get(i).get()).as("output " + i).isEqualTo(alone.get(i));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void stopSequencesStreamingCancellationAndLogprobs() throws Exception {
        Artifact text = TestModels.compile("free", vocabulary);
        ConstrainedGenerator generator = new ConstrainedGenerator(model);
        int[] prompt = generator.encodePrompt("JSON:");
        long seed = 0;
        Generation whole;
        do { // an output long enough to hold a stop sequence in its middle
            whole = generator.generate(prompt, text, options(++seed), ConstrainedGenerator.Control.none());
        } while (whole.output().length() < 8);
        assertThat(whole.stop()).isEqualTo(Generation.Stop.EOS);

        // a stop sequence taken from the middle of that output: the same run ends just before it, and the streamed
        // text is the output exactly (never a prefix of the stop sequence that was later withdrawn)
        String stop = whole.output().substring(4, 6);
        StringBuilder streamed = new StringBuilder();
        Generation cut = generator.generate(prompt, text, options(seed),
                new ConstrainedGenerator.Control(List.of(stop), streamed::append, () -> false, Long.MAX_VALUE, true));
        assertThat(cut.stop()).isEqualTo(Generation.Stop.STOP_SEQUENCE);
        assertThat(cut.output()).isEqualTo(whole.output().substring(0, whole.output().indexOf(stop)));
        assertThat(streamed.toString()).isEqualTo(cut.output());
        assertThat(cut.logprobs()).hasSize(cut.tokens());
        for (Generation.TokenLogprob t : cut.logprobs()) assertThat(t.logprob()).isLessThanOrEqualTo(0);

        // cancelled after the third forward pass (the output above took more)
        assertThat(whole.forwardMs().length).isGreaterThan(3);
        AtomicInteger polls = new AtomicInteger();
        Generation cancelled = generator.generate(prompt, text, options(seed),
                new ConstrainedGenerator.Control(List.of(), null, () -> polls.incrementAndGet() > 3, Long.MAX_VALUE, false));
        assertThat(cancelled.stop()).isEqualTo(Generation.Stop.CANCELLED);
        assertThat(cancelled.forwardMs()).hasSize(3);
        // a deadline in the past: cancelled before the first pass
        Generation late = generator.generate(prompt, text, options(3),
                new ConstrainedGenerator.Control(List.of(), null, () -> false, System.nanoTime() - 1, false));
        assertThat(late.stop()).isEqualTo(Generation.Stop.CANCELLED);
        assertThat(late.tokens()).isZero();
    }

    @Test
    void streamedTextNeverSplitsACharacter() {
        StringBuilder out = new StringBuilder();
        StreamedText t = new StreamedText(List.of(), out::append);
        byte[] e = "é日".getBytes(StandardCharsets.UTF_8); // 2 + 3 bytes, fed one at a time
        for (byte b : e) t.append(new byte[] {b});
        assertThat(out.toString()).isEqualTo("é日");
        assertThat(t.finish()).isEqualTo("é日");
        StringBuilder held = new StringBuilder();
        StreamedText s = new StreamedText(List.of("END"), held::append);
        s.append("abcE".getBytes(StandardCharsets.UTF_8));
        assertThat(held.toString()).isEqualTo("ab"); // "cE" may still begin "END"
        assertThat(s.append("N".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(s.append("D!".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(s.finish()).isEqualTo("abc");
        assertThat(held.toString()).isEqualTo("abc");
    }
}
