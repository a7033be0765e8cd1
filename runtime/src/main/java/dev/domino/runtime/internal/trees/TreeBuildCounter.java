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

    public void built(long buildNanos) {
        trees.incrementAndGet();
        nanos.addAndGet(buildNanos);
    }

    public long trees() { return trees.get(); }

    public long nanos() { return nanos.get(); }
}
