package dev.domino.cli.bench;

import dev.domino.cli.Corpus;
import dev.domino.cli.Json;
import dev.domino.cli.SystemPropertyDefaults;
import dev.domino.cli.TrainCommand;
import dev.domino.cli.VocabOptions;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.SpeculationPriors;
import dev.domino.runtime.Speculator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "speculate", mixinStandardHelpOptions = true,
        description = {"Replay recorded outputs as a model that wrote exactly them, with count-based grammar speculation",
                "and opportunistic masking: tokens per forward pass, draft acceptance, forced tokens, masks computed."},
        footer = {"", "Files: *.jsonl (one JSON string per line), *.json (MaskBench instance), else one output per line.",
                "Long file lists: @argfile."})
final class BenchSpeculateCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARTIFACT") Path artifactPath;

    @Option(names = "--train", arity = "1..*", paramLabel = "FILE", description = "outputs to learn priors from")
    List<Path> train = new ArrayList<>();

    @Option(names = "--priors", paramLabel = "PRIORS", description = "priors from 'domino train' (combined with --train)")
    Path priorsPath;

    @Option(names = "--test", arity = "1..*", required = true, paramLabel = "FILE", description = "outputs to replay")
    List<Path> test;

    @Option(names = "--s", description = "draft tokens per forward pass (default: ${DEFAULT-VALUE})") int s = 10;

    @Option(names = "--threshold", description = "least P(token | context) for a draft (default: ${DEFAULT-VALUE})")
    double threshold = 0.5;

    @Option(names = "--online", description = "keep learning from the replayed outputs (default: priors fixed)")
    boolean online;

    @Option(names = "--skip-outside-grammar", description = "drop test outputs the grammar rejects before replaying (reported)")
    boolean skipOutside;

    @Option(names = "--no-eos", description = "outputs do not end with EOS") boolean noEos;

    @Option(names = "--json", description = "one JSON line") boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Mixin VocabOptions vocab;

    @Override public Integer call() throws Exception {
        if (s < 0) throw new IllegalArgumentException("--s must be >= 0");
        if (!(threshold > 0 && threshold <= 1)) throw new IllegalArgumentException("--threshold must be in (0, 1]");
        Artifact artifact = Artifact.load(artifactPath, SystemPropertyDefaults.runtimeLimits());
        Tokenizer tokenizer = vocab.forArtifact(artifact);
        SpeculationPriors priors = priorsPath != null ? SpeculationPriors.load(priorsPath, artifact) : SpeculationPriors.empty(artifact);
        TrainCommand.Stats trained = new TrainCommand.Stats(0, 0, 0);
        if (!train.isEmpty()) {
            trained = TrainCommand.train(priors, artifact, Corpus.tokenize(tokenizer, Corpus.read(train), !noEos));
        }
        List<int[]> outputs = Corpus.tokenize(tokenizer, Corpus.read(test), !noEos);
        int skipped = 0;
        if (skipOutside) {
            List<int[]> kept = new ArrayList<>();
            for (int[] t : outputs) {
                dev.domino.runtime.Matcher m = artifact.newMatcher();
                boolean ok = true;
                for (int x : t) if (!(ok = m.acceptToken(x))) break;
                if (ok) kept.add(t); else skipped++;
            }
            outputs = kept;
        }
        Speculator speculator = new Speculator(artifact, priors);
        SpeculationReplay.Result r = SpeculationReplay.run(speculator, outputs, s, threshold, online);
        var w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = r.toMap();
            m.put("s", s);
            m.put("threshold", threshold);
            m.put("train_outputs", trained.used());
            m.put("train_skipped", trained.skipped());
            m.put("contexts", priors.contexts());
            m.put("test_skipped_outside_grammar", skipped);
            w.println(Json.write(m));
        } else {
            w.printf("speculation replay: %s, s=%d, threshold=%s%s%n", artifactPath.getFileName(), s, threshold, online ? ", online" : "");
            w.printf("  priors              %d contexts (trained on %d outputs, %d outside the grammar skipped)%n",
                    priors.contexts(), trained.used(), trained.skipped());
            w.printf("  test outputs        %d, %d tokens%s%n", r.outputs, r.tokens,
                    skipOutside ? " (" + skipped + " outside the grammar skipped)" : "");
            w.printf("  forward passes      %d: %.3f tokens per forward pass%n", r.forwardPasses, r.tokensPerForwardPass());
            w.printf("  drafts              %d proposed, %d accepted (%.1f%%)%n", r.draftsProposed, r.draftsAccepted, 100 * r.draftAcceptance());
            w.printf("  forced tokens       %d (%.1f%% of tokens)%n", r.forcedTokens, r.tokens == 0 ? 0.0 : 100.0 * r.forcedTokens / r.tokens);
            w.printf("  masks               %d full masks computed, %d avoided by %d opportunistic checks%n",
                    r.fullMasks, r.opportunisticChecks - r.fullMasks, r.opportunisticChecks);
            w.printf("  model tokens rejected %d%s%n", r.modelTokenRejections,
                    r.modelTokenRejections == 0 ? " (constraining never overrode the model)" : " (outputs outside the grammar)");
            w.printf("  engine time         %.1f us per forward pass%n", r.forwardPasses == 0 ? 0.0 : r.engineNanos / 1e3 / r.forwardPasses);
        }
        w.flush();
        return 0;
    }
}
