package dev.domino.runtime.internal.util;

import dev.domino.runtime.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A concurrent cache bounded in (estimated) bytes, evicting the least recently used entries
 * when full: down to three quarters of the bound, so a full cache loses its coldest quarter,
 * never everything at once (the caches this replaces emptied completely at a count, and every
 * artifact then rebuilt its walks at once). Reads take no lock; an eviction sorts the entries
 * by last use under one lock, amortized over the quarter of the bound inserted since.
 *
 * <p>An entry's size may grow after insertion ({@link #addBytes}), for values filled lazily
 * (per automaton state).
 */
public final class BoundedCache<K, V> {
    private final String name;
    private volatile long maxBytes;
    private final ConcurrentHashMap<K, Entry<V>> map = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final Object evictLock = new Object();

    private static final class Entry<V> {
        public final V value;
        public final AtomicLong bytes;
        public volatile long lastUse;
        public Entry(V value, long bytes, long now) { this.value = value; this.bytes = new AtomicLong(bytes); this.lastUse = now; }
    }

    public BoundedCache(String name, long maxBytes) {
        this.name = name;
        setMaxBytes(maxBytes);
    }

    public String name() { return name; }

    public long maxBytes() { return maxBytes; }

    public void setMaxBytes(long max) {
        if (max < 0) throw new IllegalArgumentException("cache " + name + ": maximum bytes must be >= 0");
        maxBytes = max;
        evictIfFull();
    }

    /** The value, or null; marks it used. */
    public V get(K key) {
        Entry<V> e = map.get(key);
        if (e == null) return null;
        e.lastUse = clock.get(); // a plain read of the clock: recency within one insertion is enough
        return e.value;
    }

    /** The value kept for the key: {@code value} unless another thread put one first. */
    public V putIfAbsent(K key, V value, long valueBytes) {
        Entry<V> fresh = new Entry<>(value, valueBytes, clock.incrementAndGet());
        Entry<V> raced = map.putIfAbsent(key, fresh);
        if (raced != null) {
            raced.lastUse = clock.get();
            return raced.value;
        }
        bytes.addAndGet(valueBytes);
        evictIfFull();
        return value;
    }

    /** The value for the key, computed (outside any lock) and kept when absent. */
    public V computeIfAbsent(K key, Function<K, V> compute, ToLongFunction<V> sizeOf) {
        V v = get(key);
        if (v != null) return v;
        v = compute.apply(key);
        return putIfAbsent(key, v, sizeOf.applyAsLong(v));
    }

    /** Adds to the size of the key's entry (a value that grew); nothing if it was evicted. */
    public void addBytes(K key, long delta) {
        Entry<V> e = map.get(key);
        if (e == null) return;
        e.bytes.addAndGet(delta);
        bytes.addAndGet(delta);
        evictIfFull();
    }

    public long sizeBytes() { return bytes.get(); }

    public int size() { return map.size(); }

    public long evictions() { return evictions.get(); }

    public void clear() {
        synchronized (evictLock) {
            for (K k : new ArrayList<>(map.keySet())) remove(k);
        }
    }

    /** The values (a snapshot), e.g. to reach nested caches. */
    public List<V> values() {
        List<V> out = new ArrayList<>();
        for (Entry<V> e : map.values()) out.add(e.value);
        return out;
    }

    private void remove(K key) {
        Entry<V> e = map.remove(key);
        if (e != null) bytes.addAndGet(-e.bytes.get());
    }

    private void evictIfFull() {
        if (bytes.get() <= maxBytes) return;
        synchronized (evictLock) {
            if (bytes.get() <= maxBytes) return;
            List<Map.Entry<K, Entry<V>>> entries = new ArrayList<>(map.entrySet());
            entries.sort((a, b) -> Long.compare(a.getValue().lastUse, b.getValue().lastUse));
            long target = maxBytes - maxBytes / 4;
            for (Map.Entry<K, Entry<V>> e : entries) {
                if (bytes.get() <= target) break;
                remove(e.getKey());
                evictions.incrementAndGet();
            }
        }
    }
}
