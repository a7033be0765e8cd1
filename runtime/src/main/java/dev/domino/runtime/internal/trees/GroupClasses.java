package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.util.*;

import dev.domino.runtime.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Regroups one tree node's groups (terminal → tokens ending inside it) by the exact set of
 * terminals each token ends inside. A node after a JSON value may have a group for each of 100
 * optional keys that can follow, and each of those groups holds the same few hundred whitespace
 * and comma tokens; a mask would OR them 100 times. Regrouped, those tokens form one group whose
 * terminal class is "any of the 100 keys", and each key keeps only its own tokens.
 *
 * <p>Exact: a token is allowed at the node iff the parser accepts one of the terminals it ends
 * inside, and that is what a class group checks. Only id-list sets are regrouped; bitmap sets
 * (a string's characters) are ORed whole and stay as they are.
 */
public final class GroupClasses {
    private GroupClasses() {}

    /** Fewer list groups than this: nothing worth regrouping. */
    public static final int MIN_GROUPS = 3;
    /** Regroup only when at least this many token entries repeat across the node's groups. */
    public static final int MIN_REPEATED = 64;
    /** A group's fixed cost in a mask, in units of one token's bit (the set lookup, the loop). */
    public static final int GROUP_COST = 8;

    /**
     * One group of a node: the terminals its tokens end inside (sorted; one or more), the tokens,
     * and per token (ascending ids) a value that must hold in every one of those terminals (an
     * annotated tree's copies, see {@link TokenTree#hasCopies()}), or null.
     */
    public record Group(int[] terminals, TokenSet tokens, int[] values) {
        public static Group single(int terminal, TokenSet tokens, int[] values) { return new Group(new int[] {terminal}, tokens, values); }
    }

    /** Per-thread scratch indexed by token id; only the entries a call touched are reset. */
    private static final class Scratch {
        public int[] count = new int[0];
        public int[] offset = new int[0];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * The node's groups (one terminal each, ascending terminals), regrouped when many tokens
     * repeat across them; otherwise as given. With values, a token joins a class only when its
     * value is the same in every group that holds it. {@code intern} maps each new set to a shared
     * equal one.
     */
    public static List<Group> regroup(List<Group> groups, int vocabSize, java.util.function.UnaryOperator<TokenSet> intern) {
        List<Group> out = new ArrayList<>();
        List<Group> lists = new ArrayList<>();
        long entries = 0;
        for (Group g : groups) {
            if (g.tokens().isBitmap()) {
                out.add(g);
            } else {
                lists.add(g);
                entries += g.tokens().size();
            }
        }
        if (lists.size() < MIN_GROUPS || entries < MIN_REPEATED) { out.addAll(lists); return out; }

        Scratch s = SCRATCH.get();
        if (s.count.length < vocabSize) { s.count = new int[vocabSize]; s.offset = new int[vocabSize]; }
        int[] count = s.count, offset = s.offset;
        // tokens in first-seen order (deterministic), with how many groups hold each
        int[] touched = new int[(int) Math.min(entries, vocabSize)];
        int distinct = 0;
        for (Group g : lists) {
            for (int id : g.tokens().ids()) if (count[id]++ == 0) touched[distinct++] = id;
        }
        try {
            if (entries - distinct < MIN_REPEATED) { out.addAll(lists); return out; }
            // each token's groups (and values), in group order, as a slice of flat arrays
            int next = 0;
            for (int i = 0; i < distinct; i++) { offset[touched[i]] = next; next += count[touched[i]]; }
            int[] member = new int[next], value = new int[next];
            for (int gi = 0; gi < lists.size(); gi++) {
                int[] ids = lists.get(gi).tokens().ids(), values = lists.get(gi).values();
                for (int i = 0; i < ids.length; i++) {
                    int at = offset[ids[i]]++;
                    member[at] = gi;
                    value[at] = values == null ? 0 : values[i];
                }
            }
            // offset[id] now points past the token's slice: its slice is [offset - count, offset)
            Map<Slice, IntList> bySignature = new LinkedHashMap<>();
            for (int i = 0; i < distinct; i++) {
                int id = touched[i];
                Slice key = new Slice(member, value, offset[id] - count[id], offset[id]);
                bySignature.computeIfAbsent(key, k -> new IntList()).add(id);
            }
            // worth it only if a mask would do clearly less work: per group an overhead, a check per
            // terminal (at worst), a bit per token
            long before = 0, after = 0;
            for (Group g : lists) before += GROUP_COST + 1 + g.tokens().size();
            for (Map.Entry<Slice, IntList> c : bySignature.entrySet()) {
                after += (GROUP_COST + c.getKey().to - c.getKey().from + c.getValue().size)
                        * (c.getKey().uniformValue() ? 1 : c.getKey().to - c.getKey().from);
            }
            if (after * 5 > before * 4) { out.addAll(lists); return out; }
            boolean annotated = lists.get(0).values() != null;
            // tokens whose value differs between their groups stay in one group per terminal
            List<List<long[]>> leftover = new ArrayList<>();
            for (int gi = 0; gi < lists.size(); gi++) leftover.add(new ArrayList<>());
            for (Map.Entry<Slice, IntList> c : bySignature.entrySet()) {
                Slice k = c.getKey();
                int[] ids = c.getValue().toArray();
                Arrays.sort(ids);
                int n = k.to - k.from;
                if (n > 1 && !k.uniformValue()) {
                    for (int i = k.from; i < k.to; i++) {
                        for (int id : ids) leftover.get(k.members[i]).add(new long[] {id, k.values[i]});
                    }
                    continue;
                }
                int[] terminals = new int[n];
                for (int i = 0; i < n; i++) terminals[i] = lists.get(k.members[k.from + i]).terminals()[0];
                int[] values = null;
                if (annotated) { values = new int[ids.length]; Arrays.fill(values, k.values[k.from]); }
                out.add(new Group(terminals, n == 1 ? TokenSet.of(ids, vocabSize) : intern.apply(TokenSet.of(ids, vocabSize)), values));
            }
            for (int gi = 0; gi < lists.size(); gi++) {
                List<long[]> l = leftover.get(gi);
                if (l.isEmpty()) continue;
                l.sort((x, y) -> Long.compare(x[0], y[0]));
                int[] ids = new int[l.size()], values = new int[l.size()];
                for (int i = 0; i < ids.length; i++) { ids[i] = (int) l.get(i)[0]; values[i] = (int) l.get(i)[1]; }
                out.add(Group.single(lists.get(gi).terminals()[0], TokenSet.of(ids, vocabSize), annotated ? values : null));
            }
            return out;
        } finally {
            for (int i = 0; i < distinct; i++) { count[touched[i]] = 0; offset[touched[i]] = 0; }
        }
    }

    /** A token's signature: a slice of the group indices and values arrays, compared by content. */
    private static final class Slice {
        public final int[] members, values;
        public final int from, to;
        private final int hash;

        public Slice(int[] members, int[] values, int from, int to) {
            this.members = members;
            this.values = values;
            this.from = from;
            this.to = to;
            int h = 1;
            for (int i = from; i < to; i++) h = 31 * (31 * h + members[i]) + values[i];
            hash = h;
        }

        public boolean uniformValue() {
            for (int i = from + 1; i < to; i++) if (values[i] != values[from]) return false;
            return true;
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            return o instanceof Slice s && s.hash == hash && Arrays.equals(members, from, to, s.members, s.from, s.to)
                    && Arrays.equals(values, from, to, s.values, s.from, s.to);
        }
    }
}
