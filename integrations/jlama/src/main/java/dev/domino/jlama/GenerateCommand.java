package dev.domino.jlama;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.model.ModelSupport;
import com.github.tjake.jlama.safetensors.DType;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Generate outputs of a jlama model constrained by a Domino artifact or request spec.")
public final class GenerateCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "DIR", description = "jlama model directory (config.json, *.safetensors, tokenizer.json)")
    Path model;
    @ArgGroup(exclusive = true, multiplicity = "1")
    Constraint constraint;

    static final class Constraint {
        @Option(names = "--artifact", required = true, paramLabel = "A.domino",
                description = "compiled grammar (domino.jar compile ... --vocab MODEL_DIR/tokenizer.json)")
        Path artifact;
        @Option(names = "--spec", required = true, paramLabel = "REQUEST.json",
                description = "OpenAI-style request (response_format, tools, ...) compiled at start with Constraints.compile")
        Path spec;
    }

    @Option(names = "--json-whitespace", defaultValue = "compact", paramLabel = "compact|flexible",
            description = "with --spec: JSON whitespace (default ${DEFAULT-VALUE}: with unbounded whitespace a weak model "
                    + "can emit whitespace until the token limit)")
    String jsonWhitespace;
    @Option(names = "--prompt", required = true) String prompt;
    @Option(names = "-n", defaultValue = "1", description = "number of outputs (default ${DEFAULT-VALUE}); output i uses seed S+i")
    int outputs;
    @Option(names = "--max-tokens", defaultValue = "256", description = "token limit per output, EOS excluded (default "
            + "${DEFAULT-VALUE}); outputs always finish within it (only tokens after which the shortest completion fits)")
    int maxTokens;
    @Option(names = "--no-finish", description = "no token budget: an output may run to the limit and stop unfinished")
    boolean noFinish;
    @Option(names = "--seed", defaultValue = "0") long seed;
    @Option(names = "--temperature", defaultValue = "1.0", description = "0 = greedy (default ${DEFAULT-VALUE})")
    double temperature;
    @Option(names = "--top-p", defaultValue = "1.0") double topP;
    @Option(names = "--no-opportunistic", description = "build the full mask every step") boolean noOpportunistic;
    @Option(names = "--jump-forward", defaultValue = "bytes", paramLabel = "none|tokens|bytes",
            description = "append forced text without sampling: none, tokens (only while one token is legal), "
                    + "bytes (the runtime's forced bytes, then tokens; default)")
    String jumpForward;
    @Option(names = "--json", description = "one JSON line per output, then a summary line") boolean json;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Integer call() throws Exception {
        // every option is checked before the model and the artifact load (seconds on a real model)
        if (outputs < 1 || outputs > 1_000_000) throw new IllegalArgumentException("-n must be in [1, 1000000], got " + outputs);
        Sampling sampling = new Sampling(temperature, topP);
        ConstrainedGenerator.JumpForward jump = switch (jumpForward) {
            case "none" -> ConstrainedGenerator.JumpForward.NONE;
            case "tokens" -> ConstrainedGenerator.JumpForward.TOKENS;
            case "bytes" -> ConstrainedGenerator.JumpForward.BYTES;
            default -> throw new IllegalArgumentException("--jump-forward must be none, tokens or bytes, got '" + jumpForward + "'");
        };
        new ConstrainedGenerator.Options(maxTokens, sampling, seed, !noOpportunistic, jump);
        if (!jsonWhitespace.equals("compact") && !jsonWhitespace.equals("flexible")) {
            throw new IllegalArgumentException("--json-whitespace must be compact or flexible, got '" + jsonWhitespace + "'");
        }
        if (!Files.isRegularFile(model.resolve("config.json"))) throw new IllegalArgumentException(model + ": no config.json (not a model directory)");
        long l0 = System.nanoTime();
        Vocabulary modelVocabulary = VocabularyLoader.load(model.resolve("tokenizer.json").toString(), null).vocabulary();
        Artifact a;
        if (constraint.spec != null) {
            var options = ConstraintOptions.defaults().withJsonSchema(jsonSchemaOptions(jsonWhitespace));
            a = Constraints.compile(Files.readString(constraint.spec), modelVocabulary, options);
        } else {
            a = Artifact.load(constraint.artifact);
            if (!a.vocabulary().fingerprint().equals(modelVocabulary.fingerprint())) {
                throw new IllegalArgumentException(constraint.artifact + " was compiled for vocabulary '" + a.vocabulary().name()
                        + "', not for the model's tokenizer.json: recompile it with --vocab " + model.resolve("tokenizer.json"));
            }
        }
        double artifactMs = (System.nanoTime() - l0) / 1e6;
        long m0 = System.nanoTime();
        AbstractModel m = ModelSupport.loadModel(model.toFile(), DType.F32, DType.F32);
        double modelMs = (System.nanoTime() - m0) / 1e6;
        ConstrainedGenerator generator = new ConstrainedGenerator(m, a);
        int[] promptTokens = generator.encodePrompt(prompt);

        List<Double> forward = new ArrayList<>(), mask = new ArrayList<>(), sample = new ArrayList<>();
        int eos = 0, built = 0, skipped = 0, forced = 0, tokens = 0, passes = 0, restrictedOutputs = 0, restrictions = 0;
        for (int i = 0; i < outputs; i++) {
            var options = new ConstrainedGenerator.Options(maxTokens, sampling, seed + i, !noOpportunistic, jump, !noFinish);
            Generation g = generator.generate(promptTokens, options);
            if (g.stop() == Generation.Stop.ERROR) {
                throw new DeadEndException("output " + i + ": " + g.error());
            }
            if (g.stop() == Generation.Stop.EOS) eos++;
            built += g.masksBuilt();
            skipped += g.masksSkipped();
            forced += g.forcedTokens();
            tokens += g.tokens();
            restrictions += g.budgetRestrictions();
            if (g.budgetRestrictions() > 0) restrictedOutputs++;
            passes += g.forwardMs().length - 1;
            for (int k = 1; k < g.forwardMs().length; k++) forward.add(g.forwardMs()[k]); // decode steps, not the prompt
            for (double x : g.maskMs()) mask.add(x);
            for (double x : g.sampleMs()) sample.add(x);
            if (json) {
                ObjectNode line = JSON.createObjectNode();
                line.put("output", g.output());
                line.put("tokens", g.tokens());
                line.put("stop", g.stop().label());
                var f = line.putArray("forward_ms");
                for (double x : g.forwardMs()) f.add(round(x));
                var k = line.putArray("mask_ms");
                for (double x : g.maskMs()) k.add(round(x));
                var sm = line.putArray("sample_ms");
                for (double x : g.sampleMs()) sm.add(round(x));
                line.put("masks_built", g.masksBuilt());
                line.put("masks_skipped", g.masksSkipped());
                line.put("forced_tokens", g.forcedTokens());
                line.put("budget_restrictions", g.budgetRestrictions());
                System.out.println(JSON.writeValueAsString(line));
            } else {
                System.out.println(g.output());
            }
        }
        double fwd = median(forward), msk = median(mask);
        ObjectNode s = JSON.createObjectNode();
        s.put("outputs", outputs);
        s.put("eos", eos);
        s.put("limit", outputs - eos);
        s.put("tokens", tokens);
        s.put("forward_passes", passes);
        s.put("median_forward_ms", round(fwd));
        s.put("median_mask_ms", round(msk));
        s.put("mask_over_forward", fwd > 0 ? Math.round(msk / fwd * 1e5) / 1e5 : 0);
        s.put("median_sample_ms", round(median(sample)));
        s.put("masks_built", built);
        s.put("masks_skipped", skipped);
        s.put("forced_tokens", forced);
        s.put("budget_restrictions", restrictions);
        s.put("outputs_budget_restricted", restrictedOutputs);
        s.put(constraint.spec != null ? "vocab_and_compile_ms" : "vocab_and_artifact_load_ms", round(artifactMs));
        s.put("model_load_ms", round(modelMs));
        ObjectNode summary = JSON.createObjectNode();
        summary.set("summary", s);
        (json ? System.out : System.err).println(JSON.writeValueAsString(summary));
        return 0;
    }

    /** {@code --json-whitespace}: compact, flexible or fixed (", " and ": "). */
    static JsonSchemaOptions jsonSchemaOptions(String whitespace) {
        return switch (whitespace.toLowerCase(java.util.Locale.ROOT)) {
            case "compact" -> JsonSchemaOptions.compact();
            case "flexible" -> JsonSchemaOptions.defaults();
            case "fixed" -> JsonSchemaOptions.fixed(", ", ": ");
            default -> throw new IllegalArgumentException("--json-whitespace: expected compact, flexible or fixed, got '" + whitespace + "'");
        };
    }

    /** An output stopped in the matcher's error state: the artifact's grammar has no completion where it stopped. */
    static final class DeadEndException extends RuntimeException {
        DeadEndException(String message) { super(message); }
    }

    static double median(List<Double> xs) {
        if (xs.isEmpty()) return 0;
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private static double round(double ms) { return Math.round(ms * 1000) / 1000.0; }
}
