package dev.domino.cli.bench;

import dev.domino.cli.VocabOptions;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.RuntimeCaches;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * {@code domino bench cache-soak}: a server's memory over many distinct schemas. N requests drawn
 * at random from S generated JSON schemas (objects of enums of words, patterns, integer ranges,
 * arrays, nested objects: distinct terminals per schema), each served by one {@link ConstraintCache}
 * bounded in bytes, with a matcher and a few masks per request. Prints the heap after full GCs at
 * the start, every N/10 requests, and after {@code close()} and {@link RuntimeCaches#clear()}: the heap
 * must plateau under the bounds and come back near the start.
 */
@Command(name = "cache-soak", mixinStandardHelpOptions = true,
        description = "Many requests over many schemas through one ConstraintCache: GC'd heap every N/10 requests and after clearing.")
final class BenchCacheSoakCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--requests", paramLabel = "N", description = "requests (default: ${DEFAULT-VALUE})") int requests = 100_000;
    @Option(names = "--schemas", paramLabel = "S", description = "distinct schemas (default: ${DEFAULT-VALUE})") int schemas = 1000;
    @Option(names = "--cache-mb", description = "the cache's bound in MB (default: ${DEFAULT-VALUE})") long cacheMb = 256;
    @Option(names = "--zipf", paramLabel = "EXPONENT",
            description = "draw schemas by popularity, the k-th most popular with weight 1/k^EXPONENT (0: uniform; default: ${DEFAULT-VALUE})")
    double zipf = 0;
    @Option(names = "--seed", description = "random seed (default: ${DEFAULT-VALUE})") long seed = 1;
    @Mixin VocabOptions vocab;

    static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
            "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor"};

    /** A schema of its own per index: property names, enum words and bounds all depend on it. */
    static String schema(int i) {
        Random r = new Random(1_000_003L * i + 17);
        StringBuilder s = new StringBuilder("{\"type\":\"object\",\"properties\":{");
        int props = 2 + r.nextInt(5);
        List<String> names = new ArrayList<>();
        for (int p = 0; p < props; p++) {
            String name = WORDS[r.nextInt(WORDS.length)] + "_" + i + "_" + p;
            names.add(name);
            if (p > 0) s.append(',');
            s.append('"').append(name).append("\":");
            switch (r.nextInt(5)) {
                case 0 -> { // an enum of strings, as in the 50-string enums
                    s.append("{\"enum\":[");
                    int k = 5 + r.nextInt(46);
                    for (int e = 0; e < k; e++) s.append(e > 0 ? "," : "").append('"').append(WORDS[r.nextInt(WORDS.length)]).append('-').append(i).append('-').append(e).append('"');
                    s.append("]}");
                }
                case 1 -> s.append("{\"type\":\"string\",\"pattern\":\"^[a-").append((char) ('c' + r.nextInt(20))).append("]{1,").append(2 + r.nextInt(30)).append("}$\"}");
                case 2 -> s.append("{\"type\":\"integer\",\"minimum\":").append(-r.nextInt(1000)).append(",\"maximum\":").append(r.nextInt(100_000)).append('}');
                case 3 -> s.append("{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"maxItems\":").append(1 + r.nextInt(9)).append('}');
                default -> s.append("{\"type\":\"object\",\"properties\":{\"k").append(i).append("\":{\"type\":\"string\",\"maxLength\":")
                        .append(1 + r.nextInt(40)).append("}},\"additionalProperties\":false}");
            }
        }
        s.append("},\"required\":[\"").append(names.get(0)).append("\"],\"additionalProperties\":false}");
        return "{\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"s" + i + "\",\"schema\":" + s + "}}}";
    }

    @Override public Integer call() throws Exception {
        var w = spec.commandLine().getOut();
        Tokenizer tok = vocab.load();
        double start = gcHeapMb();
        w.printf("start (vocabulary loaded): heap %.1f MB%n", start);
        long t0 = System.nanoTime();
        Random rnd = new Random(seed);
        double[] cumulative = new double[schemas];
        for (int k = 0; k < schemas; k++) cumulative[k] = (k == 0 ? 0 : cumulative[k - 1]) + Math.pow(k + 1, -zipf);
        long failures = 0;
        ConstraintCache.Stats stats;
        try (ConstraintCache cache = ConstraintCache.builder().options(ConstraintOptions.defaults().withPrebuildMillis(0))
                .maxBytes(cacheMb << 20).compileThreads(1).build()) {
            w.printf("warm-up: %d ms%n", cache.warmUp(tok.vocabulary()).toMillis());
            long step = Math.max(1, requests / 10);
            for (int n = 1; n <= requests; n++) {
                int pick = java.util.Arrays.binarySearch(cumulative, rnd.nextDouble() * cumulative[schemas - 1]);
                String request = schema(Math.min(schemas - 1, pick < 0 ? -pick - 1 : pick));
                try {
                    Artifact a = cache.artifact(request, tok.vocabulary());
                    Matcher m = a.newMatcher();
                    m.nextTokenMask();
                    if (m.acceptString("{")) m.nextTokenMask();
                } catch (ConstraintException e) {
                    failures++;
                }
                if (n % step == 0) {
                    ConstraintCache.Stats st = cache.stats();
                    w.printf("after %7d requests: heap %7.1f MB; cache %d entries, %.1f MB, %d compiles, %d evictions, %d oversized; "
                                    + "runtime caches %.1f MB; %.0f s%n", n, gcHeapMb(), st.entries(), st.bytes() / 1e6 / 1.048576, st.compiles(),
                            st.evictions(), st.oversized(), RuntimeCaches.sizeBytes() / 1e6 / 1.048576, (System.nanoTime() - t0) / 1e9);
                    w.flush();
                }
            }
            stats = cache.stats();
        }
        double afterClose = gcHeapMb();
        RuntimeCaches.clear();
        double afterClear = gcHeapMb();
        w.printf("%d requests over %d schemas in %.0f s: %d compiles, %d failures, hit rate %.3f%n", requests, schemas,
                (System.nanoTime() - t0) / 1e9, stats.compiles(), failures, stats.hitRate());
        w.printf("after close(): heap %.1f MB; after RuntimeCaches.clear(): heap %.1f MB (start %.1f MB, %+.1f MB)%n",
                afterClose, afterClear, start, afterClear - start);
        w.flush();
        return failures == 0 ? 0 : 1;
    }

    private static double gcHeapMb() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return Math.round(memory.getHeapMemoryUsage().getUsed() / 1e5 / 1.048576) / 10.0;
    }
}
