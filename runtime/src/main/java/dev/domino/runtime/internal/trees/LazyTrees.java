package dev.domino.runtime.internal.trees;

import dev.domino.runtime.*;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * The trees of a lazy artifact's scanner states that are built on first use, each built once
 * however many threads ask for it at the same time (single flight, per tree): the first thread
 * to ask builds it; a thread that asks while it is being built waits for that tree only, and
 * threads that need other trees build those meanwhile.
 *
 * <p>Why: with a slot that every thread filled with its own copy, a first pass of eight threads
 * over the same outputs built every tree eight times.
 *
 * <p>A build that throws leaves its slot empty (the next caller tries again) and hands the
 * error to the threads that were waiting for it; those waiting for a build given up over its
 * budget ({@link BuildBudget}) build it themselves.
 */
public final class LazyTrees {
    /** Per scanner state: null (not built), a {@link CompletableFuture} (being built) or the {@link TokenTree}. */
    private final AtomicReferenceArray<Object> slots;
    private final IntFunction<TokenTree> build;

    /** @param build builds the tree of one scanner state (called at most once per state, but for failures) */
    public LazyTrees(int states, IntFunction<TokenTree> build) {
        this.slots = new AtomicReferenceArray<>(states);
        this.build = build;
    }

    public int length() { return slots.length(); }

    /** The tree if it is built, else null (never waits, never builds). */
    public TokenTree ifBuilt(int state) {
        return slots.get(state) instanceof TokenTree t ? t : null;
    }

    /** True when the tree is built or being built. */
    public boolean claimed(int state) { return slots.get(state) != null; }

    /** The tree of {@code state}: built, waited for (when another thread is building it) or built now. */
    public TokenTree get(int state) {
        Object slot = slots.get(state);
        if (slot instanceof TokenTree t) return t;
        if (slot == null) {
            TokenTree t = buildIfUnclaimed(state);
            if (t != null) return t;
            slot = slots.get(state);
            if (slot instanceof TokenTree built) return built;
        }
        if (slot == null) return get(state); // a failed build was cleared in between: try again
        @SuppressWarnings("unchecked")
        CompletableFuture<TokenTree> building = (CompletableFuture<TokenTree>) slot;
        try {
            return building.join();
        } catch (java.util.concurrent.CompletionException e) {
            // the thread building it gave up over its budget (its slot is empty again): build it here
            if (e.getCause() instanceof BuildBudget.Exceeded) return get(state);
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /**
     * Builds the tree of {@code state} on this thread if no thread has built or started it;
     * returns it, or null when another thread had claimed it.
     */
    public TokenTree buildIfUnclaimed(int state) { return buildIfUnclaimed(state, BuildBudget.NONE); }

    /**
     * {@link #buildIfUnclaimed(int)} within {@code budgetNanos} of this thread's CPU time: throws
     * {@link BuildBudget.Exceeded} (the slot left empty) when the build runs past it.
     */
    public TokenTree buildIfUnclaimed(int state, long budgetNanos) {
        CompletableFuture<TokenTree> mine = new CompletableFuture<>();
        if (!slots.compareAndSet(state, null, mine)) return null;
        TokenTree t;
        try {
            t = BuildBudget.within(budgetNanos, build, state);
        } catch (RuntimeException | Error e) {
            slots.set(state, null);
            mine.completeExceptionally(e);
            throw e;
        }
        slots.set(state, t);
        mine.complete(t);
        return t;
    }
}
