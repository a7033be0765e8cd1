package dev.domino.cli;

import dev.domino.cli.bench.SpeculationReplay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactFormatException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.SpeculationPriors;
import dev.domino.runtime.Speculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Count-based speculation: priors, proposals, forced tokens, persistence, replay and the CLI. */
class SpeculationTest {
    static List<int[]> outputs(String resource) throws Exception {
        return Corpus.tokenize(SpeculationFixtures.o200k(), Corpus.readFile(SpeculationFixtures.resourcePath(resource)), true);
    }

    @Test void proposalsAreLegalAndReplayBeatsOneTokenPerPass() throws Exception {
        Artifact a = SpeculationFixtures.artifact("rpg.gbnf");
        SpeculationPriors priors = SpeculationPriors.empty(a);
        assertThat(TrainCommand.train(priors, a, outputs("rpg-train.jsonl")).skipped()).isZero();
        Speculator spec = new Speculator(a, priors);
        // every draft is legal after the ones before it
        Matcher m = a.newMatcher();
        for (int step = 0; step < 20 && !m.isTerminated(); step++) {
            Speculator.Proposal p = spec.propose(m, 6, 0.3);
            Matcher check = m.fork();
            for (int t : p.tokens()) assertThat(check.acceptToken(t)).isTrue();
            if (p.size() == 0) break;
            m.acceptToken(p.tokens()[0]);
        }
        for (int s : new int[] {2, 6, 10}) {
            SpeculationReplay.Result r = SpeculationReplay.run(spec, outputs("rpg-test.jsonl"), s, 0.5, false);
            assertThat(r.modelTokenRejections).isZero();
            assertThat(r.maskDisagreements).isZero();
            assertThat(r.fullMasks).isZero();
            assertThat(r.tokensPerForwardPass()).as("s=%d", s).isGreaterThan(1.7);
        }
        SpeculationReplay.Result none = SpeculationReplay.run(spec, outputs("rpg-test.jsonl"), 0, 0.5, false);
        assertThat(none.tokensPerForwardPass()).isEqualTo(1.0);
        assertThat(none.opportunisticChecks).isEqualTo(none.tokens);
    }

    @Test void forcedTokensComeFromTheGrammar() {
        Artifact a = SpeculationFixtures.compile("root ::= \"x\" [\\x01]", "forced.gbnf");
        Tokenizer tok = SpeculationFixtures.o200k();
        Speculator spec = new Speculator(a, SpeculationPriors.empty(a)); // no counts at all
        Matcher m = a.newMatcher();
        assertThat(m.acceptToken(tok.encode("x")[0])).isTrue();
        Speculator.Proposal p = spec.propose(m, 5, 0.9);
        int byte1 = tok.encode("\u0001")[0];
        int eos = a.vocabulary().eosIds()[0];
        assertThat(p.tokens()).containsExactly(byte1, eos);
        assertThat(p.forcedCount()).isEqualTo(2);
        assertThat(p.probabilities()).containsExactly(1.0, 1.0);
        assertThat(m.countAllowed()).isEqualTo(1);
        assertThat(m.committedTokens()).isEqualTo(1); // propose never changes the matcher
        // at the start only "x" fits (o200k has no token "x\x01")
        assertThat(spec.forcedToken(a.newMatcher())).isEqualTo(tok.encode("x")[0]);
        Artifact two = SpeculationFixtures.compile("root ::= \"ab\" | \"ac\"", "two.gbnf");
        assertThat(new Speculator(two, SpeculationPriors.empty(two)).forcedToken(two.newMatcher())).isEqualTo(-1);
    }

    @Test void onlineLearningAndThreshold() throws Exception {
        Artifact a = SpeculationFixtures.artifact("rpg.gbnf");
        SpeculationPriors priors = SpeculationPriors.empty(a);
        Speculator spec = new Speculator(a, priors);
        int[] out = outputs("rpg-test.jsonl").get(0);
        Matcher m = a.newMatcher();
        for (int t : out) assertThat(spec.acceptAndObserve(m, t)).isTrue();
        assertThat(priors.observations()).isEqualTo(out.length);
        // one output seen: its first token has P = 1 at the start; a threshold above 1 proposes nothing
        Speculator.Proposal p = spec.propose(a.newMatcher(), 3, 1.0);
        assertThat(p.size()).isGreaterThanOrEqualTo(1);
        assertThat(p.tokens()[0]).isEqualTo(out[0]);
        assertThat(p.probabilities()[0]).isEqualTo(1.0);
        assertThat(spec.propose(a.newMatcher(), 3, 1.0000001).size()).isZero();
    }

