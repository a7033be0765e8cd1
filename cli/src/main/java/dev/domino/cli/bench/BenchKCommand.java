package dev.domino.cli.bench;

import dev.domino.cli.CompilerOptions;
import dev.domino.cli.Json;

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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code domino bench k}: lookahead ablation without a model (DOMINO's Table 4, measured on the
 * grammar's own outputs). Random valid outputs, tokenized canonically, are replayed once per k;
 * at each token: the mask (time and size), and whether it allows the canonical next token (a
 * greedy decoder at that k could not have produced this tokenization where it does not).
 */
@Command(name = "k", mixinStandardHelpOptions = true,
        description = "Lookahead ablation: per k, mask time and size, and canonical tokens the k-mask refuses.")
final class BenchKCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARTIFACT",
            description = "a grammar file (compiled in memory against --vocab) or a .domino artifact (then --grammar names its grammar)")
    Path input;

    @Option(names = "--grammar", paramLabel = "GRAMMAR_FILE", description = "with a .domino ARTIFACT: the grammar it was compiled from")
    Path grammarFile;

    @Option(names = "--format", description = "gbnf, lark, regex or json-schema (default: from the file extension)") String format;

    @Option(names = "--outputs", paramLabel = "N", description = "random outputs (default: ${DEFAULT-VALUE})") int outputs = 200;

    @Option(names = "--k", split = ",", paramLabel = "K", description = "lookaheads, 'inf' for unlimited (default: 0,1,2,3,inf)")
    List<String> ks = List.of("0", "1", "2", "3", "inf");

    @Option(names = "--seed", description = "random seed (default: ${DEFAULT-VALUE})") long seed = 1;

    @Option(names = "--max-length", description = "soft length limit of an output in chars (default: ${DEFAULT-VALUE})") int maxLength = 200;

    @Option(names = "--json", description = "one JSON line per k") boolean json;

    @Option(names = "--cpu", description = "also each mask's CPU time of its thread (on a shared machine, wall time counts the time other processes run)")
    boolean cpu;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Mixin CompilerOptions compiler;

    @Override public Integer call() throws Exception {
        if (outputs < 1) throw new IllegalArgumentException("--outputs must be at least 1");
        long compileStart = System.nanoTime();
        SampledWorkload workload = new SampledWorkload(input, grammarFile, format, compiler, maxLength, seed);
        double compileMs = (System.nanoTime() - compileStart) / 1e6;
        Artifact artifact = workload.artifact;
        List<int[]> texts = new ArrayList<>();
        Vocabulary v = artifact.vocabulary();
        // the sampler knows the grammar's text but not limits counted in tokens (a lexeme's max_tokens):
        // outputs past such a limit are drawn again, a bounded number of times
        int redrawn = 0;
        for (int i = 0; i < outputs; i++) {
            int[] text = workload.nextOutput();
            while (!accepted(artifact, text, v)) {
                if (++redrawn > 20 * outputs) throw new IllegalStateException("a sampled output is not in the grammar (" + redrawn + " drawn again)");
                text = workload.nextOutput();
            }
            texts.add(text);
        }
        int[] bitmask = new int[artifact.newMatcher().bitmaskInts()];
        // warm up the JIT and build lazy trees before the first measured k
        replay(artifact, Matcher.UNLIMITED_LOOKAHEAD, texts.subList(0, Math.min(20, texts.size())), bitmask, v, false);
        var w = spec.commandLine().getOut();
        if (!json) w.printf("compile (and load) %.0f ms%n", compileMs);
        if (!json && redrawn > 0) w.printf("%d sampled outputs past a token limit drawn again%n", redrawn);
        if (!json) w.printf("%-5s %10s %10s %10s %10s %14s %12s%n", "k", "mask p50", "mask p99", "mask max", "mask mean", "allowed mean", "refused");
        for (String kText : ks) {
            int k = kText.equals("inf") ? Matcher.UNLIMITED_LOOKAHEAD : Integer.parseInt(kText);
            if (k < 0) throw new IllegalArgumentException("--k must be >= 0 or inf");
            Stats s = replay(artifact, k, texts, bitmask, v, cpu);
            double[] us = Arrays.copyOf(s.micros, s.masks);
            Arrays.sort(us);
            double mean = Arrays.stream(us).average().orElse(0);
            double p50 = us.length == 0 ? 0 : us[us.length / 2], p99 = us.length == 0 ? 0 : us[(int) Math.min(us.length - 1, us.length * 0.99)];
            double max = us.length == 0 ? 0 : us[us.length - 1];
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("k", kText);
                out.put("masks", s.masks);
                out.put("mask_us_p50", round(p50));
                out.put("mask_us_p99", round(p99));
                out.put("mask_us_max", round(max));
                out.put("compile_ms", round(compileMs));
                out.put("mask_us_mean", round(mean));
                out.put("allowed_mean", round((double) s.allowed / Math.max(1, s.masks)));
                out.put("canonical_refused", s.refused);
                out.put("outputs_with_refusal", s.outputsRefused);
                w.println(Json.write(out));
            } else {
                w.printf("%-5s %8.2f us %8.2f us %8.2f us %8.2f us %14.0f %5d of %d tokens (%d of %d outputs)%n", kText, p50, p99, max, mean,
                        (double) s.allowed / Math.max(1, s.masks), s.refused, s.masks, s.outputsRefused, texts.size());
            }
            if (cpu) {
                double[] c = Arrays.copyOf(s.cpuMicros, s.masks);
                Arrays.sort(c);
                double cMean = Arrays.stream(c).average().orElse(0);
                double c50 = c.length == 0 ? 0 : c[c.length / 2], c99 = c.length == 0 ? 0 : c[(int) Math.min(c.length - 1, c.length * 0.99)];
                double cMax = c.length == 0 ? 0 : c[c.length - 1];
                if (json) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("k", kText);
                    out.put("mask_cpu_us_p50", round(c50));
                    out.put("mask_cpu_us_p99", round(c99));
                    out.put("mask_cpu_us_max", round(cMax));
                    out.put("mask_cpu_us_mean", round(cMean));
                    w.println(Json.write(out));
                } else {
                    w.printf("%-5s %8.2f us %8.2f us %8.2f us %8.2f us   (CPU time of the masking thread)%n", kText, c50, c99, cMax, cMean);
                }
            }
        }
        w.flush();
        return 0;
    }

    private static boolean accepted(Artifact artifact, int[] tokens, Vocabulary v) {
        Matcher m = artifact.newMatcher();
        for (int tok : tokens) if (!m.acceptBytes(v.bytes(tok))) return false;
        return true;
    }

    private static double round(double x) { return Math.round(x * 100) / 100.0; }

    private static final class Stats {
        double[] micros = new double[1024], cpuMicros = new double[1024];
        int masks, refused, outputsRefused;
        long allowed;
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private static Stats replay(Artifact artifact, int k, List<int[]> texts, int[] bitmask, Vocabulary v, boolean cpu) {
        Stats s = new Stats();
        for (int[] tokens : texts) {
            Matcher m = artifact.newMatcher(k);
            boolean refused = false;
            for (int tok : tokens) {
                long c0 = cpu ? THREADS.getCurrentThreadCpuTime() : 0;
                long t0 = System.nanoTime();
                m.fillNextTokenBitmask(bitmask, 0);
                long t1 = System.nanoTime();
                long c1 = cpu ? THREADS.getCurrentThreadCpuTime() : 0;
                if (s.masks == s.micros.length) {
                    s.micros = Arrays.copyOf(s.micros, s.masks * 2);
                    s.cpuMicros = Arrays.copyOf(s.cpuMicros, s.masks * 2);
                }
                s.cpuMicros[s.masks] = (c1 - c0) / 1000.0;
                s.micros[s.masks++] = (t1 - t0) / 1000.0;
                for (int x : bitmask) s.allowed += Integer.bitCount(x);
                if ((bitmask[tok >>> 5] & (1 << tok)) == 0) {
                    s.refused++;
                    refused = true;
                }
                // follow the canonical output whatever the mask said (forced text is not bounded by k)
                if (!m.acceptBytes(v.bytes(tok))) throw new IllegalStateException("a sampled output is not in the grammar" + (m.isError() ? ": " + m.errorReason() : ""));
            }
            if (refused) s.outputsRefused++;
        }
        return s;
    }
}
