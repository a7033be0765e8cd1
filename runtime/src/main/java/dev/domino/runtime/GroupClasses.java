package dev.domino.runtime;

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
final class GroupClasses {
    private GroupClasses() {}

    /** Fewer list groups than this: nothing worth regrouping. */
    static final int MIN_GROUPS = 3;
    /** Regroup only when at least this many token entries repeat across the node's groups. */
    static final int MIN_REPEATED = 64;

    /** One regrouped group: the terminals its tokens end inside (sorted; one or more) and the tokens. */
    record Group(int[] terminals, TokenSet tokens) {}

    /** Per-thread scratch indexed by token id; only the entries a call touched are reset. */
    private static final class Scratch {
        int[] count = new int[0];
        int[] offset = new int[0];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * The node's groups, regrouped when many tokens repeat across them; otherwise one group per
     * terminal, as given. {@code intern} maps each new set to a shared equal one.
     */
    static List<Group> regroup(SortedMap<Integer, TokenSet> groups, int vocabSize, java.util.function.UnaryOperator<TokenSet> intern) {
        List<Group> out = new ArrayList<>();
        List<Integer> listTerminals = new ArrayList<>();
        List<TokenSet> listSets = new ArrayList<>();
        long entries = 0;
        for (Map.Entry<Integer, TokenSet> g : groups.entrySet()) {
            if (g.getValue().isBitmap()) {
                out.add(new Group(new int[] {g.getKey()}, g.getValue()));
            } else {
                listTerminals.add(g.getKey());
                listSets.add(g.getValue());
                entries += g.getValue().size();
            }
        }
        if (listSets.size() < MIN_GROUPS || entries < MIN_REPEATED) return passThrough(out, listTerminals, listSets);

        Scratch s = SCRATCH.get();
        if (s.count.length < vocabSize) { s.count = new int[vocabSize]; s.offset = new int[vocabSize]; }
        int[] count = s.count, offset = s.offset;
        // tokens in first-seen order (deterministic), with how many groups hold each
        int[] touched = new int[(int) Math.min(entries, vocabSize)];
        int distinct = 0;
        for (TokenSet set : listSets) {
            for (int id : set.ids()) if (count[id]++ == 0) touched[distinct++] = id;
        }
        try {
            if (entries - distinct < MIN_REPEATED) return passThrough(out, listTerminals, listSets);
            // each token's groups, in group order, as a slice of one flat array
            int next = 0;
            for (int i = 0; i < distinct; i++) { offset[touched[i]] = next; next += count[touched[i]]; }
            int[] member = new int[next];
            for (int gi = 0; gi < listSets.size(); gi++) {
                for (int id : listSets.get(gi).ids()) member[offset[id]++] = gi;
            }
            // offset[id] now points past the token's slice: its slice is [offset - count, offset)
            Map<Slice, TreeBuilder.IntList> byMembers = new LinkedHashMap<>();
            for (int i = 0; i < distinct; i++) {
                int id = touched[i];
                Slice key = new Slice(member, offset[id] - count[id], offset[id]);
                byMembers.computeIfAbsent(key, k -> new TreeBuilder.IntList()).add(id);
            }
            for (Map.Entry<Slice, TreeBuilder.IntList> c : byMembers.entrySet()) {
                Slice k = c.getKey();
                int[] terminals = new int[k.to - k.from];
                for (int i = 0; i < terminals.length; i++) terminals[i] = listTerminals.get(k.array[k.from + i]);
                int[] ids = c.getValue().toArray();
                Arrays.sort(ids);
                out.add(new Group(terminals, intern.apply(TokenSet.of(ids, vocabSize))));
            }
            return out;
        } finally {
            for (int i = 0; i < distinct; i++) { count[touched[i]] = 0; offset[touched[i]] = 0; }
        }
    }

    private static List<Group> passThrough(List<Group> out, List<Integer> terminals, List<TokenSet> sets) {
        for (int i = 0; i < sets.size(); i++) out.add(new Group(new int[] {terminals.get(i)}, sets.get(i)));
        return out;
    }

    /** A slice of an int array, compared by content. */
    private static final class Slice {
        final int[] array;
        final int from, to;
        private final int hash;

        Slice(int[] array, int from, int to) {
            this.array = array;
            this.from = from;
            this.to = to;
            int h = 1;
            for (int i = from; i < to; i++) h = 31 * h + array[i];
            hash = h;
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            return o instanceof Slice s && s.hash == hash && Arrays.equals(array, from, to, s.array, s.from, s.to);
        }
    }
}
