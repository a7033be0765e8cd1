package dev.domino.cli;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "mask", mixinStandardHelpOptions = true,
        description = "Tokenize a prefix canonically (or take it as token ids), commit it token by token, and show the next mask.")
final class MaskCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARTIFACT") Path artifactPath;

    @Option(names = "--prefix", description = "output text so far (default: empty)") String prefix = "";

    @Option(names = "--tokens", split = ",", paramLabel = "ID", description = "output so far as token ids (special tokens too), instead of --prefix")
    int[] tokenIds;

    @Option(names = "--k", description = "lookahead k: a token may complete at most k + 1 terminals; 0 admits the next whole terminal (default: unlimited)")
    Integer lookahead;

    @Option(names = "--sample", description = "allowed tokens to show (default: ${DEFAULT-VALUE})") int sample = 20;

    @Option(names = "--json", description = "one JSON line") boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Mixin VocabOptions vocab;

    @Override public Integer call() throws Exception {
        Artifact artifact = Artifact.load(artifactPath, SystemPropertyDefaults.runtimeLimits());
        Tokenizer tokenizer = vocab.forArtifact(artifact);
        Matcher m = lookahead == null ? artifact.newMatcher() : artifact.newMatcher(lookahead);
        if (tokenIds != null && !prefix.isEmpty()) throw new IllegalArgumentException("give --prefix or --tokens, not both");
        int[] tokens = tokenIds != null ? tokenIds : prefix.isEmpty() ? new int[0] : tokenizer.encode(prefix);
        Vocabulary v = artifact.vocabulary();
        Integer rejectedAt = null;
        for (int i = 0; i < tokens.length; i++) {
            if (!m.acceptToken(tokens[i])) { rejectedAt = i; break; }
        }
        BitSet mask = m.nextTokenMask();
        boolean eos = m.isAccepting();
        List<String> shown = new ArrayList<>();
        for (int t = mask.nextSetBit(0); t >= 0 && shown.size() < sample; t = mask.nextSetBit(t + 1)) shown.add(v.display(t));
        var w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("viable", rejectedAt == null);
            out.put("rejected_at", rejectedAt);
            out.put("allowed", mask.cardinality());
            out.put("eos_allowed", eos);
            out.put("sample", shown);
            out.put("forced", new String(m.forcedBytes(), java.nio.charset.StandardCharsets.UTF_8));
            out.put("error", m.errorReason());
            w.println(Json.write(out));
        } else {
            w.printf("prefix: %d tokens%n", tokens.length);
            if (rejectedAt == null) {
                w.println("every token accepted");
            } else {
                if (m.isError()) {
                    w.printf("token %d (id %d) rejected: %s%n", rejectedAt, tokens[rejectedAt], m.errorReason());
                } else {
                    w.printf("token %d '%s' (id %d) rejected: the output is not viable from there; mask shown after %d tokens%n",
                            rejectedAt, v.display(tokens[rejectedAt]), tokens[rejectedAt], rejectedAt);
                }
            }
            w.printf("next mask allows %d of %d tokens; EOS %s%n", mask.cardinality(), v.size(), eos ? "allowed" : "not allowed");
            w.println("sample: " + String.join(" | ", shown.stream().map(s -> "'" + s + "'").toList()));
        }
        w.flush();
        if (rejectedAt != null && m.isError()) {
            // the matcher's error state: a bad token id, or a parser limit (a grammar too ambiguous): bad input, exit 2
            String reason = m.errorReason();
            spec.commandLine().getErr().println("error: token " + rejectedAt + " rejected: " + reason);
            return reason.startsWith("internal error") ? 1 : 2;
        }
        return rejectedAt == null ? 0 : 1;
    }
}
