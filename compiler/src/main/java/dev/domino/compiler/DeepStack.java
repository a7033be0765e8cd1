package dev.domino.compiler;

import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a compile step on a thread with a large stack. The front-ends, the IR passes and the
 * terminal derivation recurse over the grammar's structure (nested groups, chains of rule
 * references); a 3,000-rule chain overflowed the default 1 MB stack in TerminalDerivation. The
 * stack is reserved, not committed: a shallow grammar costs what it did. Nesting beyond
 * {@link CompileLimits#NESTING_DEPTH} is refused by the parsers before any of this recursion.
 *
 * <p>The threads are reused: a per-request compile calls this twice (parse, compile), and starting
 * and joining a thread cost the caller about 150 µs of CPU and the new thread about 120 µs more on
 * the machines measured, a tenth of a small schema's time to first mask. A thread left idle
 * {@link #KEEP_ALIVE_SECONDS} ends (and with it the stack a deep grammar committed); at most
 * {@link #MAX_IDLE} wait. What a compile inherits from its caller's thread (the compile limits in
 * force) is handed over with each call, not at the thread's start.
 */
public final class DeepStack {
    private DeepStack() {}

    /** Stack of the compile thread: 512 MB holds a chain of over 100,000 rule references. */
    static final long STACK_BYTES = 512L << 20;

    /** Seconds an idle compile thread waits for the next call before it ends. */
    static final long KEEP_ALIVE_SECONDS = 10;

    /** Idle compile threads kept at most (more calls at once start more threads; the extra end after their call). */
    static final int MAX_IDLE = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported();
    /** Per calling thread: the CPU nanoseconds its deep threads used (their time does not show in its own). */
    private static final ThreadLocal<long[]> CALLEE_CPU = ThreadLocal.withInitial(() -> new long[1]);

    /** CPU nanoseconds used so far by the deep threads this thread called (0 when the JVM does not measure thread CPU). */
    public static long calleeCpuNanos() { return CALLEE_CPU.get()[0]; }

    public static <T> T call(Callable<T> work) {
        Job job = new Job(work, CompileLimits.current());
        Worker w = IDLE.pollFirst(); // taken out of IDLE: this caller alone hands it a job
        if (w != null) {
            w.jobs.add(job);
        } else {
            w = new Worker(job);
            w.start();
        }
        try {
            while (!job.done.await(1, TimeUnit.SECONDS)) {
                // a thread stopped between two calls never runs the one it was handed: no caller waits for it forever
                if (!w.isAlive()) job.fail(new IllegalStateException("the compile thread ended before the compile did"));
            }
        } catch (InterruptedException e) {
            job.stop();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("compile interrupted", e);
        } catch (Throwable e) {
            job.stop(); // the caller was stopped (MaskBench's time limit): the compile must not run on alone
            throw e;
        }
        CALLEE_CPU.get()[0] += job.cpu;
        Throwable f = job.failure;
        if (f instanceof RuntimeException r) throw r;
        if (f instanceof Error err) throw err;
        if (f != null) throw new IllegalStateException(f);
        @SuppressWarnings("unchecked") T r = (T) job.result;
        return r;
    }

    private static final ConcurrentLinkedDeque<Worker> IDLE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();
    private static final AtomicInteger SERIAL = new AtomicInteger();

    /** Compile threads started so far (tests: calls reuse idle ones). */
    static int threadsStarted() { return SERIAL.get(); }

    /** One call: its work, the caller's compile limits, and what came out. */
    private static final class Job {
        final Callable<?> work;
        final CompileLimits.Values limits;
        final CountDownLatch done = new CountDownLatch(1);
        /** The thread running it while it runs (null before and after): what {@link #stop} stops. */
        volatile Thread runner;
        /** Set when the caller gave up waiting: a job not started yet is not run. */
        volatile boolean cancelled;
        Object result;
        Throwable failure;
        long cpu;

        Job(Callable<?> work, CompileLimits.Values limits) {
            this.work = work;
            this.limits = limits;
        }

        void run() {
            long cpu0 = CPU_TIME ? THREADS.getCurrentThreadCpuTime() : 0;
            runner = Thread.currentThread();
            try {
                if (cancelled) throw new IllegalStateException("compile interrupted before it started");
                CompileLimits.startClock();
                result = CompileLimits.in(limits, () -> {
                    try {
                        return work.call();
                    } catch (RuntimeException | Error e) {
                        throw e;
                    } catch (Exception e) {
                        throw new Checked(e);
                    }
                });
            } catch (Checked e) {
                failure = e.getCause();
            } catch (Throwable e) {
                failure = e;
            } finally {
                runner = null;
                if (CPU_TIME) cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        /** Lets the caller go on with the result (after the thread is idle again, so that the caller's next call finds it). */
        void finish() { done.countDown(); }

        /** Ends the call with {@code e} unless it ended already. */
        synchronized void fail(Throwable e) {
            if (done.getCount() == 0) return;
            failure = e;
            done.countDown();
        }

        /** Compile code does not check interrupts; Java 17 can still stop the thread (newer JDKs abandon it to the time limit). */
        @SuppressWarnings({"deprecation", "removal"})
        void stop() {
            cancelled = true;
            Thread t = runner;
            if (t == null) return;
            t.interrupt();
            try {
                t.stop();
            } catch (UnsupportedOperationException | SecurityException ignored) {
                // CompileLimits.COMPILE_SECONDS ends it
            }
        }
    }

    /** A checked exception of the work, carried out of {@link CompileLimits#in}. */
    private static final class Checked extends RuntimeException {
        Checked(Exception cause) { super(cause); }
    }

    /** A compile thread: runs its first job, then waits idle for more until {@link #KEEP_ALIVE_SECONDS} pass. */
    private static final class Worker extends Thread {
        /** The next job, put by the one caller that took this thread out of {@link #IDLE}. */
        final java.util.concurrent.BlockingQueue<Job> jobs = new java.util.concurrent.ArrayBlockingQueue<>(1);
        private Job first;

        Worker(Job first) {
            super(null, null, "domino-compile-" + SERIAL.incrementAndGet(), STACK_BYTES);
            this.first = first;
            setDaemon(true);
        }

        @Override public void run() {
            Job job = first;
            first = null;
            while (job != null) {
                job.run();
                boolean idle = enterIdle();
                job.finish();
                job = idle ? awaitJob() : null;
            }
        }

        /** Joins the idle threads unless {@link #MAX_IDLE} wait already (then this thread ends). */
        private boolean enterIdle() {
            if (IDLE_COUNT.incrementAndGet() > MAX_IDLE) {
                IDLE_COUNT.decrementAndGet();
                return false;
            }
            IDLE.addFirst(this);
            return true;
        }

        /** The next job, or null once idle for {@link #KEEP_ALIVE_SECONDS} (this thread then ends). */
        private Job awaitJob() {
            while (true) {
                try {
                    Job j = jobs.poll(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
                    if (j != null || IDLE.remove(this)) {
                        IDLE_COUNT.decrementAndGet();
                        return j;
                    }
                    // taken out of IDLE as it timed out: the job is on its way
                } catch (InterruptedException e) {
                    // an interrupt meant for the job it ran: ignored while idle (a caller may be handing it a job)
                }
            }
        }
    }
}
