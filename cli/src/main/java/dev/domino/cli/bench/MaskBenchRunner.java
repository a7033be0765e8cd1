package dev.domino.cli.bench;

import dev.domino.cli.Errors;
import dev.domino.cli.Progress;
import dev.domino.cli.SystemPropertyDefaults;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DeepStack;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.constraints.WarmUp;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.diagnostics.ArtifactDiagnostics;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.MatcherStats;
import dev.domino.runtime.Vocabulary;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The MaskBench protocol: per schema, compile + load (TTFM); per test instance, per token,
 * compute the full mask and commit the token (TBM); a token outside the mask rejects the
 * instance, and at the end EOS must be allowed. Each schema runs on a fresh daemon thread
 * under a time limit; the measurement itself is single-threaded.
 */
public final class MaskBenchRunner {
    /** How to run. */
    public record Config(Vocabulary vocab, SourceFormat format, CompileOptions compile,
                  long timeLimitMillis, int warmup, boolean profile,
                  String stallFile, long stallMillis,
                  long gapMicros, int backgroundThreads, int buildAfterUses, long buildAfterDirectMicros) {}

    /** One schema's outcome; {@code maskUs} holds one entry per token measured. */
    static final class Result {
        String file;
        long ttfmUs;
        /** Profile: the worker thread's CPU time over the same span as {@code ttfmUs} (-1 when not measured). */
        long ttfmCpuUs = -1, parseCpuUs = -1, compileCpuUs = -1;
        double[] maskUs = new double[0];
        /** Profile: the mask thread's CPU time per token (mask + commit), in µs: TBM without the time a loaded machine kept it off the CPU. */
        double[] cpuUs = new double[0];
        /**
         * Under --profile: per mask two characters, how it was served (index into {@link #SERVED}) and the
         * terminal walks it computed ('.' none, 'a' one, 'b' two, ... 'z' 26 or more).
         */
        String servedWays = "";
        int validOk, validRejected, invalidRejected, invalidAccepted, mismatches;
        String error;
        boolean timedOut;
        // profile
        long parseNs, compileNs, serializeNs, loadNs, maskNs, commitNs, artifactBytes;
        MatcherStats.Snapshot stats;
        MatcherStats.TreeBuilds treeBuilds;
        /** Per way a mask was served (see {@link #SERVED}): masks, and their TBM in µs. */
        long[] servedMasks = new long[SERVED.length];
        double[] servedUs = new double[SERVED.length];
        /** Under --profile: the mask thread's CPU µs per way a mask was served. */
        double[] servedCpuUs = new double[SERVED.length];
        /** Profile: masks over 1 ms, those of them the thread spent 2 ms or more off the CPU, and that time. */
        long slowMasks, slowMasksOffCpu, offCpuNs;

        boolean passing() { return error == null && validRejected == 0 && invalidAccepted == 0; }

