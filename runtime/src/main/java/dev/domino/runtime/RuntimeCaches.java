package dev.domino.runtime;

import dev.domino.runtime.internal.format.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.util.*;
import dev.domino.runtime.internal.vocab.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime's process-wide caches, for the embedding server: their sizes (estimated heap
 * bytes), their bounds, and clearing them. Every cache is bounded in bytes and evicts its least
 * recently used entries when full (down to three quarters of its bound), never all at once.
 * Thread-safe.
 *
 * <table>
 * <caption>caches and their default bounds ({@link RuntimeLimits#applyToProcess()} or {@link #setMaxBytes} change them; the CLI from these properties)</caption>
 * <tr><th>name</th><th>holds</th><th>default</th></tr>
 * <tr><td>{@code terminal automata}</td><td>(compiler) byte automata of terminals, shared by the grammars compiled in this process</td><td>64 MB, {@code RuntimeCaches.setMaxBytes}</td></tr>
 * <tr><td>{@code unicode categories}</td><td>(compiler) code point sets of regex {@code \p{..}} classes</td><td>4 MB</td></tr>
 * <tr><td>{@code vocabulary tries}</td><td>one byte trie per vocabulary, shared by its artifacts</td><td>512 MB, {@code -Ddomino.cache.trieBytes}</td></tr>
 * <tr><td>{@code terminal walks}</td><td>per automaton and state, what the vocabulary does inside the terminal (lazy trees)</td><td>256 MB per vocabulary, {@code -Ddomino.cache.walkBytes}</td></tr>
 * <tr><td>{@code walks by residual}, {@code walks by loop core}</td><td>walks shared by automata that look alike</td><td>64 MB each per vocabulary, {@code -Ddomino.cache.sharedWalkBytes}</td></tr>
 * <tr><td>{@code loop core walks below a first byte}</td><td>the same below one first byte</td><td>16 MB per vocabulary, {@code -Ddomino.cache.coreBelowBytes}</td></tr>
 * <tr><td>{@code loop cores}</td><td>per automaton state, its cycle as a canonical key</td><td>16 MB per vocabulary, {@code -Ddomino.cache.loopCoreBytes}</td></tr>
 * </table>
 *
 * <p>Per artifact, the parser shares states between requests up to its own bound (see
 * {@link Artifact#clearSharedParserStates()}); per trie, idle tree-building scratch (an int per
 * trie node) is pooled, at most one per core. Clearing never affects correctness: what is
 * dropped is computed again when needed.
 */
public final class RuntimeCaches {
    private RuntimeCaches() {}

    /** One cache: entries, estimated bytes, bound in bytes, entries evicted so far. */
    public record CacheInfo(String name, long entries, long bytes, long maxBytes, long evictions) {}

    /**
     * The caches, those kept per vocabulary summed over the vocabularies whose tries are cached
     * (their bound is per vocabulary).
     */
    public static List<CacheInfo> caches() {
        Map<String, long[]> sums = new LinkedHashMap<>();
        for (BoundedCache<?, ?> c : ProcessCaches.registered()) add(sums, c);
        add(sums, VocabTrie.CACHE);
        long scratch = 0;
        for (VocabTrie trie : VocabTrie.CACHE.values()) {
            for (BoundedCache<?, ?> c : trie.walks().caches()) add(sums, c);
            scratch += trie.idleCounterBytes();
        }
        List<CacheInfo> out = new ArrayList<>();
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            long[] v = e.getValue();
            out.add(new CacheInfo(e.getKey(), v[0], v[1], v[2], v[3]));
        }
        out.add(new CacheInfo("idle tree-building scratch", -1, scratch, -1, 0));
        return out;
    }

    private static void add(Map<String, long[]> sums, BoundedCache<?, ?> c) {
        long[] v = sums.computeIfAbsent(c.name(), k -> new long[] {0, 0, c.maxBytes(), 0});
        v[0] += c.size();
        v[1] += c.sizeBytes();
        v[3] += c.evictions();
    }

    /** Estimated bytes held by all caches. */
    public static long sizeBytes() {
        long n = 0;
        for (CacheInfo c : caches()) n += c.bytes();
        return n;
    }

    /**
     * Empties every cache (artifacts already loaded keep working, and keep the trie they hold;
     * lazy trees and tries are computed again on next use).
     */
    public static void clear() {
        for (BoundedCache<?, ?> c : ProcessCaches.registered()) c.clear();
        for (VocabTrie trie : VocabTrie.CACHE.values()) {
            for (BoundedCache<?, ?> c : trie.walks().caches()) c.clear();
            trie.clearIdleCounters();
        }
        VocabTrie.CACHE.clear();
        VocabularySection.clearKnown();
    }

    /**
     * Sets the bound of the caches named {@code name} (see the class comment; per-vocabulary caches:
     * of every vocabulary's, now and later), evicting at once if they are over it.
     *
     * @throws IllegalArgumentException for an unknown name or a negative bound
     */
    public static void setMaxBytes(String name, long maxBytes) {
        if (maxBytes < 0) throw new IllegalArgumentException("cache bound must be >= 0 bytes");
        for (BoundedCache<?, ?> c : ProcessCaches.registered()) {
            if (c.name().equals(name)) {
                c.setMaxBytes(maxBytes);
                return;
            }
        }
        if (name.equals(VocabTrie.CACHE.name())) {
            VocabTrie.CACHE.setMaxBytes(maxBytes);
            return;
        }
        if (!TerminalWalks.CACHE_NAMES.contains(name)) throw new IllegalArgumentException("unknown cache '" + name + "'");
        TerminalWalks.setDefaultMaxBytes(name, maxBytes);
        for (VocabTrie trie : VocabTrie.CACHE.values()) {
            for (BoundedCache<?, ?> c : trie.walks().caches()) if (c.name().equals(name)) c.setMaxBytes(maxBytes);
        }
    }
}
