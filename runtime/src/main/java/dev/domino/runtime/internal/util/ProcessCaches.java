package dev.domino.runtime.internal.util;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Process-wide caches of other modules (the compiler's terminal automata, ...), registered here so
 * that {@link dev.domino.runtime.RuntimeCaches} lists, bounds and clears them with the runtime's own:
 * the runtime cannot name compiler classes, so the compiler hands its caches over when it makes them.
 */
public final class ProcessCaches {
    private ProcessCaches() {}

    /** The registry of caches (not a cache itself: it holds one entry per registered cache). */
    private static final List<BoundedCache<?, ?>> REGISTERED = new CopyOnWriteArrayList<>();

    /** Registers a cache (once; a second cache with the same name is an error) and returns it. */
    public static <K, V> BoundedCache<K, V> register(BoundedCache<K, V> cache) {
        for (BoundedCache<?, ?> c : REGISTERED) {
            if (c.name().equals(cache.name())) throw new IllegalStateException("a cache named '" + cache.name() + "' is already registered");
        }
        REGISTERED.add(cache);
        return cache;
    }

    public static List<BoundedCache<?, ?>> registered() { return List.copyOf(REGISTERED); }
}
