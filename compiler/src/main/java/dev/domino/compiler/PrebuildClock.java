package dev.domino.compiler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The prebuild budget of a lazy compile, counted in the compiling thread's CPU time (wall time
 * where the JVM cannot measure thread CPU time): which trees an artifact stores should not depend
 * on how loaded the machine is.
 */
final class PrebuildClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

    private final long deadline;

    private PrebuildClock(long deadline) { this.deadline = deadline; }

    static PrebuildClock start(long budgetMillis) { return new PrebuildClock(now() + budgetMillis * 1_000_000L); }

    /** True once the budget is used up. */
    boolean spent() { return now() >= deadline; }

    private static long now() { return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime(); }
}
