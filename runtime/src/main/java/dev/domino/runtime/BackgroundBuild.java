package dev.domino.runtime;

import java.util.concurrent.TimeUnit;

/**
 * The background tree builds of a lazy artifact ({@link Artifact#buildTreesInBackground}).
 * Thread-safe: any thread may cancel or wait.
 */
public interface BackgroundBuild {
    /** Stops the tasks after the trees they are building (masks still build what they need). */
    void cancel();

    /**
     * True once every task has finished (all trees built or claimed, or cancelled). An executor shut
     * down under the build ends it too: tasks {@code shutdownNow} dropped from its queue are written
     * off (noticed when the handle is looked at: this method, {@link #await}, or a commit), running
     * tasks stop at their thread's interrupt, and no more masks are queued to build ahead.
     */
    boolean isDone();

    /**
     * True once done if the build stopped before it finished: {@link #cancel()}, or its executor shut
     * down (tasks dropped or interrupted). Masks still build whatever trees they need.
     */
    boolean isCancelled();

    /** Waits until {@link #isDone}; false on time-out. */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /** Trees the tasks built so far. */
    int builtTrees();
}