    @Test void priorsPersistWithFingerprint(@TempDir Path dir) throws Exception {
        Artifact a = SpeculationFixtures.artifact("rpg.gbnf");
        SpeculationPriors priors = SpeculationPriors.empty(a);
        TrainCommand.train(priors, a, outputs("rpg-train.jsonl"));
        byte[] bytes = priors.toBytes();
        SpeculationPriors back = SpeculationPriors.read(new ByteArrayInputStream(bytes));
        assertThat(back.toBytes()).isEqualTo(bytes);
        assertThat(back.contexts()).isEqualTo(priors.contexts());
        assertThat(back.observations()).isEqualTo(priors.observations());

        Artifact other = SpeculationFixtures.compile("root ::= \"x\" [\\x01]", "other.gbnf");
        Path file = dir.resolve("rpg.priors");
        priors.write(file);
        assertThatThrownBy(() -> SpeculationPriors.load(file, other))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another artifact");
        assertThatThrownBy(() -> new Speculator(other, priors)).isInstanceOf(IllegalArgumentException.class);
        byte[] corrupt = bytes.clone();
        corrupt[corrupt.length - 3] ^= 1;
        assertThatThrownBy(() -> SpeculationPriors.read(new ByteArrayInputStream(corrupt)))
                .isInstanceOf(ArtifactFormatException.class).hasMessageContaining("checksum");
        assertThatThrownBy(() -> SpeculationPriors.read(new ByteArrayInputStream(java.util.Arrays.copyOf(bytes, 40))))
                .isInstanceOf(ArtifactFormatException.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> SpeculationPriors.read(new ByteArrayInputStream("DOMINO\0\1 not priors at all".getBytes())))
                .isInstanceOf(ArtifactFormatException.class).hasMessageContaining("not a Domino priors file");
    }

    @Test void cliTrainAndBench(@TempDir Path dir) throws Exception {
        Path artifact = SpeculationFixtures.write(dir, SpeculationFixtures.artifact("rpg.gbnf"), "rpg.domino");
        Path otherArtifact = SpeculationFixtures.write(dir, SpeculationFixtures.compile("root ::= \"x\" [\\x01]", "other.gbnf"), "other.domino");
        Path train = dir.resolve("train.jsonl"), test = dir.resolve("test.jsonl"), priors = dir.resolve("rpg.priors");
        SpeculationFixtures.copy("rpg-train.jsonl", train);
        SpeculationFixtures.copy("rpg-test.jsonl", test);

        String[] r = run("train", artifact.toString(), train.toString(), "-o", priors.toString(), "--json");
        assertThat(r[0]).isEqualTo("0");
        assertThat(Json.MAPPER.readTree(r[1]).get("outputs").asInt()).isEqualTo(30);
        assertThat(Files.exists(priors)).isTrue();

        r = run("bench", "speculate", artifact.toString(), "--priors", priors.toString(), "--test", test.toString(), "--s", "6", "--json");
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        JsonNode j = Json.MAPPER.readTree(r[1]);
        for (String key : List.of("tokens", "forward_passes", "tokens_per_forward_pass", "draft_acceptance", "forced_tokens",
                "full_masks", "opportunistic_checks", "model_token_rejections")) {
            assertThat(j.has(key)).as(key).isTrue();
        }
        assertThat(j.get("model_token_rejections").asInt()).isZero();
        assertThat(j.get("tokens_per_forward_pass").asDouble()).isGreaterThan(1.7);

        r = run("bench", "speculate", artifact.toString(), "--train", train.toString(), "--test", test.toString(), "--s", "2");
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("tokens per forward pass").contains("model tokens rejected 0");

        r = run("bench", "speculate", otherArtifact.toString(), "--priors", priors.toString(), "--test", test.toString());
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).startsWith("error: ").contains("another artifact");
    }

    @Test void maskBenchInstancesSerializeLikePython() throws Exception {
        List<String> out = Corpus.readFile(SpeculationFixtures.resourcePath("instance.json"));
        assertThat(out).containsExactly(
                "{\"a\": 1.5e-05, \"b\": [1, 2.0, 1e+16, 123456789012345678901234], \"c\": \"x\\nyé\\u0001\"}");
        assertThat(PythonJson.floatRepr(0.1)).isEqualTo("0.1");
        assertThat(PythonJson.floatRepr(1e15)).isEqualTo("1000000000000000.0");
        assertThat(PythonJson.floatRepr(0.0001)).isEqualTo("0.0001");
        assertThat(PythonJson.floatRepr(-2.5e-7)).isEqualTo("-2.5e-07");
        assertThat(PythonJson.floatRepr(123.456)).isEqualTo("123.456");
        assertThat(PythonJson.floatRepr(1.7976931348623157e308)).isEqualTo("1.7976931348623157e+308");
    }

    static String[] run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out.toString().strip(), err.toString().strip()};
    }
}
