package dev.domino.runtime;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Masks for a whole decoding batch at once, spread over a caller-provided executor.
 *
 * <p>A {@link Matcher} is not thread-safe, but distinct matchers (forks included: they share
 * only immutable history) may run concurrently, and the {@link Artifact} they share is
 * thread-safe. Each call hands out the matchers one at a time to up to {@code parallelism}
 * executor tasks plus the calling thread (dynamic load balancing: a mask inside a JSON string
 * costs far less than one between values), and returns when every mask is filled. The caller
 * helps, so the call finishes even when the executor is saturated, rejects the tasks, or is the
 * very pool the caller runs on.
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
        Job job = new Job(matchers, row);
        // the caller works too, so n - 1 helpers at most are useful
        int tasks = Math.min(parallelism, n - 1);
        for (int t = 0; t < tasks; t++) {
            try {
                executor.execute(job);
            } catch (RejectedExecutionException e) {
                break; // the caller does the rest
            }
        }
        job.run();
        job.await();
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

    /** One call's shared work queue: an index counter, a completion latch, the first failure. */
    private static final class Job implements Runnable {
        private static final long SPIN_NANOS = 50_000;
        private final Matcher[] matchers;
        private final Row row;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch done;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Job(Matcher[] matchers, Row row) {
            this.matchers = matchers;
            this.row = row;
            this.done = new CountDownLatch(matchers.length);
        }

        @Override public void run() {
            int n = matchers.length;
            for (int i; (i = next.getAndIncrement()) < n; ) {
                try {
                    if (matchers[i] != null) row.fill(i);
                } catch (Throwable t) {
                    if (!failure.compareAndSet(null, t)) {
                        Throwable first = failure.get();
                        if (first != t) first.addSuppressed(t);
                    }
                } finally {
                    done.countDown();
                }
            }
        }

        /** Waits for rows claimed by executor threads; interrupts are deferred (the matchers are in use). */
        void await() {
            // the rows still out are being filled right now (a mask takes microseconds): spin a
            // little before parking, so the caller does not pay a park/unpark round trip
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            while (done.getCount() > 0 && System.nanoTime() < spinUntil) Thread.onSpinWait();
            boolean interrupted = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
