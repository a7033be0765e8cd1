package dev.domino.jlama;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tjake.jlama.model.AbstractModel;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end on a tiny random-weight Llama with a small Llama-3-format tokenizer (written by the test; CI stays off
 * ../shared): every output of five schemas parses, validates under an independent validator and ends in EOS.
 */
class JlamaGenerationTest {
    static final int OUTPUTS = 20, MAX_TOKENS = 800;
    static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    @TempDir static Path dir;
    static AbstractModel model;
    static Vocabulary vocabulary;

    @BeforeAll
    static void writeModel() throws Exception {
        Path tokenizer = dir.resolve("small-tokenizer.json");
        SmallTokenizer.write(tokenizer);
        model = TestModels.writeAndLoad(dir.resolve("model"), tokenizer, 7);
        vocabulary = TestModels.vocabulary(tokenizer);
        assertThat(model.getConfig().vocabularySize).isEqualTo(vocabulary.size());
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"person", "order", "toolcall", "bounds", "free"})
    void everyOutputIsValidAndEndsInEos(String schema) throws Exception {
        Artifact artifact = TestModels.compile(schema, vocabulary);
        ConstrainedGenerator generator = new ConstrainedGenerator(model, artifact);
        List<Generation> outputs = generateAndCheck(generator, schema, "Answer with JSON:", new Sampling(1, 1));
        Report.print(schema + " (small vocabulary, " + vocabulary.size() + " ids)", outputs);
    }

    @Test
    void topPAndLowTemperatureStayValid() throws Exception {
        Artifact artifact = TestModels.compile("order", vocabulary);
        ConstrainedGenerator generator = new ConstrainedGenerator(model, artifact);
        List<Generation> outputs = generateAndCheck(generator, "order", "An order:", new Sampling(0.7, 0.9));
        assertThat(outputs).allSatisfy(g -> assertThat(g.masksSkipped()).isZero()); // top-p always masks
    }

    /** Greedy decoding: checking the sampled token first and appending the only legal tokens change nothing in the output. */
    @Test
    void opportunisticMaskingAndJumpForwardKeepGreedyOutputs() throws Exception {
        for (String schema : List.of("toolcall", "order")) {
            ConstrainedGenerator generator = new ConstrainedGenerator(model, TestModels.compile(schema, vocabulary));
            int[] prompt = generator.encodePrompt("Call a tool:");
            var plain = generator.generate(prompt, new ConstrainedGenerator.Options(MAX_TOKENS, Sampling.greedy(), 0, false, ConstrainedGenerator.JumpForward.NONE));
            var fast = generator.generate(prompt, new ConstrainedGenerator.Options(MAX_TOKENS, Sampling.greedy(), 0, true, ConstrainedGenerator.JumpForward.TOKENS));
            assertThat(fast.output()).isEqualTo(plain.output());
            assertThat(fast.stop()).isEqualTo(plain.stop());
            assertThat(plain.masksSkipped()).isZero();
            assertThat(plain.forcedTokens()).isZero();
            assertThat(fast.forcedTokens()).isPositive();
            assertThat(fast.forwardMs().length).isEqualTo(plain.forwardMs().length - fast.forcedTokens());
        }
    }

    /** Each jump-forward mode saves decode-step forward passes over sampling every token (same seeds, 10 outputs each). */
    @Test
    void jumpForwardSavesForwardPasses() throws Exception {
        ConstrainedGenerator generator = new ConstrainedGenerator(model, TestModels.compile("toolcall", vocabulary));
        int[] prompt = generator.encodePrompt("Call a tool:");
        int[] passes = new int[3], tokens = new int[3];
        for (ConstrainedGenerator.JumpForward mode : ConstrainedGenerator.JumpForward.values()) {
            for (int seed = 0; seed < 10; seed++) {
                Generation g = generator.generate(prompt, new ConstrainedGenerator.Options(MAX_TOKENS, new Sampling(1, 1), seed, true, mode));
                assertThat(g.stop()).isEqualTo(Generation.Stop.EOS);
                passes[mode.ordinal()] += g.forwardMs().length - 1;
                tokens[mode.ordinal()] += g.tokens();
            }
        }
        System.out.printf("jlama toolcall, 10 outputs: decode forward passes / tokens: %d / %d without jump-forward, "
                + "%d / %d token-level, %d / %d byte-level%n", passes[0], tokens[0], passes[1], tokens[1], passes[2], tokens[2]);
        assertThat(passes[1]).isLessThan(passes[0]);
        assertThat(passes[2]).isLessThan(passes[0]);
    }

    static List<Generation> generateAndCheck(ConstrainedGenerator generator, String schema, String prompt, Sampling sampling)
            throws Exception {
        return generateAndCheck(generator, schema, prompt, sampling, OUTPUTS);
    }

    static List<Generation> generateAndCheck(ConstrainedGenerator generator, String schema, String prompt, Sampling sampling,
                                             int count) throws Exception {
        JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(TestModels.schemaText(schema));
        int[] promptTokens = generator.encodePrompt(prompt);
        List<Generation> outputs = new ArrayList<>();
        for (int seed = 0; seed < count; seed++) {
            Generation g = generator.generate(promptTokens, ConstrainedGenerator.Options.defaults(MAX_TOKENS, sampling, seed));
            outputs.add(g);
            String where = schema + " seed " + seed + ": " + g.output();
            assertThat(g.stop()).as(where).isEqualTo(Generation.Stop.EOS);
            assertThat(g.tokens()).as(where).isLessThanOrEqualTo(MAX_TOKENS);
            JsonNode node = JSON.readTree(g.output());
            Set<ValidationMessage> errors = validator.validate(node);
            assertThat(errors).as(where).isEmpty();
        }
        return outputs;
    }

    /** Prints what the CI log should show: validity, stops, and the masks' share of each decode step. */
    static final class Report {
        static void print(String title, List<Generation> outputs) {
            double[] forward = outputs.stream().flatMapToDouble(g -> Arrays.stream(g.forwardMs()).skip(1)).sorted().toArray();
            double[] mask = outputs.stream().flatMapToDouble(g -> Arrays.stream(g.maskMs())).sorted().toArray();
            double[] share = outputs.stream().flatMapToDouble(g -> {
                double[] f = g.forwardMs(), m = g.maskMs();
                int n = Math.min(f.length - 1, m.length);
                double[] s = new double[n];
                for (int i = 0; i < n; i++) s[i] = m[i] / (m[i] + f[i + 1]);
                return Arrays.stream(s);
            }).sorted().toArray();
            long eos = outputs.stream().filter(g -> g.stop() == Generation.Stop.EOS).count();
            System.out.printf("jlama %s: %d/%d valid, %d EOS, %d tokens; median forward %.3f ms, median mask %.3f ms, "
                            + "mask share of a step p50 %.1f%% p90 %.1f%%; masks built %d, skipped %d (opportunistic), forced tokens %d "
                            + "(forward passes saved); longest output %d tokens%n",
                    title, outputs.size(), outputs.size(), eos, outputs.stream().mapToInt(Generation::tokens).sum(),
                    pct(forward, 0.5), pct(mask, 0.5), 100 * pct(share, 0.5), 100 * pct(share, 0.9),
                    outputs.stream().mapToInt(Generation::masksBuilt).sum(), outputs.stream().mapToInt(Generation::masksSkipped).sum(),
                    outputs.stream().mapToInt(Generation::forcedTokens).sum(), outputs.stream().mapToInt(Generation::tokens).max().orElse(0));
        }

        static double pct(double[] sorted, double q) {
            return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))];
        }
    }
}
