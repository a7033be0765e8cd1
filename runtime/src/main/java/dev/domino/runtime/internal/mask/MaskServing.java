package dev.domino.runtime.internal.mask;

/**
 * Per thread, how masks were served where a tree was missing (for {@code bench maskbench}): parts
 * walked directly ({@link DirectMask}), trees a mask built on its own thread, and trees a mask
 * waited for while another thread built them. A mask with none of these used trees only.
 */
public final class MaskServing {
    private MaskServing() {}

    /** {@link #WALKS}: terminal and counted walks computed (not found in the per-vocabulary caches). */
    public static final int DIRECT = 0, BUILT = 1, WAITED = 2, WALKS = 3;

    private static final ThreadLocal<long[]> COUNTS = ThreadLocal.withInitial(() -> new long[4]);

    public static void note(int what) { COUNTS.get()[what]++; }

    /** This thread's count so far of one kind ({@link #DIRECT}, {@link #BUILT}, {@link #WAITED} or {@link #WALKS}). */
    public static long count(int what) { return COUNTS.get()[what]; }

    /** This thread's counts so far, indexed by {@link #DIRECT}, {@link #BUILT}, {@link #WAITED}, {@link #WALKS}. */
    public static long[] snapshot() { return COUNTS.get().clone(); }
}
