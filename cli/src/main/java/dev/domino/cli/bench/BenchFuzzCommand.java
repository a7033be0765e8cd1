package dev.domino.cli.bench;

import dev.domino.runtime.Vocabulary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code domino bench fuzz --cases N}: runs {@link Fuzz} cases (grammar text, JSON Schemas, artifact
 * bytes) and counts outcomes; a crash (an exception the CLI does not classify) or a hang (a case
 * over {@code --case-timeout}) is printed with its seed and input. Exit code 1 if there was any.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
        description = "Fuzz the compiler and runtime with mutated grammars, schemas and artifacts; count crashes and hangs.")
final class BenchFuzzCommand implements java.util.concurrent.Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--cases", description = "number of cases (default: ${DEFAULT-VALUE})") long cases = 10_000;
    @Option(names = "--seed", description = "first seed (case i uses seed + i; default: ${DEFAULT-VALUE})") long seed = 1;
    @Option(names = "--case-timeout", paramLabel = "SECONDS", description = "a case running longer is a hang (default: ${DEFAULT-VALUE})")
    int caseTimeout = 30;
    @Option(names = "--threads", description = "cases run in parallel (default: ${DEFAULT-VALUE})") int threads = 1;
    @Option(names = "--errors", paramLabel = "N", description = "print the N most common error messages (default: ${DEFAULT-VALUE})")
    int errors = 0;
    @Option(names = "--requests", description = "fuzz OpenAI-style requests through a ConstraintCache instead (see RequestFuzz)")
    boolean requests;

    @Override public Integer call() throws Exception {
        var out = spec.commandLine().getOut();
        Vocabulary vocab = Fuzz.smallVocabulary();
        List<byte[]> artifacts = requests ? List.of() : Fuzz.artifactSeeds(vocab);
        Map<Fuzz.Kind, Map<Fuzz.Outcome, AtomicInteger>> counts = new EnumMap<>(Fuzz.Kind.class);
        for (Fuzz.Kind k : Fuzz.Kind.values()) {
            counts.put(k, new EnumMap<>(Fuzz.Outcome.class));
            for (Fuzz.Outcome o : Fuzz.Outcome.values()) counts.get(k).put(o, new AtomicInteger());
        }
        AtomicInteger hangs = new AtomicInteger();
        Map<String, Integer> messages = new java.util.HashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "fuzz");
            t.setDaemon(true); // a hung case must not keep the process alive
            return t;
        });
        long t0 = System.nanoTime();
        long next = seed;
        long end = seed + cases;
        int batch = Math.max(1, threads) * 4;
        while (next < end) {
            long from = next;
            long to = Math.min(end, from + batch);
            next = to;
            @SuppressWarnings("unchecked") Future<Fuzz.Result>[] f = new Future[(int) (to - from)];
            for (long s = from; s < to; s++) {
                long caseSeed = s;
                f[(int) (s - from)] = pool.submit(() -> requests ? RequestFuzz.run(caseSeed, vocab) : Fuzz.run(caseSeed, vocab, artifacts));
            }
            for (int i = 0; i < f.length; i++) {
                try {
                    Fuzz.Result r = f[i].get(caseTimeout, TimeUnit.SECONDS);
                    counts.get(r.kind()).get(r.outcome()).incrementAndGet();
                    if (errors > 0 && r.error() != null) {
                        String m = r.error().getClass().getSimpleName() + ": " + String.valueOf(r.error().getMessage())
                                .replaceAll("[0-9]+", "N").replaceAll("/.*/", "/../");
                        messages.merge(m.length() > 110 ? m.substring(0, 110) : m, 1, Integer::sum);
                    }
                    if (r.kind() == Fuzz.Kind.ARTIFACT && r.outcome() == Fuzz.Outcome.BAD_INPUT) {
                        // loaded, then refused at mask time: the load-time checks missed something
                        out.println("LATE seed " + (from + i) + ": " + r.describe());
                    }
                    if (r.outcome() == Fuzz.Outcome.TIMEOUT) out.println("TIMEOUT seed " + (from + i) + ": " + r.describe());
                    if (r.outcome() == Fuzz.Outcome.CRASH) {
                        out.println("CRASH seed " + (from + i) + ": " + r.describe());
                        if (r.error() != null) r.error().printStackTrace(out);
                    }
                } catch (TimeoutException e) {
                    hangs.incrementAndGet();
                    f[i].cancel(true);
                    out.println("HANG seed " + (from + i) + " (over " + caseTimeout + " s)");
                }
            }
            if (((next - seed) % 10_000) < batch) {
                out.printf("%d cases, %.0f s%n", next - seed, (System.nanoTime() - t0) / 1e9);
                out.flush();
            }
        }
        pool.shutdownNow();
        long crashes = 0;
        StringBuilder by = new StringBuilder();
        for (var e : counts.entrySet()) {
            by.append(' ').append(e.getKey().name().toLowerCase()).append('{');
            for (var o : e.getValue().entrySet()) by.append(o.getKey().name().toLowerCase()).append('=').append(o.getValue().get()).append(' ');
            by.setLength(by.length() - 1);
            by.append('}');
            crashes += e.getValue().get(Fuzz.Outcome.CRASH).get();
            hangs.addAndGet(e.getValue().get(Fuzz.Outcome.TIMEOUT).get()); // a compile past its budget: a hang by another name
        }
        messages.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(errors)
                .forEach(e -> out.printf("%7d  %s%n", e.getValue(), e.getKey()));
        out.printf("fuzz: %d cases in %.1f s, %d crashes, %d hangs;%s%n", cases, (System.nanoTime() - t0) / 1e9, crashes, hangs.get(), by);
        out.flush();
        return crashes == 0 && hangs.get() == 0 ? 0 : 1;
    }
}
