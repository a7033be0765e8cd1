package dev.domino.constraints;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.request.RequestSpec;
import dev.domino.compiler.request.RequestSpecException;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.BackgroundBuild;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Compiled request constraints for a server, keyed by (constraint, vocabulary fingerprint,
 * options):
 * <ul>
 *   <li><b>single flight</b>: concurrent requests for a key being compiled wait for that one compile;</li>
 *   <li><b>bounded</b> by estimated bytes ({@link ArtifactBytes}), least recently used evicted first;
 *       artifacts added with {@link #addPrebuilt} are never evicted;</li>
 *   <li><b>a compile time budget</b>, counted from the first request's arrival: past it, every waiting
 *       request gets a {@link ConstraintException} ({@link ConstraintException.Reason#TIME_BUDGET}) at
 *       once, the compile thread is interrupted (the compiler checks between automaton states and trees)
 *       and its result, should it still finish, is dropped; the next request for the key compiles again;</li>
 *   <li>compile errors are cached like artifacts (the same bad schema fails at once the next time); a compile
 *       that runs out of heap is a {@link ConstraintException.Reason#RESOURCES} failure, not cached;</li>
 *   <li>an artifact larger than the whole bound is served but not kept: counted in {@link Stats#oversized()}
 *       with a one-line warning (logger {@code dev.domino.constraints.ConstraintCache}), since every request
 *       for it compiles again (raise the bound, or prebuild it with {@link #addPrebuilt});</li>
 *   <li><b>background tree building</b> ({@link Builder#backgroundTreeThreads}, off by default): a lazy artifact's
 *       trees are built on the cache's threads while masks run, until the artifact leaves the cache;</li>
 *   <li>{@link #warmUp} builds what the first compile and the first masks for a vocabulary would (its byte trie,
 *       the JSON terminals and their walks, see {@link WarmUp}), so that a short budget does not fail the first
 *       requests and their first masks do not wait;</li>
 *   <li>counters: {@link #stats()}.</li>
 * </ul>
 * Artifacts built at build time ({@code domino compile --spec}) and specs compiled at request time
 * are served the same way: {@link #addPrebuilt} files an artifact under the request it was compiled from.
 * Thread-safe.
 */
public final class ConstraintCache implements AutoCloseable {
    private record Key(String spec, String vocabulary, String options) {}

    private static final class Entry {
        final Key key;
        final CompletableFuture<Artifact> result = new CompletableFuture<>();
        long bytes;
        boolean pinned;
        /** The thread compiling this entry, while it does (guarded by the entry). */
        Thread compiling;
        ScheduledFuture<?> watchdog;
        /** Its trees being built on the background threads, or null (guarded by the cache's entries). */
        BackgroundBuild building;

        Entry(Key key) { this.key = key; }
    }

    /**
     * Counters since the cache was made. A hit found a finished entry; a join waited for a compile in flight;
     * {@code running}: compiles running now (a timed-out compile counts until it has stopped); {@code oversized}:
     * artifacts served but not kept because each alone was larger than the bound; {@code compileCpuNanos}: CPU time of
     * the compiles that ended, on their threads and those threads' deep-stack threads (0 where the JVM does not measure thread CPU).
     */
    public record Stats(long hits, long joins, long misses, long compiles, long failures, long timeouts, long evictions,
                        long compileNanos, long bytes, int entries, int running, long oversized, long compileCpuNanos) {
        /** (hits + joins) / requests. */
        public double hitRate() {
            long requests = hits + joins + misses;
            return requests == 0 ? 0 : (double) (hits + joins) / requests;
        }
    }

    private final ConstraintOptions options;
    private final long maxBytes;
    private final long budgetNanos;
    private final ThreadPoolExecutor compilers;
    /** Builds lazy artifacts' trees, {@code backgroundTasks} tasks each; null when off. */
    private final ThreadPoolExecutor backgroundTrees;
    private final int backgroundTasks;
    private final UnaryOperator<BackgroundBuild> onBackgroundBuild;
    private final ScheduledThreadPoolExecutor watchdogs;
    private final AtomicInteger running = new AtomicInteger();
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(64, 0.75f, true); // access order
    // guarded by entries
    private long bytes, hits, joins, misses, compiles, failures, timeouts, evictions, compileNanos, oversized, compileCpuNanos;
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final System.Logger LOG = System.getLogger(ConstraintCache.class.getName());

    /** What compiles a spec (a seam for tests that need a compile to fail in a given way). */
    interface Compiler {
        Artifact compile(RequestSpec spec, Vocabulary vocabulary, ConstraintOptions options);
    }

    private final Compiler compiler;

    private ConstraintCache(Builder b, ConstraintOptions options) {
        this.options = options;
        this.maxBytes = b.maxBytes;
        this.budgetNanos = b.compileBudget.toNanos();
        this.compiler = b.compiler;
        compilers = daemonPool(b.compileThreads, "domino-constraint-compile-", 64L << 20); // grammars recurse deeply
        backgroundTasks = b.backgroundTreeThreads;
        backgroundTrees = backgroundTasks == 0 ? null : daemonPool(backgroundTasks, "domino-constraint-trees-", 0);
        onBackgroundBuild = b.onBackgroundBuild;
        watchdogs = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "domino-constraint-watchdog");
            t.setDaemon(true);
            return t;
        });
        watchdogs.setRemoveOnCancelPolicy(true);
    }

    private static ThreadPoolExecutor daemonPool(int threads, String name, long stackBytes) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(null, r, name + n.incrementAndGet(), stackBytes);
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    public static Builder builder() { return new Builder(); }

    public static final class Builder {
        private ConstraintOptions options; // null: ConstraintOptions.defaults(), or serving() with background tree threads
        private long maxBytes = 1L << 30;
        private Duration compileBudget = Duration.ofSeconds(30);
        private int compileThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int backgroundTreeThreads;
        private Compiler compiler = Constraints::compile;
        private UnaryOperator<BackgroundBuild> onBackgroundBuild = b -> b;

        Builder compiler(Compiler c) { this.compiler = c; return this; }
        /** Tests: sees (may wrap) every background build the cache starts. */
        Builder onBackgroundBuild(UnaryOperator<BackgroundBuild> c) { this.onBackgroundBuild = c; return this; }

        /** How requests compile (default {@link ConstraintOptions#defaults()}, or {@link ConstraintOptions#serving()} with background tree threads). */
        public Builder options(ConstraintOptions o) { this.options = Objects.requireNonNull(o, "options"); return this; }
        /** Bound on the estimated bytes of cached artifacts (default 1 GB). */
        public Builder maxBytes(long b) {
            if (b <= 0) throw new IllegalArgumentException("maxBytes must be > 0");
            this.maxBytes = b;
            return this;
        }
        /** Longest a compile may take, from the first request's arrival (default 30 s). */
        public Builder compileBudget(Duration d) {
            if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("compile budget must be > 0");
            this.compileBudget = d;
            return this;
        }
        /** Compiles that run at once (default: one per core); more wait in a queue, inside their budget. */
        public Builder compileThreads(int n) {
            if (n < 1) throw new IllegalArgumentException("compileThreads must be >= 1");
            this.compileThreads = n;
            return this;
        }
        /**
         * Serving mode, as {@code bench maskbench --background-threads N} measures it: {@code n} threads, shared by all
         * artifacts, build the trees of each lazy artifact (compiled, or added with {@link #addPrebuilt}) while masks run,
         * starting with what its first mask walks; a mask that needs a tree no thread has reached builds it itself.
         * Builds take the threads in arrival order; one ends when its trees are built or its artifact leaves the cache.
         * Without {@link #options}, compiles then prebuild nothing ({@link ConstraintOptions#serving()}): the first mask
         * comes sooner. Default 0: no background threads, every tree left out by the compile is built by the first mask
         * that needs it.
         */
        public Builder backgroundTreeThreads(int n) {
            if (n < 0 || n > 256) throw new IllegalArgumentException("backgroundTreeThreads must be in [0, 256], got " + n);
            this.backgroundTreeThreads = n;
            return this;
        }

        public ConstraintCache build() {
            ConstraintOptions o = options != null ? options : backgroundTreeThreads > 0 ? ConstraintOptions.serving() : ConstraintOptions.defaults();
            if (backgroundTreeThreads > 0 && !o.lazy()) {
                throw new IllegalArgumentException("backgroundTreeThreads builds the trees of lazy artifacts, but the compile options are eager "
                        + "(every tree built at compile time): use lazy options or 0 background threads");
            }
            return new ConstraintCache(this, o);
        }
    }

    public ConstraintOptions options() { return options; }

    /** Threads building lazy artifacts' trees in the background (0: none). */
    public int backgroundTreeThreads() { return backgroundTasks; }

    /**
     * Builds, on the calling thread, what the first compile and the first masks for {@code vocabulary}
     * would: its byte trie (seconds for a 128k vocabulary), the common JSON terminals and their walks
     * over the vocabulary ({@link WarmUp}), so that the first requests are not failed by a short compile
     * budget and their first masks do not wait. Caches nothing in this cache. Returns the time taken.
     */
    public Duration warmUp(Vocabulary vocabulary) {
        long t0 = System.nanoTime();
        RequestSpec warm = RequestSpec.parse("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"warm-up\", "
                + "\"schema\": " + WarmUp.SCHEMA + "}}}");
        WarmUp.masksAlong(compiler.compile(warm, vocabulary, options));
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** A matcher for the request (see {@link Constraints#newMatcher} for a vocabulary mismatch). */
    public Matcher matcher(JsonNode request, Vocabulary vocabulary) {
        return Constraints.newMatcher(artifact(request, vocabulary), vocabulary);
    }

    public Artifact artifact(JsonNode request, Vocabulary vocabulary) { return artifact(spec(() -> RequestSpec.of(request)), vocabulary); }

    public Artifact artifact(String requestJson, Vocabulary vocabulary) { return artifact(spec(() -> RequestSpec.parse(requestJson)), vocabulary); }

    private static RequestSpec spec(java.util.function.Supplier<RequestSpec> parse) {
        try {
            return parse.get();
        } catch (RequestSpecException e) {
            throw new ConstraintException(ConstraintException.Reason.INVALID_REQUEST, e.getMessage(), e);
        } catch (RuntimeException | StackOverflowError e) { // a request must never escape as anything else
            throw new ConstraintException(ConstraintException.Reason.INTERNAL, "internal error reading the request: " + e, e);
        }
    }

    /**
     * The artifact of the request's constraint for this vocabulary: cached, compiled by another
     * request right now (waits for it), or compiled now on the cache's compile threads.
     *
     * @throws ConstraintException for an invalid request, a grammar or schema that does not compile,
     *                             a compile past the budget
     */
    public Artifact artifact(RequestSpec spec, Vocabulary vocabulary) {
        Key key = new Key(spec.key(), vocabulary.fingerprint(), options.key());
        Entry e;
        boolean mine = false;
        synchronized (entries) {
            e = entries.get(key);
            if (e == null) {
                e = new Entry(key);
                entries.put(key, e);
                misses++;
                mine = true;
            } else if (e.result.isDone()) {
                hits++;
            } else {
                joins++;
            }
        }
        if (mine) start(e, spec, vocabulary);
        return await(e);
    }

    /**
     * Serves a prebuilt artifact (compiled with {@link Constraints#compile} or {@code domino compile
     * --spec}) to the requests it was compiled from; never evicted.
     *
     * @throws IllegalArgumentException if the artifact records no request, or other front-end options than this cache's
     */
    public void addPrebuilt(Artifact artifact) {
        String spec = artifact.info().options().get(Constraints.SPEC_OPTION);
        String recordedOptions = artifact.info().options().get(Constraints.OPTIONS_OPTION);
        if (spec == null || recordedOptions == null) {
            throw new IllegalArgumentException("artifact '" + artifact.info().sourceName() + "' records no request: compile it with `domino compile --spec REQUEST.json`");
        }
        if (!recordedOptions.equals(options.key())) {
            throw new IllegalArgumentException("artifact '" + artifact.info().sourceName() + "' was compiled with options " + recordedOptions
                    + ", this cache compiles with " + options.key() + ": its requests would never reach it");
        }
        Entry e = new Entry(new Key(spec, artifact.vocabulary().fingerprint(), recordedOptions));
        e.pinned = true;
        e.bytes = ArtifactBytes.estimate(artifact);
        e.result.complete(artifact);
        e.building = buildInBackground(artifact);
        synchronized (entries) {
            Entry old = entries.put(e.key, e);
            if (old != null && old.result.isDone()) bytes -= old.bytes;
            if (old != null) stopBuilding(old);
            bytes += e.bytes;
        }
    }

    public Stats stats() {
        synchronized (entries) {
            return new Stats(hits, joins, misses, compiles, failures, timeouts, evictions, compileNanos, bytes, entries.size(), running.get(),
                    oversized, compileCpuNanos);
        }
    }

    /** Stops the compile threads (compiles in flight are interrupted; their requests fail) and the background tree builds. */
    @Override public void close() {
        compilers.shutdownNow();
        watchdogs.shutdownNow();
        if (backgroundTrees != null) {
            synchronized (entries) {
                for (Entry e : entries.values()) stopBuilding(e);
            }
            backgroundTrees.shutdownNow(); // a running task stops at the interrupt, after the tree it is building
        }
    }

    // ---------------------------------------------------------------- compiling

    private void start(Entry e, RequestSpec spec, Vocabulary vocabulary) {
        long arrived = System.nanoTime();
        Future<?> task;
        try {
            task = compilers.submit(() -> compile(e, spec, vocabulary, arrived));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            fail(e, new ConstraintException(ConstraintException.Reason.INTERNAL, "the constraint cache is closed", closed), 0);
            return;
        }
        e.watchdog = watchdogs.schedule(() -> timeOut(e, task), budgetNanos, TimeUnit.NANOSECONDS);
    }

    private void compile(Entry e, RequestSpec spec, Vocabulary vocabulary, long arrived) {
        if (e.result.isDone()) return; // timed out while queued
        synchronized (e) { e.compiling = Thread.currentThread(); }
        running.incrementAndGet();
        long t0 = System.nanoTime(), cpu0 = compileCpuNow();
        boolean charged = false;
        try {
            Artifact a = compiler.compile(spec, vocabulary, options);
            addCompileCpu(compileCpuNow() - cpu0); // before the waiters get the artifact: their stats() see it
            charged = true;
            finish(e, a, System.nanoTime() - t0);
        } catch (OutOfMemoryError ex) {
            // the heap, not the request: fail its waiters now and let the next request try again
            fail(e, new ConstraintException(ConstraintException.Reason.RESOURCES, "compiling the request's constraint ran out of heap ("
                    + ex.getMessage() + "); it was not cached", null), System.nanoTime() - t0, false);
        } catch (GrammarException | IllegalArgumentException ex) {
            fail(e, new ConstraintException(ConstraintException.Reason.COMPILE_ERROR, ex.getMessage(), ex), System.nanoTime() - t0);
        } catch (RuntimeException | StackOverflowError ex) {
            if (!e.result.isDone()) { // not the interrupt of a time-out
                fail(e, new ConstraintException(ConstraintException.Reason.INTERNAL, "internal error compiling the request's constraint: " + ex, ex),
                        System.nanoTime() - t0);
            }
        } finally {
            synchronized (e) { e.compiling = null; }
            if (!charged) addCompileCpu(compileCpuNow() - cpu0);
            running.decrementAndGet();
            Thread.interrupted(); // a time-out's interrupt must not reach the next compile on this thread
        }
    }

    private void addCompileCpu(long nanos) {
        synchronized (entries) { compileCpuNanos += nanos; }
    }

    /** This thread's CPU time and its deep-stack threads' (the compile's front end and trees run there). */
    private static long compileCpuNow() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() + dev.domino.compiler.DeepStack.calleeCpuNanos() : 0;
    }

    private void finish(Entry e, Artifact a, long nanos) {
        long size = ArtifactBytes.estimate(a);
        // started before the waiters get the artifact: the build's first work is their first mask's walks
        BackgroundBuild building = e.result.isDone() ? null : buildInBackground(a);
        // completed under the lock (no dependent actions run: waiters block in get), so a time-out
        // and a finish never both count
        synchronized (entries) {
            compiles++;
            compileNanos += nanos;
            e.building = building;
            if (!e.result.complete(a)) { // timed out meanwhile: dropped
                stopBuilding(e);
                return;
            }
            if (entries.get(e.key) == e) {
                e.bytes = size;
                bytes += size;
                evict(e);
            } else {
                stopBuilding(e); // replaced by a prebuilt artifact meanwhile: served, not kept
            }
        }
        if (e.watchdog != null) e.watchdog.cancel(false);
    }

    private void fail(Entry e, ConstraintException ex, long nanos) { fail(e, ex, nanos, true); }

    private void fail(Entry e, ConstraintException ex, long nanos, boolean keep) {
        synchronized (entries) {
            failures++;
            compileNanos += nanos;
            if (!e.result.completeExceptionally(ex)) return;
            if (!keep) {
                if (entries.get(e.key) == e) entries.remove(e.key);
            } else if (entries.get(e.key) == e) {
                e.bytes = 256 + 2L * (ex.getMessage() == null ? 0 : ex.getMessage().length());
                bytes += e.bytes;
                evict(e);
            }
        }
        if (e.watchdog != null) e.watchdog.cancel(false);
    }

    private void timeOut(Entry e, Future<?> task) {
        ConstraintException ex = new ConstraintException(ConstraintException.Reason.TIME_BUDGET,
                "compiling the request's constraint took longer than the budget of " + TimeUnit.NANOSECONDS.toMillis(budgetNanos)
                        + " ms; it was stopped", null);
        synchronized (entries) {
            if (!e.result.completeExceptionally(ex)) return;
            timeouts++;
            if (entries.get(e.key) == e) entries.remove(e.key);
        }
        task.cancel(false); // still queued: never runs
        synchronized (e) {
            if (e.compiling != null) e.compiling.interrupt();
        }
    }

    /** Evicts least recently used finished entries (never {@code keep}, never pinned ones) until within the bound. */
    private void evict(Entry keep) {
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Entry old = it.next().getValue();
            if (old == keep || old.pinned || !old.result.isDone()) continue;
            it.remove();
            bytes -= old.bytes;
            evictions++;
            stopBuilding(old);
        }
        if (bytes > maxBytes && !keep.pinned) { // larger than the whole bound alone: served, not kept
            entries.remove(keep.key);
            bytes -= keep.bytes;
            evictions++;
            oversized++;
            stopBuilding(keep);
            if (Long.bitCount(oversized) == 1) { // 1st, 2nd, 4th, 8th...: visible, never a flood
                LOG.log(System.Logger.Level.WARNING, "ConstraintCache: an artifact of " + (keep.bytes >> 20) + " MB is larger than the cache's bound of "
                        + (maxBytes >> 20) + " MB: served, not kept, so each request for it compiles again (" + oversized
                        + " so far; raise maxBytes or prebuild it with addPrebuilt)");
            }
        }
    }

    /** Starts building a lazy artifact's trees on the background threads; null when off or nothing is left to build. */
    private BackgroundBuild buildInBackground(Artifact a) {
        if (backgroundTrees == null || !a.isLazy()) return null;
        return onBackgroundBuild.apply(a.buildTreesInBackground(backgroundTrees, backgroundTasks));
    }

    /** An entry left the cache (or its artifact was never kept): its build would only hold the artifact and a thread. */
    private static void stopBuilding(Entry e) {
        if (e.building != null) e.building.cancel();
        e.building = null;
    }

    private Artifact await(Entry e) {
        try {
            Artifact a = e.result.getNow(null);
            if (a != null) return a;
            // the watchdog ends the wait at the budget; the grace covers a watchdog that could not run
            return e.result.get(budgetNanos + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof ConstraintException c) {
                throw new ConstraintException(c.reason(), c.getMessage(), c); // this request's stack, the compile's cause
            }
            throw new ConstraintException(ConstraintException.Reason.INTERNAL, String.valueOf(ex.getCause()), ex.getCause());
        } catch (java.util.concurrent.CompletionException ex) {
            if (ex.getCause() instanceof ConstraintException c) throw new ConstraintException(c.reason(), c.getMessage(), c);
            throw new ConstraintException(ConstraintException.Reason.INTERNAL, String.valueOf(ex.getCause()), ex.getCause());
        } catch (TimeoutException ex) {
            timeOut(e, new CompletableFuture<>());
            throw new ConstraintException(ConstraintException.Reason.TIME_BUDGET, "compile budget exceeded", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new ConstraintException(ConstraintException.Reason.INTERNAL, "interrupted while waiting for the compile", ex);
        }
    }
}
