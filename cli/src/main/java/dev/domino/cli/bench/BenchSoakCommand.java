package dev.domino.cli.bench;

import dev.domino.cli.CompilerOptions;
import dev.domino.cli.Json;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.MatcherStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code domino bench soak}: a long-running server's memory. Random valid outputs of the
 * grammar (its sentence sampler), tokenized canonically, each decoded by its own matcher with a
 * mask and a commit at every token (and EOS at the end), several requests interleaved token by
 * token; every N/10 requests the heap after a full GC and the parser states the artifact and
 * the live matchers keep reachable. Memory must plateau.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Many requests on one artifact: GC'd heap and reachable parser states every N/10 requests (memory must plateau).")
final class BenchSoakCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARTIFACT",
            description = "a grammar file (compiled in memory against --vocab) or a .domino artifact (then --grammar names its grammar)")
    Path input;

    @Option(names = "--grammar", paramLabel = "GRAMMAR_FILE", description = "with a .domino ARTIFACT: the grammar it was compiled from (outputs are sampled from it)")
    Path grammarFile;

    @Option(names = "--format", description = "gbnf, lark, regex or json-schema (default: from the file extension)") String format;

    @Option(names = "--requests", paramLabel = "N", description = "requests (default: ${DEFAULT-VALUE})") int requests = 10_000;

    @Option(names = "--concurrent", paramLabel = "C", description = "requests in flight, interleaved token by token (default: ${DEFAULT-VALUE})")
    int concurrent = 4;

    @Option(names = "--seed", description = "random seed (default: ${DEFAULT-VALUE})") long seed = 1;

    @Option(names = "--max-length", description = "soft length limit of an output in chars (default: ${DEFAULT-VALUE})") int maxLength = 200;

    @Option(names = "--json", description = "one JSON line") boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Mixin CompilerOptions compiler;

    @Override public Integer call() throws Exception {
        if (requests < 10) throw new IllegalArgumentException("--requests must be at least 10");
        if (concurrent < 1) throw new IllegalArgumentException("--concurrent must be at least 1");
        SampledWorkload workload = new SampledWorkload(input, grammarFile, format, compiler, maxLength, seed);
        Artifact artifact = workload.artifact;

        int[] eos = artifact.vocabulary().eosIds();
        if (eos.length == 0) throw new IllegalArgumentException("the vocabulary has no EOS token: pass --eos ID");
        Matcher[] live = new Matcher[concurrent];
        int[][] tokens = new int[concurrent][];
        int[] next = new int[concurrent];
        int[] bitmask = new int[artifact.newMatcher().bitmaskInts()];
        long started = 0, finished = 0, tokenCount = 0, refused = 0;
        List<Double> heapMb = new ArrayList<>();
        List<Long> states = new ArrayList<>();
        long step = requests / 10;
        long t0 = System.nanoTime();
        while (finished < requests) {
            for (int i = 0; i < concurrent; i++) {
                if (live[i] == null) {
                    if (started == requests) continue;
                    started++;
                    live[i] = artifact.newMatcher();
                    tokens[i] = workload.nextOutput();
                    next[i] = 0;
                }
                Matcher m = live[i];
                m.fillNextTokenBitmask(bitmask, 0);
                int tok = next[i] < tokens[i].length ? tokens[i][next[i]] : eos[0];
                boolean inMask = (bitmask[tok >>> 5] & (1 << tok)) != 0;
                boolean accepted = inMask && m.acceptToken(tok);
                tokenCount++;
                if (accepted && next[i] < tokens[i].length) {
                    next[i]++;
                    continue;
                }
                if (!accepted) refused++; // a sampler output the grammar refuses: a bug somewhere; counted, request ends
                live[i] = null;
                tokens[i] = null;
                if (++finished % step == 0) {
                    List<Matcher> inFlight = new ArrayList<>();
                    for (Matcher x : live) if (x != null) inFlight.add(x);
                    heapMb.add(gcHeapMb());
                    states.add(MatcherStats.reachableParserStates(artifact, inFlight));
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("requests", requests);
        out.put("heap_mb", heapMb);
        out.put("states", states);
        out.put("tokens", tokenCount);
        out.put("refused", refused);
        out.put("seconds", Math.round(seconds * 10) / 10.0);
        var w = spec.commandLine().getOut();
        if (json) {
            w.println(Json.write(out));
        } else {
            w.printf("%d requests (%d tokens, %d refused) in %.1f s%n", requests, tokenCount, refused, seconds);
            for (int i = 0; i < heapMb.size(); i++) {
                w.printf("  after %7d requests: heap %7.1f MB, parser states %d%n", (i + 1) * step, heapMb.get(i), states.get(i));
            }
        }
        w.flush();
        return refused == 0 ? 0 : 1;
    }

    /** Used heap after full collections, in MB (one decimal). */
    private static double gcHeapMb() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        return Math.round(memory.getHeapMemoryUsage().getUsed() / 1e5) / 10.0;
    }
}
