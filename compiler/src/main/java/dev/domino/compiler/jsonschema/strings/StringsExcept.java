package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.util.ProcessCaches;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The strings (code points) not in a finite set, as a deterministic automaton built directly: a trie
 * over the set whose nodes accept unless they end a member, and from each node every code point
 * that does not continue a member leads to one state that takes anything.
 *
 * <p>The same language as the expression {@code () | "a" (...) | [^a] .*} per trie node, but that
 * expression carries a copy of the any-string automaton per node (with its JSON escapes, once
 * encoded) into the subset construction and minimization; this automaton has one state per trie
 * node and one more.
 */
public final class StringsExcept {
    private StringsExcept() {}

    /**
     * Per process, by the exact set of names: schemas of one family share object definitions (every
     * Kubernetes resource's metadata), and a server meets them again and again.
     */
    private static final BoundedCache<List<String>, CodePointAutomaton> CACHE =
            ProcessCaches.register(new BoundedCache<>("key complement automata", 16L << 20));

    public static CodePointAutomaton of(Set<String> names) {
        List<String> key = List.copyOf(new TreeSet<>(names));
        CodePointAutomaton hit = CACHE.get(key);
        if (hit != null) return hit;
        CodePointAutomaton a = build(key);
        long bytes = 128 + 16L * a.stateCount() + 12L * a.rangeCount();
        for (String name : key) bytes += 48 + 2L * name.length();
        return CACHE.putIfAbsent(key, a, bytes);
    }

    private static CodePointAutomaton build(List<String> names) {
        CodePointAutomaton.Builder out = new CodePointAutomaton.Builder();
        int root = out.addState(!names.contains(""));
        int any = out.addState(true);
        out.addRange(any, 0, CodePointSet.MAX, any);
        // the trie, node by node in the order of the sorted names: children of a node, by code point
        Map<Integer, TreeSet<int[]>> children = new HashMap<>();
        Map<Long, Integer> child = new HashMap<>();
        for (String name : names) { // sorted: a name comes before the names it is a prefix of
            int node = root;
            for (int i = 0; i < name.length(); ) {
                int cp = name.codePointAt(i);
                i += Character.charCount(cp);
                long key = ((long) node << 21) | cp;
                Integer next = child.get(key);
                if (next == null) {
                    boolean ends = i == name.length();
                    next = out.addState(!ends);
                    child.put(key, next);
                    children.computeIfAbsent(node, k -> new TreeSet<>((a, b) -> Integer.compare(a[0], b[0]))).add(new int[] {cp, next});
                } else if (i == name.length()) {
                    throw new IllegalStateException("names are distinct: the node of " + name + " is new");
                }
                node = next;
            }
        }
        for (int node = 0; node < out.stateCount(); node++) {
            if (node == any) continue;
            TreeSet<int[]> edges = children.get(node);
            int from = 0;
            if (edges != null) {
                for (int[] e : edges) {
                    if (e[0] > from) out.addRange(node, from, e[0] - 1, any);
                    out.addRange(node, e[0], e[0], e[1]);
                    from = e[0] + 1;
                }
            }
            if (from <= CodePointSet.MAX) out.addRange(node, from, CodePointSet.MAX, any);
        }
        return out.build();
    }
}
