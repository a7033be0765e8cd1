package dev.domino.runtime.internal.trees;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The lazy trees one artifact built and the time their builds took, on any thread (masks or
 * background tasks). Always on: a build takes milliseconds, two clock reads and two atomic adds do
 * not show. Thread-safe.
 */
public final class TreeBuildCounter {
    private final AtomicLong trees = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong givenUp = new AtomicLong();
    private final AtomicLong givenUpNanos = new AtomicLong();

    public void built(long buildNanos) {
        trees.incrementAndGet();
        nanos.addAndGet(buildNanos);
    }

    /** A mask gave a build up over its budget after {@code spentNanos} of CPU (see {@link BuildBudget}). */
    public void givenUp(long spentNanos) {
        givenUp.incrementAndGet();
        givenUpNanos.addAndGet(spentNanos);
    }

    public long trees() { return trees.get(); }

    /** Builds given up over their budget. */
    public long givenUp() { return givenUp.get(); }

    /** CPU time the builds given up took. */
    public long givenUpNanos() { return givenUpNanos.get(); }

    public long nanos() { return nanos.get(); }
}
