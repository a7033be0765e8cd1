package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.scan.*;

import dev.domino.runtime.*;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds a lazy artifact's missing trees on a server's executor while decoding goes on (see
 * {@link Artifact#buildTreesInBackground}): the trees nearest to the states masks were last asked
 * about first (the rest of the key or string being written), then in {@link TreeOrder#prebuildOrder}.
 * A mask that needs a tree no task has started builds it itself; one that needs a tree a task is
 * building waits for that tree only (see {@link LazyTrees}).
 *
 * <p>Thread-safe. Each task runs until every tree is built or claimed, or until {@link #cancel}.
 * Builds recurse once per byte of a token: the executor's threads need an ordinary stack (the
 * JVM's default of 512 KB–1 MB is plenty for vocabularies with tokens of up to a few hundred bytes).
 */
public final class BackgroundTrees implements BackgroundBuild {
    /** Hinted neighbourhoods are cut at this many states: decoding moves on before they are all built. */
    private static final int NEAR_STATES = 256;

    private final ArtifactInternals artifact;
    private final LazyTrees lazy;
    /** Tree slots in build order (computed by the first task: it walks every terminal's automaton). */
    private int[] order;
    private int nextInOrder;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger built = new AtomicInteger();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile boolean cancelled;
    /** Set when the executor shut down under the build (tasks dropped from its queue, or interrupted). */
    private volatile boolean stopped;
    /** The executor and the tasks it has not started: a task dropped by {@code shutdownNow} never runs, and is written off. */
    private Executor executor;
    private final AtomicInteger unstarted = new AtomicInteger();
    private final java.util.List<Runnable> submitted = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The scanner state a mask last asked about (plain writes from mask threads: a hint, not a promise). */
    private volatile int hint = -1;
    /** The hint being worked through: its nearest states by distance, and the next to look at. */
    private int expanded = -1;
    private int[] near = new int[0];
    private int nextNear;

    private final int maxTokenBytes;
    /** Ints of one mask row: the scratch mask of {@link #ahead} tasks. */
    private final int maskInts;

    /**
     * Masks to compute ahead, the latest last (see {@link #ahead}). Bounded: with many requests
     * decoding at once, the oldest snapshots are dropped (their masks came already).
     */
    private final java.util.ArrayDeque<java.util.function.Predicate<int[]>> ahead = new java.util.ArrayDeque<>();
    private static final int MAX_AHEAD = 16;

    /** The vocabulary's trie (its walk caches) and size, for {@link FirstWalks}. */
    private final dev.domino.runtime.internal.vocab.VocabTrie trie;
    private final int vocabSize;
    /** Computed with the build order; null until then, and once every first walk is done. */
    private FirstWalks firstWalks;

    public BackgroundTrees(ArtifactInternals artifact, LazyTrees lazy, int maxTokenBytes, dev.domino.runtime.internal.vocab.VocabTrie trie,
                           int vocabSize) {
        this.artifact = artifact;
        this.lazy = lazy;
        this.maxTokenBytes = maxTokenBytes;
        this.trie = trie;
        this.vocabSize = vocabSize;
        this.maskInts = (vocabSize + 31) >>> 5;
        if (lazy == null) order = new int[0];
    }

    /**
     * Queues the next mask of a matcher just committed to (a snapshot that computes it into a
     * scratch row, returning false when all it walks was built). Tasks compute queued masks before
     * building anything else: whatever trees and root trees that mask walks get built, exactly
     * those, while the model's forward pass leaves the mask thread idle.
     */
    public void ahead(java.util.function.Predicate<int[]> nextMask) {
        checkDropped();
        if (done.isDone() || executor instanceof java.util.concurrent.ExecutorService es && es.isShutdown()) return; // no task would take it
        queue(nextMask);
    }

    // Guarded by the queue itself, not by this object: a task holds this object's monitor while it computes the
    // build order (milliseconds on a large schema), and a commit queueing its next mask must not wait for that.
    private void queue(java.util.function.Predicate<int[]> nextMask) {
        synchronized (ahead) {
            if (ahead.size() == MAX_AHEAD) ahead.removeFirst();
            ahead.addLast(nextMask);
        }
    }

    private java.util.function.Predicate<int[]> nextAhead() {
        synchronized (ahead) { return ahead.pollLast(); }
    }

    /**
     * The build order, computed by a background task rather than by the caller: it walks every
     * terminal's automaton (10^5 states on a Kubernetes schema), which the first mask would wait for.
     */
    private int[] order() {
        if (order != null) return order;
        List<int[]> states = TreeOrder.treeStates(artifact.terminals(), maxTokenBytes);
        // the trees outputs reach (see TreeOrder.PREBUILD_MAX_WHITESPACE): states deep in whitespace
        // runs, most of a JSON Schema's trees, are left to the masks that need them (or to hints)
        int[] byIndex = TreeOrder.prebuildOrder(artifact.terminals(), states);
        List<int[]> inOrder = new java.util.ArrayList<>(byIndex.length);
        for (int i : byIndex) inOrder.add(states.get(i));
        firstWalks = new FirstWalks(artifact.terminals(), inOrder, trie, vocabSize);
        int[] o = new int[byIndex.length];
        int n = 0;
        int[] stored = artifact.storedTreeIndex(); // per slot: the states' list is in slot order (TreeSlots)
        for (int q : byIndex) if (stored[q] < 0) o[n++] = q;
        order = java.util.Arrays.copyOf(o, n);
        return order;
    }

    public void start(Executor executor, int tasks) {
        this.executor = executor;
        running.set(tasks);
        unstarted.set(tasks);
        for (int i = 0; i < tasks; i++) {
            Runnable task = this::run;
            submitted.add(task);
            try {
                executor.execute(task);
            } catch (RuntimeException e) { // rejected: fewer tasks
                if (unstarted.getAndUpdate(v -> v > 0 ? v - 1 : v) > 0) {
                    stopped = true;
                    finishTask();
                }
            }
        }
    }

    /**
     * Writes off the tasks a shut-down executor will never run ({@code shutdownNow} drops its queue):
     * once it has terminated, or (a ThreadPoolExecutor) when none of them is left in its queue.
     * Called wherever the handle is looked at, so that it always ends.
     */
    private void checkDropped() {
        if (!(executor instanceof java.util.concurrent.ExecutorService es) || !es.isShutdown() || unstarted.get() == 0) return;
        boolean dropped = es.isTerminated();
        if (!dropped && es instanceof java.util.concurrent.ThreadPoolExecutor tpe) {
            dropped = true;
            for (Runnable r : submitted) if (tpe.getQueue().contains(r)) dropped = false;
        }
        if (!dropped) return;
        int n = unstarted.getAndSet(0);
        if (n > 0) stopped = true;
        for (int i = 0; i < n; i++) finishTask();
    }

    /** Called by masks with each live configuration's scanner state (cheap: one volatile read when unchanged). */
    public void near(int scannerState) {
        if (hint != scannerState) hint = scannerState;
    }

    private void run() {
        if (unstarted.getAndUpdate(v -> v > 0 ? v - 1 : v) == 0) return; // written off as dropped (see checkDropped)
        try {
            int[] scratch = null;
            while (!cancelled) {
                if (Thread.currentThread().isInterrupted()) { // the executor is shutting down (shutdownNow)
                    stopped = true;
                    break;
                }
                // first the masks queued by commits; then trees nearest to where masks are, then in order;
                // last the root trees the trees reference (see TokenTree). Not with the tree that references
                // them: a key's opening quote references every object's key complement, and a mask walks
                // the one the parser allows (built by the mask computed ahead, or by the mask itself)
                java.util.function.Predicate<int[]> nextMask = nextAhead();
                // then the walks of each terminal's first states, before any tree (see FirstWalks)
                if (nextMask == null && firstWalk()) continue;
                int q = nextMask == null ? next() : -1;
                int t = nextMask == null && q < 0 ? nextRoot() : -1;
                if (nextMask == null && q < 0 && t < 0) break;
                try {
                    if (nextMask != null) {
                        if (scratch == null) scratch = new int[maskInts];
                        nextMask.test(scratch);
                    } else if (q >= 0) {
                        if (lazy.buildIfUnclaimed(q) != null) built.incrementAndGet();
                    } else if (artifact.buildRootTreeIfUnclaimed(t) != null) {
                        built.incrementAndGet();
                    }
                } catch (RuntimeException | StackOverflowError e) {
                    // left unbuilt: the mask that needs it builds it and reports the error
                }
            }
        } finally {
            finishTask();
        }
    }

    /** Computes the next of {@link FirstWalks}; false once they are all done. */
    private boolean firstWalk() {
        FirstWalks w;
        synchronized (this) {
            order();
            w = firstWalks;
            if (w == null) return false;
        }
        try {
            if (w.step()) return true;
        } catch (RuntimeException | StackOverflowError e) {
            return true; // left to the mask that needs it (it reports the error)
        }
        synchronized (this) { firstWalks = null; }
        return false;
    }

    /** Terminals whose root trees some tree references, in terminal order (computed once the state trees are done). */
    private int[] roots;
    private int nextRoot;

    /** The next root tree to build, or -1 when none is left. */
    private synchronized int nextRoot() {
        if (roots == null) {
            java.util.BitSet referenced = new java.util.BitSet();
            for (TokenTree tree : artifact.storedTrees()) for (int r = 0; r < tree.rootReferenceCount(); r++) referenced.set(tree.rootTerminal(r));
            for (int q = 0; q < lazy.length(); q++) {
                TokenTree tree = lazy.ifBuilt(q);
                if (tree != null) for (int r = 0; r < tree.rootReferenceCount(); r++) referenced.set(tree.rootTerminal(r));
            }
            roots = referenced.stream().toArray();
        }
        while (nextRoot < roots.length) {
            int t = roots[nextRoot++];
            if (artifact.rootTreeIfBuilt(t) == null) return t;
        }
        return -1;
    }

    private void finishTask() {
        if (running.decrementAndGet() == 0) {
            artifact.backgroundFinished(this); // masks stop sending hints
            synchronized (ahead) { ahead.clear(); } // snapshots hold matchers: release them
            done.complete(null);
        }
    }

    /** The next unclaimed tree slot to build, or -1 when none is left. */
    private synchronized int next() {
        int h = hint;
        if (h != expanded && h > 0) {
            expanded = h;
            near = nearest(h);
            nextNear = 0;
        }
        while (nextNear < near.length) {
            int q = near[nextNear++];
            if (!lazy.claimed(q)) return q;
        }
        int[] order = order();
        while (nextInOrder < order.length) {
            int q = order[nextInOrder++];
            if (!lazy.claimed(q)) return q;
        }
        return -1;
    }

    /** The slots of up to {@link #NEAR_STATES} tree states of {@code state}'s terminal reachable from it, nearest first. */
    private int[] nearest(int state) {
        int t = artifact.stateTerminal(state);
        Terminal terminal = artifact.terminal(t);
        if (terminal.counted() != null) return new int[0]; // counted loops share a few trees
        int[] d = TreeOrder.distancesFrom(terminal.dfa(), artifact.stateLocal(state));
        long[] keys = new long[d.length];
        int n = 0;
        int offset = artifact.stateOffset(t);
        for (int s = 0; s < d.length; s++) if (d[s] > 0 && !artifact.isStored(offset + s)) keys[n++] = ((long) d[s] << 32) | s;
        java.util.Arrays.sort(keys, 0, n);
        int[] r = new int[Math.min(n, NEAR_STATES)];
        for (int i = 0; i < r.length; i++) r[i] = artifact.treeSlot(offset + (int) keys[i]);
        return r;
    }

    @Override public void cancel() { cancelled = true; }

    @Override public boolean isDone() {
        checkDropped();
        return done.isDone();
    }

    @Override public boolean isCancelled() { return isDone() && (cancelled || stopped); }

    @Override public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            checkDropped();
            long left = deadline - System.nanoTime();
            try {
                // in slices: a shut-down executor's dropped tasks are noticed while waiting
                done.get(Math.max(0, Math.min(left, TimeUnit.MILLISECONDS.toNanos(20))), TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException e) {
                if (left <= 0) return false;
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    @Override public int builtTrees() { return built.get(); }
}
