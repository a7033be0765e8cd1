package dev.domino.runtime;


import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Masks for a whole decoding batch at once, spread over a caller-provided executor.
 *
 * <p>A {@link Matcher} is not thread-safe, but distinct matchers (forks included: they share
 * only immutable history) may run concurrently, and the {@link Artifact} they share is
 * thread-safe. Each call hands out the matchers one at a time to up to {@code parallelism}
 * executor tasks plus the calling thread (dynamic load balancing: a mask inside a JSON string
 * costs far less than one between values), and returns when every mask is filled. The caller
 * helps, so the call finishes even when the executor is saturated, rejects the tasks, or is the
 * very pool the caller runs on. Helpers linger briefly (spinning, 200 µs) for the next batch on
 * the same executor, because waking a parked thread can cost as much as the batch itself; they
 * occupy their executor threads for that long after the last batch.
 *
 * <p>Exceptions thrown by a matcher are rethrown to the caller after every other row has been
 * attempted (the first one, with later ones attached as suppressed). {@code null} matchers
 * leave their row untouched (e.g. unconstrained requests in the batch).
 *
 * <pre>{@code
 * ExecutorService pool = Executors.newFixedThreadPool(2);   // once, at server start
 * int[][] masks = new int[batch][matcher.bitmaskInts()];
 * BatchMasks.fillNextTokenBitmasks(matchers, masks, pool);
 * }</pre>
 */
public final class BatchMasks {
    private BatchMasks() {}

    /**
     * Default number of executor tasks: one per available processor but one, because the calling
     * thread works too (one more runnable thread than cores only adds switching).
     */
    /** Caller's own work before it wakes parked helpers (none lingering): see {@link #run}. */
    private static final long COLD_HANDOFF_NANOS = 150_000;

    public static int defaultParallelism() { return Math.max(1, Runtime.getRuntime().availableProcessors() - 1); }

    /** Fills {@code bitmasks[i]} (row 0 of it) with the mask of {@code matchers[i]}, in parallel. */
    public static void fillNextTokenBitmasks(Matcher[] matchers, int[][] bitmasks, Executor executor) {
        fillNextTokenBitmasks(matchers, bitmasks, executor, defaultParallelism());
    }

    /**
     * Fills {@code bitmasks[i]} with the mask of {@code matchers[i]}, using up to
     * {@code parallelism} tasks on {@code executor} plus the calling thread.
     */
    public static void fillNextTokenBitmasks(Matcher[] matchers, int[][] bitmasks, Executor executor, int parallelism) {
        if (bitmasks.length != matchers.length) {
            throw new IllegalArgumentException(matchers.length + " matchers but " + bitmasks.length + " bitmasks");
        }
        for (int i = 0; i < bitmasks.length; i++) {
            if (matchers[i] != null && bitmasks[i] == null) throw new IllegalArgumentException("bitmask " + i + " is null");
        }
        run(matchers, executor, parallelism, i -> matchers[i].fillNextTokenBitmask(bitmasks[i], 0));
    }

    /**
     * vLLM/XGrammar layout: one int array of {@code matchers.length} rows, row {@code i}
     * (starting at {@code i * bitmaskInts()}) for {@code matchers[i]}. All matchers must share
     * one vocabulary size.
     */
    public static void fillNextTokenBitmasks(Matcher[] matchers, int[] bitmask, Executor executor) {
        fillNextTokenBitmasks(matchers, bitmask, executor, defaultParallelism());
    }

    public static void fillNextTokenBitmasks(Matcher[] matchers, int[] bitmask, Executor executor, int parallelism) {
        int ints = -1;
        for (Matcher m : matchers) {
            if (m == null) continue;
            if (ints < 0) ints = m.bitmaskInts();
            else if (m.bitmaskInts() != ints) throw new IllegalArgumentException("matchers of different vocabulary sizes in one bitmask");
        }
        if (ints >= 0 && (long) ints * matchers.length > bitmask.length) {
            throw new IllegalArgumentException("bitmask has " + bitmask.length + " ints, " + matchers.length + " rows need " + (long) ints * matchers.length);
        }
        run(matchers, executor, parallelism, i -> matchers[i].fillNextTokenBitmask(bitmask, i));
    }

    @FunctionalInterface
    private interface Row { void fill(int index); }

