package dev.domino.cli;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.SpeculationPriors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Learn speculation priors P(token | scanner state, parser core) from example outputs.",
        footer = {"", "CORPUS files: *.jsonl (one JSON string per line), *.json (MaskBench instance: its valid tests' data,",
                "serialized like Python's json.dumps), anything else: one output per line. Directories: their files."})
public final class TrainCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARTIFACT") Path artifactPath;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CORPUS") List<Path> corpus;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "PRIORS") Path output;

    @Option(names = "--no-eos", description = "do not end each output with EOS") boolean noEos;

    @Option(names = "--json", description = "one JSON line") boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Mixin VocabOptions vocab;

    /** Outputs learned from and outputs skipped because the grammar rejects them. */
    public record Stats(int used, int skipped, long tokens) {}

    public static Stats train(SpeculationPriors priors, Artifact artifact, List<int[]> outputs) {
        int used = 0, skipped = 0;
        long tokens = 0;
        for (int[] t : outputs) {
            if (priors.train(artifact, t)) { used++; tokens += t.length; } else skipped++;
        }
        return new Stats(used, skipped, tokens);
    }

    @Override public Integer call() throws Exception {
        Artifact artifact = Artifact.load(artifactPath, SystemPropertyDefaults.runtimeLimits());
        Tokenizer tokenizer = vocab.forArtifact(artifact);
        List<int[]> outputs = Corpus.tokenize(tokenizer, Corpus.read(corpus), !noEos);
        SpeculationPriors priors = SpeculationPriors.empty(artifact);
        Stats s = train(priors, artifact, outputs);
        priors.write(output);
        var w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("priors", output.toString());
            m.put("outputs", s.used());
            m.put("skipped_outside_grammar", s.skipped());
            m.put("tokens", s.tokens());
            m.put("contexts", priors.contexts());
            w.println(Json.write(m));
        } else {
            w.printf("trained %s: %d outputs (%d tokens), %d skipped (outside the grammar), %d contexts%n",
                    output, s.used(), s.tokens(), s.skipped(), priors.contexts());
        }
        w.flush();
        return 0;
    }
}
