package dev.domino.runtime;

import java.util.concurrent.TimeUnit;

/**
 * The background tree builds of a lazy artifact ({@link Artifact#buildTreesInBackground}).
 * Thread-safe: any thread may cancel or wait.
 */
public interface BackgroundBuild {
    /** Stops the tasks after the trees they are building (masks still build what they need). */
    void cancel();

    /** True once every task has finished (all trees built or claimed, or cancelled). */
    boolean isDone();

    /** Waits until {@link #isDone}; false on time-out. */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /** Trees the tasks built so far. */
    int builtTrees();
}