        Map<String, Object> row(boolean profile) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("file", file);
            r.put("ttfm_us", error == null ? ttfmUs : null);
            if (error == null && ttfmCpuUs >= 0) r.put("ttfm_cpu_us", ttfmCpuUs);
            r.put("mask_us", maskUs);
            if (cpuUs.length > 0) r.put("mask_cpu_us", cpuUs);
            if (!servedWays.isEmpty()) r.put("mask_served", servedWays);
            r.put("valid_ok", validOk);
            r.put("valid_rejected", validRejected);
            r.put("invalid_rejected", invalidRejected);
            r.put("invalid_accepted", invalidAccepted);
            r.put("error", error);
            if (mismatches > 0) r.put("mask_commit_mismatches", mismatches);
            Map<String, Object> served = new LinkedHashMap<>();
            for (int i = 0; i < SERVED.length; i++) if (servedMasks[i] > 0) served.put(SERVED[i], servedMasks[i]);
            r.put("served", served);
            if (profile && error == null) {
                r.put("parse_us", parseNs / 1000);
                r.put("compile_us", compileNs / 1000);
                r.put("serialize_us", serializeNs / 1000);
                r.put("load_us", loadNs / 1000);
                if (parseCpuUs >= 0) r.put("parse_cpu_us", parseCpuUs);
                if (compileCpuUs >= 0) r.put("compile_cpu_us", compileCpuUs);
                r.put("artifact_bytes", artifactBytes);
            }
            return r;
        }
    }

    /**
     * How a mask was served: by trees only; partly walked without a tree (DirectMask); a tree built on
     * the mask's thread; a tree another thread was building, waited for. Each mask counts under the
     * last of these that happened in it.
     */
    static final String[] SERVED = {"tree", "direct", "built", "waited"};

    private static int served(long[] before, long[] after) {
        if (after[dev.domino.runtime.internal.mask.MaskServing.WAITED] > before[dev.domino.runtime.internal.mask.MaskServing.WAITED]) return 3;
        if (after[dev.domino.runtime.internal.mask.MaskServing.BUILT] > before[dev.domino.runtime.internal.mask.MaskServing.BUILT]) return 2;
        if (after[dev.domino.runtime.internal.mask.MaskServing.DIRECT] > before[dev.domino.runtime.internal.mask.MaskServing.DIRECT]) return 1;
        return 0;
    }

    /** One slow mask, for the profile's list of the slowest. */
    record SlowMask(double us, String file, int test, int position, int configurations, long treeNodes, long scans,
                    long treesBuilt) {}

    private final Config config;
    private volatile String stage = "";
    private final PriorityQueue<SlowMask> slowest = new PriorityQueue<>(Comparator.comparingDouble(SlowMask::us));
    private static final int SLOWEST = 15;
    private int abandonedAlive;

    /** Serving mode: the threads that build trees in the background (null: single-threaded). */
    private final java.util.concurrent.ExecutorService background;
    private long backgroundTrees;

    MaskBenchRunner(Config config) {
        this.compiler = DominoCompiler.forVocabulary(config.vocab);
        this.config = config;
        background = config.backgroundThreads > 0 ? java.util.concurrent.Executors.newFixedThreadPool(config.backgroundThreads, r -> {
            Thread t = new Thread(null, r, "maskbench-background", 64L << 20);
            t.setDaemon(true);
            return t;
        }) : null;
    }

    private final DominoCompiler compiler;

    /** Runs every schema, handing each result to {@code sink}; returns the summary. */
    Summary run(Iterator<MaskBenchInput.Schema> schemas, int limit, Consumer<Result> sink, PrintWriter log) {
        List<MaskBenchInput.Schema> head = new ArrayList<>();
        while (head.size() < Math.max(config.warmup, 0) && schemas.hasNext() && head.size() < limit) head.add(schemas.next());
        if (!head.isEmpty()) {
            warmUpVocabulary(log);
            long warmLimit = Math.min(config.timeLimitMillis, 20_000);
            for (MaskBenchInput.Schema s : head) runWithLimit(s, warmLimit, false);
        }
        Summary summary = new Summary();
        Iterator<MaskBenchInput.Schema> all = concat(head.iterator(), schemas);
        int n = 0;
        Progress progress = Progress.forTerminal("maskbench");
        while (all.hasNext() && n < limit) {
            MaskBenchInput.Schema s = all.next();
            Result r = runWithLimit(s, config.timeLimitMillis, config.profile);
            summary.add(r);
            sink.accept(r);
            n++;
            progress.schemas(n, r.file);
        }
        progress.done();
        if (background != null) background.shutdownNow();
        summary.backgroundTrees = backgroundTrees;
        summary.slowest = new ArrayList<>(slowest);
        summary.slowest.sort(Comparator.comparingDouble(SlowMask::us).reversed());
        if (abandonedAlive > 0) {
            log.println("warning: " + abandonedAlive + " timed-out schema thread(s) could not be stopped and kept running");
        }
        return summary;
    }

    private static <T> Iterator<T> concat(Iterator<T> a, Iterator<T> b) {
        return new Iterator<>() {
            @Override public boolean hasNext() { return a.hasNext() || b.hasNext(); }
            @Override public T next() { return a.hasNext() ? a.next() : b.next(); }
        };
    }

    /** Runs one schema on a fresh daemon thread; abandons (and if possible stops) it on time-out. */
    @SuppressWarnings({"deprecation", "removal"})
    Result runWithLimit(MaskBenchInput.Schema schema, long limitMillis, boolean profile) {
        if (schema.error() != null) {
            Result r = new Result();
            r.file = schema.file();
            r.error = schema.error();
            return r;
        }
        stage = "starting";
        FutureTask<Result> task = new FutureTask<>(() -> runSchema(schema, profile));
        if (config.gapMicros > 0) {
            long tokens = 0;
            for (MaskBenchInput.Test test : schema.tests()) tokens += test.tokens().length;
            limitMillis += tokens * config.gapMicros / 1000; // the idle gaps do not count against the limit
        }
        Thread t = new Thread(null, task, "maskbench-worker", 512L << 20);
        t.setDaemon(true);
        t.start();
        try {
            return task.get(limitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            String during = stage;
            task.cancel(true);
            try {
                t.join(1000);
                if (t.isAlive()) {
                    try {
                        t.stop(); // compile code does not check interrupts; Java <= 19 can still stop it
                    } catch (UnsupportedOperationException | SecurityException ignored) {
                        // newer JDKs: the daemon thread is abandoned
                    }
                    t.join(1000);
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) abandonedAlive++;
            Result r = new Result();
            r.file = schema.file();
            r.timedOut = true;
            r.error = "time limit exceeded (" + formatSeconds(limitMillis) + " s, " + during + ")";
            return r;
        } catch (ExecutionException e) {
            Result r = new Result();
            r.file = schema.file();
            r.error = "internal error: " + Errors.describe(e.getCause());
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What a server's ConstraintCache.warmUp does at start-up: the vocabulary's trie and the walks of JSON's lexemes. */
    private void warmUpVocabulary(PrintWriter log) {
        try {
            DominoCompiler.ParsedSource parsed = DominoCompiler.parse("warm-up.json", WarmUp.SCHEMA, SourceFormat.JSON_SCHEMA, config.compile);
            WarmUp.masksAlong(compiler.compile(parsed, config.compile));
        } catch (RuntimeException e) { // a benchmark of options the warm-up schema does not suit: the schemas warm up alone
            log.println("warning: vocabulary warm-up skipped: " + Errors.describe(e));
        }
    }

    private static String formatSeconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : Double.toString(millis / 1000.0);
    }

    private Result runSchema(MaskBenchInput.Schema schema, boolean profile) {
        Result r = new Result();
        r.file = schema.file();
        stage = "compiling";
        if (config.stallFile != null && schema.file().contains(config.stallFile)) stall(config.stallMillis);
        Artifact artifact;
        try {
            long cpu0 = profile && CPU_TIME ? CPU.getCurrentThreadCpuTime() + DeepStack.calleeCpuNanos() : -1;
            long t0 = System.nanoTime();
            DominoCompiler.ParsedSource parsed = DominoCompiler.parse(schema.file(), schema.grammarText(), config.format, config.compile);
            long t1 = System.nanoTime();
            long cpu1 = cpu0 >= 0 ? CPU.getCurrentThreadCpuTime() + DeepStack.calleeCpuNanos() : -1;
            // lazy trees by default: each state's tree is built on first use, inside the timed masks,
            // except those prebuilt within the budget, inside the timed compile
            Artifact compiled = compiler.compile(parsed, config.compile);
            long t2 = System.nanoTime();
            long cpu2 = cpu0 >= 0 ? CPU.getCurrentThreadCpuTime() + DeepStack.calleeCpuNanos() : -1;
            stage = "loading";
            long t3, t4;
            if (background == null) {
                java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
                compiled.write(written);
                byte[] bytes = written.toByteArray();
                t3 = System.nanoTime();
                artifact = Artifact.load(new ByteArrayInputStream(bytes), SystemPropertyDefaults.runtimeLimits());
                t4 = System.nanoTime();
                r.artifactBytes = bytes.length;
            } else {
                // serving mode: a server that compiles a request's schema uses the compiled artifact
                // as it is (ConstraintCache does), with no trip through bytes
                artifact = compiled;
                t3 = t4 = t2;
            }
            r.ttfmUs = (t4 - t0) / 1000;
            if (cpu0 >= 0) {
                r.ttfmCpuUs = (CPU.getCurrentThreadCpuTime() + DeepStack.calleeCpuNanos() - cpu0) / 1000;
                r.parseCpuUs = (cpu1 - cpu0) / 1000;
                r.compileCpuUs = (cpu2 - cpu1) / 1000;
            }
            r.parseNs = t1 - t0;
            r.compileNs = t2 - t1;
            r.serializeNs = t3 - t2;
            r.loadNs = t4 - t3;
        } catch (Throwable e) {
            if (e instanceof ThreadDeath td) throw td;
            r.error = Errors.describe(e);
            return r;
        }
        stage = "masking";
        if (config.buildAfterUses >= 0) ArtifactDiagnostics.setBuildAfterUses(artifact, config.buildAfterUses);
        if (config.buildAfterDirectMicros >= 0) ArtifactDiagnostics.setBuildAfterDirectMicros(artifact, config.buildAfterDirectMicros);
        dev.domino.runtime.BackgroundBuild building = background == null ? null
                : artifact.buildTreesInBackground(background, config.backgroundThreads);
        try {
            runTests(schema, artifact, r, profile);
        } catch (Throwable e) {
            if (e instanceof ThreadDeath td) throw td;
            r.error = "while masking: " + Errors.describe(e);
        } finally {
            if (building != null) {
                // the next schema starts with idle background threads
                building.cancel();
                try {
                    building.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                synchronized (this) { backgroundTrees += building.builtTrees(); }
            }
        }
        return r;
    }

    private void runTests(MaskBenchInput.Schema schema, Artifact artifact, Result r, boolean profile) {
        int total = 0;
        for (MaskBenchInput.Test t : schema.tests()) total += t.tokens().length;
        double[] us = new double[total];
        double[] cpuUs = profile && CPU_TIME ? new double[total] : null;
        StringBuilder ways = profile ? new StringBuilder(total) : null;
        int n = 0;
        int vocabSize = artifact.vocabulary().size();
        MatcherStats.Snapshot work = MatcherStats.Snapshot.ZERO;
        MatcherStats.TreeBuilds builds = profile ? MatcherStats.treeBuilds(artifact) : null;
        for (int ti = 0; ti < schema.tests().size(); ti++) {
            MaskBenchInput.Test test = schema.tests().get(ti);
            Matcher m = artifact.newMatcher();
            MatcherStats stats = profile ? MatcherStats.count(m) : null;
            int[] bitmask = new int[m.bitmaskInts()];
            boolean rejected = false;
            int[] tokens = test.tokens();
            for (int i = 0; i < tokens.length; i++) {
                int tok = tokens[i];
                int configs = 0;
                MatcherStats.Snapshot s0 = null;
                MatcherStats.TreeBuilds b0 = null;
                if (profile) {
                    configs = ArtifactDiagnostics.liveConfigurations(m);
                    s0 = stats.snapshot();
                    b0 = MatcherStats.treeBuilds(artifact);
                }
                if (config.gapMicros > 0) java.util.concurrent.locks.LockSupport.parkNanos(config.gapMicros * 1000); // a GPU forward pass
                long[] served0 = dev.domino.runtime.internal.mask.MaskServing.snapshot();
                long cpu0 = profile && CPU_TIME ? CPU.getCurrentThreadCpuTime() : 0;
                long a = System.nanoTime();
                m.fillNextTokenBitmask(bitmask, 0);
                boolean inMask = tok >= 0 && tok < vocabSize && ((bitmask[tok >>> 5] >>> (tok & 31)) & 1) != 0;
                long b = System.nanoTime();
                boolean accepted = inMask && m.acceptToken(tok);
                long c = System.nanoTime();
                double tbm = Math.round((c - a) / 100.0) / 10.0;
                us[n++] = tbm;
                int way = served(served0, dev.domino.runtime.internal.mask.MaskServing.snapshot());
                r.servedMasks[way]++;
                if (ways != null) {
                    long walks = dev.domino.runtime.internal.mask.MaskServing.snapshot()[dev.domino.runtime.internal.mask.MaskServing.WALKS]
                            - served0[dev.domino.runtime.internal.mask.MaskServing.WALKS];
                    ways.append((char) ('0' + way)).append(walks == 0 ? '.' : (char) ('a' + Math.min(25, walks - 1)));
                }
                r.servedUs[way] += tbm;
                r.maskNs += b - a;
                r.commitNs += c - b;
                if (profile) {
                    long cpuNs = CPU_TIME ? CPU.getCurrentThreadCpuTime() - cpu0 : 0;
                    if (cpuUs != null) cpuUs[n - 1] = Math.round(cpuNs / 100.0) / 10.0;
                    r.servedCpuUs[way] += cpuNs / 1000.0;
                    long offCpu = CPU_TIME ? (c - a) - cpuNs : 0;
                    if (c - a > 1_000_000) {
                        r.slowMasks++;
                        if (offCpu >= 2_000_000) { r.slowMasksOffCpu++; r.offCpuNs += offCpu; }
                    }
                    MatcherStats.Snapshot d = stats.snapshot().minus(s0);
                    long built = MatcherStats.treeBuilds(artifact).minus(b0).trees();
                    noteSlow(new SlowMask(tbm, schema.file(), ti, i, configs, d.treeNodes(), d.earleyScans(), built));
                }
                if (inMask != accepted) r.mismatches++;
                if (!accepted) {
                    rejected = true;
                    break;
                }
            }
            if (profile) work = work.plus(stats.snapshot());
            boolean ok = !rejected && m.isAccepting();
            if (test.valid()) {
                if (ok) r.validOk++; else r.validRejected++;
            } else {
                if (ok) r.invalidAccepted++; else r.invalidRejected++;
            }
        }
        r.maskUs = Arrays.copyOf(us, n);
        if (cpuUs != null) r.cpuUs = Arrays.copyOf(cpuUs, n);
        if (ways != null) r.servedWays = ways.toString();
        if (profile) {
            r.stats = work;
            r.treeBuilds = MatcherStats.treeBuilds(artifact).minus(builds);
        }
    }

    /**
     * Thread CPU time, read around each mask under --profile: a mask whose wall time exceeds its CPU time
     * by milliseconds waited for a core: a preemption, not work.
     */
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = CPU.isCurrentThreadCpuTimeSupported();

    private synchronized void noteSlow(SlowMask s) {
        if (slowest.size() < SLOWEST) {
            slowest.add(s);
        } else if (s.us() > slowest.peek().us()) {
            slowest.poll();
            slowest.add(s);
        }
    }

    /** Sleeps without honouring interrupts: stands in for compile code that never checks them (tests). */
    private static void stall(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) return;
            try {
                Thread.sleep(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException ignored) {
                // keep stalling
            }
        }
    }

    // ------------------------------------------------------------------ summary

    private static final Pattern POINTER = Pattern.compile("#?(/[^\\s,;:'\"()\\]]*)+");
    private static final Pattern NUMBER = Pattern.compile("\\d+");

    /** An error message with pointers and numbers blanked, so messages of one kind group together. */
    static String normalizeError(String message) {
        String m = message.length() > 300 ? message.substring(0, 300) + "…" : message;
        m = POINTER.matcher(m).replaceAll("<ptr>");
        m = NUMBER.matcher(m).replaceAll("N");
        return m;
    }

    /** Totals over all schemas. */
    static final class Summary {
        int schemas, errors, timeouts, passing, validOk, validRejected, invalidRejected, invalidAccepted, mismatches;
        DoubleList masks = new DoubleList();
        DoubleList cpu = new DoubleList();
        DoubleList ttfm = new DoubleList();
        DoubleList ttfmCpu = new DoubleList();
        Map<String, Integer> errorKinds = new HashMap<>();
        long parseNs, compileNs, serializeNs, loadNs, maskNs, commitNs, artifactBytes;
        long slowMasks, slowMasksOffCpu, offCpuNs;
        long statMasks, statConfigs, statNodes, statScans, statDynamic, statGroups, statTokensOred, statTreesBuilt, statTreeBuildNs, statBuildsGivenUp, statGivenUpNs;
        long backgroundTrees;
        long[] servedMasks = new long[SERVED.length];
        double[] servedUs = new double[SERVED.length];
        /** Under --profile: the mask thread's CPU µs per way a mask was served. */
        double[] servedCpuUs = new double[SERVED.length];
        long masksOver1ms;
        List<SlowMask> slowest = List.of();

        void add(Result r) {
            schemas++;
            if (r.error != null) {
                errors++;
                if (r.timedOut) timeouts++;
                errorKinds.merge(normalizeError(r.error), 1, Integer::sum);
            } else {
                ttfm.add(r.ttfmUs);
                if (r.ttfmCpuUs >= 0) ttfmCpu.add(r.ttfmCpuUs);
            }
            if (r.passing()) passing++;
            validOk += r.validOk;
            validRejected += r.validRejected;
            invalidRejected += r.invalidRejected;
            invalidAccepted += r.invalidAccepted;
            mismatches += r.mismatches;
            for (double d : r.maskUs) {
                masks.add(d);
                if (d > 1000) masksOver1ms++;
            }
            for (double d : r.cpuUs) cpu.add(d);
            for (int i = 0; i < SERVED.length; i++) {
                servedMasks[i] += r.servedMasks[i];
                servedUs[i] += r.servedUs[i];
                servedCpuUs[i] += r.servedCpuUs[i];
            }
            parseNs += r.parseNs;
            compileNs += r.compileNs;
            serializeNs += r.serializeNs;
            loadNs += r.loadNs;
            maskNs += r.maskNs;
            commitNs += r.commitNs;
            artifactBytes += r.artifactBytes;
            slowMasks += r.slowMasks;
            slowMasksOffCpu += r.slowMasksOffCpu;
            offCpuNs += r.offCpuNs;
            if (r.stats != null) {
                statMasks += r.stats.masks();
                statConfigs += r.stats.configurations();
                statNodes += r.stats.treeNodes();
                statScans += r.stats.earleyScans();
                statDynamic += r.stats.dynamicChecks();
                statGroups += r.stats.groupsSeen();
                statTokensOred += r.stats.tokensOred();
                statTreesBuilt += r.treeBuilds.trees();
                statTreeBuildNs += r.treeBuilds.nanos();
                statBuildsGivenUp += r.treeBuilds.givenUp();
                statGivenUpNs += r.treeBuilds.givenUpNanos();
            }
        }

        Map<String, Object> line() {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("schemas", schemas);
            s.put("compile_errors", errors);
            s.put("timeouts", timeouts);
            s.put("passing", passing);
            s.put("valid_ok", validOk);
            s.put("valid_rejected", validRejected);
            s.put("invalid_rejected", invalidRejected);
            s.put("invalid_accepted", invalidAccepted);
            if (mismatches > 0) s.put("mask_commit_mismatches", mismatches);
            double[] m = masks.sorted();
            s.put("tokens", m.length);
            s.put("tbm_avg_us", m.length == 0 ? null : Math.round(masks.sum() / m.length * 10) / 10.0);
            s.put("tbm_p50_us", pct(m, 50));
            s.put("tbm_p90_us", pct(m, 90));
            s.put("tbm_p99_us", pct(m, 99));
            s.put("tbm_p99.9_us", pct(m, 99.9));
            s.put("tbm_over_1ms", masksOver1ms);
            if (cpu.size() > 0) {
                double[] c = cpu.sorted();
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("avg_us", Math.round(cpu.sum() / c.length * 10) / 10.0);
                e.put("p50_us", pct(c, 50));
                e.put("p99_us", pct(c, 99));
                e.put("p99.9_us", pct(c, 99.9));
                long over = 0;
                for (double d : c) if (d > 1000) over++;
                e.put("over_1ms", over);
                s.put("tbm_cpu", e);
            }
            Map<String, Object> served = new LinkedHashMap<>();
            for (int i = 0; i < SERVED.length; i++) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("masks", servedMasks[i]);
                e.put("ms", Math.round(servedUs[i] / 100) / 10.0);
                e.put("avg_us", servedMasks[i] == 0 ? null : round1(servedUs[i] / servedMasks[i]));
                if (cpu.size() > 0) {
                    e.put("cpu_ms", Math.round(servedCpuUs[i] / 100) / 10.0);
                    e.put("cpu_avg_us", servedMasks[i] == 0 ? null : round1(servedCpuUs[i] / servedMasks[i]));
                }
                served.put(SERVED[i], e);
            }
            s.put("served", served);
            double[] t = ttfm.sorted();
            s.put("ttfm_p50_us", asLong(pct(t, 50)));
            s.put("ttfm_p90_us", asLong(pct(t, 90)));
            s.put("ttfm_p99_us", asLong(pct(t, 99)));
            if (ttfmCpu.size() > 0) {
                double[] c = ttfmCpu.sorted();
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("p50_us", asLong(pct(c, 50)));
                e.put("p90_us", asLong(pct(c, 90)));
                e.put("p99_us", asLong(pct(c, 99)));
                e.put("total_ms", Math.round(ttfmCpu.sum() / 100) / 10.0);
                s.put("ttfm_cpu", e);
            }
            return s;
        }

        /** Where the time went, and how much work the masks did. */
        Map<String, Object> profile() {
            Map<String, Object> p = new LinkedHashMap<>();
            long total = parseNs + compileNs + serializeNs + loadNs + maskNs + commitNs;
            Map<String, Object> time = new LinkedHashMap<>();
            putTime(time, "parse", parseNs, total);
            putTime(time, "compile", compileNs, total);
            putTime(time, "serialize", serializeNs, total);
            putTime(time, "load", loadNs, total);
            putTime(time, "mask", maskNs, total);
            putTime(time, "commit", commitNs, total);
            p.put("time", time);
            int compiled = ttfm.size();
            p.put("artifact_bytes_avg", compiled == 0 ? null : artifactBytes / compiled);
            long tokens = masks.size();
            p.put("mask_avg_us", tokens == 0 ? null : round1(maskNs / 1000.0 / tokens));
            p.put("commit_avg_us", tokens == 0 ? null : round1(commitNs / 1000.0 / tokens));
            Map<String, Object> work = new LinkedHashMap<>();
            work.put("masks", statMasks);
            work.put("configurations_per_mask", statMasks == 0 ? null : round1((double) statConfigs / statMasks));
            work.put("tree_nodes_per_mask", statMasks == 0 ? null : round1((double) statNodes / statMasks));
            work.put("earley_scans_per_mask", statMasks == 0 ? null : round1((double) statScans / statMasks));
            work.put("dynamic_checks_per_mask", statMasks == 0 ? null : round1((double) statDynamic / statMasks));
            work.put("groups_per_mask", statMasks == 0 ? null : round1((double) statGroups / statMasks));
            work.put("tokens_ored_per_mask", statMasks == 0 ? null : round1((double) statTokensOred / statMasks));
            work.put("trees_built", statTreesBuilt);
            work.put("tree_build_ms", Math.round(statTreeBuildNs / 1e5) / 10.0);
            work.put("tree_builds_given_up", statBuildsGivenUp);
            work.put("tree_builds_given_up_cpu_ms", Math.round(statGivenUpNs / 1e5) / 10.0);
            work.put("trees_built_in_background", backgroundTrees);
            p.put("work", work);
            Map<String, Object> slowTime = new LinkedHashMap<>();
            slowTime.put("masks_over_1ms", slowMasks);
            slowTime.put("of_which_2ms_or_more_off_cpu", slowMasksOffCpu);
            slowTime.put("off_cpu_ms", Math.round(offCpuNs / 1e5) / 10.0);
            p.put("slow_masks", slowTime);
            List<Map<String, Object>> slow = new ArrayList<>();
            for (SlowMask s : slowest) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("us", s.us());
                e.put("file", s.file());
                e.put("test", s.test());
                e.put("token_index", s.position());
                e.put("configurations", s.configurations());
                e.put("tree_nodes", s.treeNodes());
                e.put("earley_scans", s.scans());
                e.put("trees_built", s.treesBuilt());
                slow.add(e);
            }
            p.put("slowest_masks", slow);
            return Map.of("profile", p);
        }

        private static void putTime(Map<String, Object> m, String key, long ns, long total) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("ms", Math.round(ns / 1e5) / 10.0);
            e.put("pct", total == 0 ? 0.0 : Math.round(ns * 1000.0 / total) / 10.0);
            m.put(key, e);
        }

        /** The most common error kinds, most frequent first. */
        List<Map.Entry<String, Integer>> topErrors(int n) {
            List<Map.Entry<String, Integer>> l = new ArrayList<>(errorKinds.entrySet());
            l.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            return l.subList(0, Math.min(n, l.size()));
        }
    }

    private static Long asLong(Double d) { return d == null ? null : Math.round(d); }

    private static double round1(double v) { return Math.round(v * 10) / 10.0; }

    /** Same percentile as MaskBench's summarize.py: {@code xs[min(n-1, int(p/100*n))]} of the sorted list. */
    static Double pct(double[] sorted, double p) {
        if (sorted.length == 0) return null;
        return sorted[Math.min(sorted.length - 1, (int) (p / 100 * sorted.length))];
    }

    /** A growable primitive list. */
    static final class DoubleList {
        private double[] a = new double[1024];
        private int n;
        private double sum;

        void add(double v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = v;
            sum += v;
        }

        int size() { return n; }
        double sum() { return sum; }

        double[] sorted() {
            double[] c = Arrays.copyOf(a, n);
            Arrays.sort(c);
            return c;
        }
    }
}
