package dev.domino.compiler;

import java.util.concurrent.Callable;

/**
 * Runs a compile step on a thread with a large stack. The front-ends, the IR passes and the
 * terminal derivation recurse over the grammar's structure (nested groups, chains of rule
 * references); a 3,000-rule chain overflowed the default 1 MB stack in TerminalDerivation. The
 * stack is reserved, not committed: a shallow grammar costs what it did. Nesting beyond
 * {@link CompileLimits#NESTING_DEPTH} is refused by the parsers before any of this recursion.
 */
public final class DeepStack {
    private DeepStack() {}

    /** Stack of the compile thread: 512 MB holds a chain of over 100,000 rule references. */
    static final long STACK_BYTES = 512L << 20;

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported();
    /** Per calling thread: the CPU nanoseconds its deep threads used (their time does not show in its own). */
    private static final ThreadLocal<long[]> CALLEE_CPU = ThreadLocal.withInitial(() -> new long[1]);

    /** CPU nanoseconds used so far by the deep threads this thread called (0 when the JVM does not measure thread CPU). */
    public static long calleeCpuNanos() { return CALLEE_CPU.get()[0]; }

    public static <T> T call(Callable<T> work) {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        long[] cpu = new long[1];
        Thread t = new Thread(null, () -> {
            try {
                CompileLimits.startClock();
                result[0] = work.call();
            } catch (Throwable e) {
                failure[0] = e;
            } finally {
                if (CPU_TIME) cpu[0] = THREADS.getCurrentThreadCpuTime();
            }
        }, Thread.currentThread().getName() + "-deep", STACK_BYTES);
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            stop(t);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("compile interrupted", e);
        } catch (Throwable e) {
            stop(t); // the caller was stopped (MaskBench's time limit): the compile must not run on alone
            throw e;
        }
        CALLEE_CPU.get()[0] += cpu[0];
        Throwable f = failure[0];
        if (f instanceof RuntimeException r) throw r;
        if (f instanceof Error err) throw err;
        if (f != null) throw new IllegalStateException(f);
        @SuppressWarnings("unchecked") T r = (T) result[0];
        return r;
    }

    /** Compile code does not check interrupts; Java 17 can still stop the thread (newer JDKs abandon it to the time limit). */
    @SuppressWarnings({"deprecation", "removal"})
    private static void stop(Thread t) {
        t.interrupt();
        try {
            t.stop();
        } catch (UnsupportedOperationException | SecurityException ignored) {
            // CompileLimits.COMPILE_SECONDS ends it
        }
    }
}