    private static void run(Matcher[] matchers, Executor executor, int parallelism, Row row) {
        if (parallelism < 1) throw new IllegalArgumentException("parallelism must be >= 1");
        checkDistinct(matchers);
        int n = matchers.length;
        if (n == 0) return;
        if (n == 1 || executor == null) {
            for (int i = 0; i < n; i++) if (matchers[i] != null) row.fill(i);
            return;
        }
        // the caller works too, so n - 1 helpers at most are useful
        int wanted = Math.min(parallelism, n - 1);
        Job job = new Job(matchers, row, wanted + 1);
        Mailbox mailbox = Mailbox.of(executor);
        // helpers still lingering after the previous batch take the job at once; new executor
        // tasks make up the difference
        int warm = mailbox.post(job, wanted);
        if (warm < wanted) {
            // waking a parked pool thread costs the caller as much as tens of masks on a VM, so
            // a batch short enough to finish in COLD_HANDOFF_NANOS never wakes one
            job.work(0, System.nanoTime() + COLD_HANDOFF_NANOS);
        }
        for (int t = warm; t < wanted && !job.exhausted(); t++) {
            try {
                executor.execute(new Helper(mailbox, job));
            } catch (RejectedExecutionException e) {
                break; // the caller does the rest
            }
        }
        job.work(0, Long.MAX_VALUE);
        job.await();
        mailbox.close(job);
        Throwable failure = job.failure.get();
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error err) throw err;
        if (failure != null) throw new IllegalStateException(failure);
    }

    private static void checkDistinct(Matcher[] matchers) {
        if (matchers.length < 2) return;
        Map<Matcher, Integer> seen = new IdentityHashMap<>(matchers.length * 2);
        for (int i = 0; i < matchers.length; i++) {
            if (matchers[i] == null) continue;
            Integer before = seen.put(matchers[i], i);
            if (before != null) {
                throw new IllegalArgumentException("matcher at " + i + " is the same object as at " + before
                        + " (matchers are not thread-safe; fork() gives independent ones)");
            }
        }
    }

    /**
     * Per-executor handoff for helpers that linger between batches.
     *
     * <p>Why: waking a parked pool thread costs about as much as a whole 64-mask batch on a
     * virtualized machine (the idle vCPU is descheduled; docs/performance.md). So a helper that has finished its share spins for up to
     * {@link #LINGER_NANOS} waiting for the next batch posted to the same executor, and takes it
     * without a wake-up. A batch arriving later (e.g. after a long forward pass) finds no
     * lingering helper and submits fresh tasks, as before. Lingering is only an optimization: the
     * caller always works through the rows itself, so a helper that leaves at the wrong moment
     * costs parallelism, never progress.
     */
    /** See {@link RuntimeLimits#batchLingerMicros}. */
    static void setLingerMicros(long micros) { Mailbox.LINGER_NANOS = 1000L * Math.max(0, micros); }

    private static final class Mailbox {
        /** How long a helper spins for the next batch ({@link RuntimeLimits#batchLingerMicros}, default 200 µs). */
        static volatile long LINGER_NANOS = 200_000;
        private static final Map<Executor, Mailbox> BY_EXECUTOR = new java.util.WeakHashMap<>();

        /** The batch currently open for helpers, or null. */
        private final AtomicReference<Job> open = new AtomicReference<>();
        /** Helpers spinning for the next batch (each takes one slot of {@link #wantedWarm}). */
        private final AtomicInteger lingering = new AtomicInteger();
        /** Lingering helpers the open batch still wants. */
        private final AtomicInteger wantedWarm = new AtomicInteger();

        static Mailbox of(Executor executor) {
            synchronized (BY_EXECUTOR) {
                return BY_EXECUTOR.computeIfAbsent(executor, e -> new Mailbox());
            }
        }

        /** Opens {@code job} to lingering helpers; returns how many of {@code wanted} they will cover. */
        int post(Job job, int wanted) {
            int warm = Math.min(wanted, lingering.get());
            wantedWarm.set(warm);
            open.set(job);
            return warm;
        }

        void close(Job job) {
            if (open.compareAndSet(job, null)) wantedWarm.set(0);
        }

        /** Spins for the next open batch other than {@code last}; null on timeout. */
        Job awaitNext(Job last) {
            lingering.incrementAndGet();
            long until = System.nanoTime() + LINGER_NANOS;
            try {
                while (System.nanoTime() < until) {
                    Job job = open.get();
                    if (job != null && job != last && !job.exhausted()) {
                        // take a slot the caller counted on; if none is left, the batch has enough helpers
                        int slots;
                        while ((slots = wantedWarm.get()) > 0) {
                            if (wantedWarm.compareAndSet(slots, slots - 1)) return job;
                        }
                        last = job;
                    }
                    Thread.onSpinWait(); // a spinning helper must not keep runnable threads (GC, JIT, the server's own) off its core
                }
                return null;
            } finally {
                lingering.decrementAndGet();
            }
        }
    }

    /** An executor task: works on a batch, then lingers for the next one posted to the same executor. */
    private static final class Helper implements Runnable {
        private final Mailbox mailbox;
        private Job job;

        Helper(Mailbox mailbox, Job job) {
            this.mailbox = mailbox;
            this.job = job;
        }

        @Override public void run() {
            while (job != null) {
                Job done = job;
                done.run();
                // a direct executor runs helpers on the caller's own thread: lingering there would
                // only delay the caller
                job = done.caller == Thread.currentThread() ? null : mailbox.awaitNext(done);
            }
        }
    }

    /**
     * One call's rows, split into one contiguous segment per expected thread, with the completion
     * count and the first failure.
     *
     * <p>Why segments rather than one shared row counter: the same helper takes the same segment
     * batch after batch, so a matcher's state and its bitmask row stay in one core's cache (with
     * one shared counter, rows alternate between cores and every row migrates, which is slower per
     * row). A thread that finishes its own segment steals from the others, one row at
     * a time, so load balancing is kept.
     */
    private static final class Job implements Runnable {
        private static final long SPIN_NANOS = 50_000;
        /** Ints between two segment cursors, so cursors do not share a cache line. */
        private static final int PAD = 16;
        private final Matcher[] matchers;
        private final Row row;
        private final int segments;
        /** Next row to claim in segment s at index s * PAD; segment s ends where s + 1 starts. */
        private final AtomicIntegerArray cursors;
        /** Participants so far; the caller is participant 0. */
        private final AtomicInteger joined = new AtomicInteger(1);
        /**
         * Rows done (filled or failed). A thread adds its count when it runs out of rows, so
         * threads do not contend on it per row.
         */
        private final AtomicInteger done = new AtomicInteger();
        final Thread caller = Thread.currentThread();
        /** Set while the caller parks in {@link #await}: the thread that completes the batch unparks it. */
        private volatile boolean callerParked;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Job(Matcher[] matchers, Row row, int segments) {
            this.matchers = matchers;
            this.row = row;
            this.segments = segments;
            this.cursors = new AtomicIntegerArray(segments * PAD);
            for (int s = 0; s < segments; s++) cursors.set(s * PAD, start(s));
        }

        private int start(int segment) { return (int) ((long) segment * matchers.length / segments); }

        /** True once every row has been claimed (helpers arriving later have nothing to do). */
        boolean exhausted() {
            for (int s = 0; s < segments; s++) if (cursors.get(s * PAD) < start(s + 1)) return false;
            return true;
        }

        /** A helper's share: its own segment (in order of joining), then rows stolen from the others. */
        @Override public void run() { work(joined.getAndIncrement() % segments, Long.MAX_VALUE); }

        /**
         * Claims and fills rows, own segment first, until none is left or {@code deadline}
         * (System.nanoTime) has passed.
         */
        void work(int own, long deadline) {
            int mine = 0;
            try {
                for (int k = 0; k < segments; k++) {
                    int s = (own + k) % segments;
                    int end = start(s + 1);
                    for (int i; (i = cursors.getAndIncrement(s * PAD)) < end; ) {
                        mine++;
                        try {
                            if (matchers[i] != null) row.fill(i);
                        } catch (Throwable t) {
                            if (!failure.compareAndSet(null, t)) {
                                Throwable first = failure.get();
                                if (first != t) first.addSuppressed(t);
                            }
                        }
                        if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) return;
                    }
                }
            } finally {
                // volatile write of done, then read of callerParked; await() does the mirror
                // image, so one of the two sides always sees the other
                if (mine > 0 && done.addAndGet(mine) == matchers.length && callerParked) LockSupport.unpark(caller);
            }
        }

        /** Waits for rows claimed by executor threads; interrupts are deferred (the matchers are in use). */
        void await() {
            int n = matchers.length;
            // the rows still out are being filled right now (a mask takes microseconds): spin a
            // little before parking, so the caller does not pay a park/unpark round trip
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            while (done.get() < n && System.nanoTime() < spinUntil) Thread.onSpinWait();
            if (done.get() == n) return;
            boolean interrupted = false;
            callerParked = true;
            while (done.get() < n) {
                LockSupport.park(this);
                // park returns at once while the interrupt flag is set: clear it, restore it after
                if (Thread.interrupted()) interrupted = true;
            }
            callerParked = false;
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
