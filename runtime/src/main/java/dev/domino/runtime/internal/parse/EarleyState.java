package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One immutable Earley set: the parser's state after some sequence of terminals. Items point
 * to the sets they started in, so committing creates new sets that share all old ones:
 * rollback drops a reference, fork copies one.
 *
 * <p>Transitions (terminal → next set) are memoized on the set itself, so repeated mask walks
 * from the same state do no Earley work. Two sets are equal when they hold the same items with
 * the same origin sets; the matcher uses that to deduplicate configurations.
 */
public final class EarleyState {
    private static final AtomicLong SERIALS = new AtomicLong();

    public final long serial = SERIALS.incrementAndGet();
    /*
     * The items, in canonical order: the items with an origin (by rule, origin serial, members seen),
     * then the set's own items (origin this set; by rule, members seen). The items before
     * ownStart are held here (the "head"); the items from ownStart on are those of own, shared with every
     * set that predicts the same nonterminals and not copied: a new set costs its kernel and
     * completions, not the thousand own items of a value position in a large schema. A set built
     * without shared predictions holds every item in its head (own null). Readers outside the
     * parser use itemCount, rule, origin and seenAt, which read both parts.
     */
    /** Dotted rules of the head items. */
    final int[] headRules;
    /** Origin set of each head item; {@code null} means this set itself. */
    final EarleyState[] headOrigins;
    /** Serial of each head item's origin (-1 for this set). */
    final long[] headSerials;
    /**
     * Members seen by each head permutation item ({@link Permutation}; a counted one adds a word with
     * the member count, see {@link ParserGrammar#permCountWord}); {@code null} for other items,
     * and the whole array {@code null} when the head holds no permutation item.
     */
    final long[][] headSeen;
    /** Terminals that can be scanned next (ignored terminals included). */
    public final long[] expected;
    public final boolean accepting;
    private final int hash;

    /**
     * Memo: open addressing terminal -> state, in an immutable table replaced on each insert
     * (copy-on-write, writers synchronized on this). Reads take no lock: the walks of many
     * matchers, on several threads, read the same shared states' memos all the time, and a
     * monitor on each read costs a CAS even uncontended (no biased locking since JDK 15).
     */
    private static final class Memo {
        public final int[] keys;           // terminal + 1; 0 = empty
        public final EarleyState[] values;
        public final int size;
        public Memo(int[] keys, EarleyState[] values, int size) { this.keys = keys; this.values = values; this.size = size; }
    }

    private volatile Memo memo;

    /**
     * Built on the first completion into this set when it is large (see {@link EarleyParser}):
     * its items before {@link #ownStart} waiting for a nonterminal or for a permutation's members, sorted by what they
     * wait for. A cache: computed from the items, so a race only builds it twice.
     */
    volatile long[] waiting;

    /** Whether scans from here take their own predicted items from the parser's {@link ClosureMemo} (else they close every kernel in full). */
    final boolean sharesPredictions;

    /** {@link ShortestCompletion}'s memo for this state (null until first asked; immutable once set). */
    volatile Object completionCosts;

    public EarleyState(int[] rules, EarleyState[] origins, long[] expected, boolean accepting) {
        this(rules, origins, null, expected, accepting);
    }

    public EarleyState(int[] rules, EarleyState[] origins, long[][] seen, long[] expected, boolean accepting) {
        this(rules, origins, seen, expected, accepting, false);
    }

    /**
     * The set's own items when they are shared (items {@link #ownStart} on are {@code own}'s, whose
     * indexes serve scans and completions); null when every item is in the head.
     */
    final PredictedItems own;
    /** Index of the first item of {@link #own}: the number of head items. */
    final int ownStart;
    private final int itemCount;

    EarleyState(int[] rules, EarleyState[] origins, long[][] seen, long[] expected, boolean accepting, boolean sharesPredictions) {
        this(rules, origins, seen, expected, accepting, sharesPredictions, null);
    }

    /**
     * A set of head items {@code rules}, {@code origins}, {@code seen} (canonical order, none of them
     * the set's own when {@code own} is given), followed by {@code own}'s items if not null.
     */
    EarleyState(int[] rules, EarleyState[] origins, long[][] seen, long[] expected, boolean accepting, boolean sharesPredictions, PredictedItems own) {
        this.sharesPredictions = sharesPredictions;
        this.own = own;
        this.ownStart = rules.length;
        this.itemCount = rules.length + (own == null ? 0 : own.rules.length);
        this.headRules = rules;
        this.headOrigins = origins;
        this.headSeen = seen;
        this.headSerials = new long[origins.length];
        for (int i = 0; i < origins.length; i++) headSerials[i] = origins[i] == null ? -1 : origins[i].serial;
        this.expected = expected;
        this.accepting = accepting;
        // the hash of the whole item sequence, the shared part's from its precomputed folds
        int hr = 1, hs = 1, hm = 1;
        for (int r : rules) hr = 31 * hr + r;
        for (long serial : headSerials) hs = 31 * hs + Long.hashCode(serial);
        for (int i = 0; i < rules.length; i++) hm = 31 * hm + (seen == null ? 0 : Arrays.hashCode(seen[i]));
        if (own != null) {
            hr = hr * own.power + own.ruleFold;
            hs = hs * own.power; // an own item's origin serial (-1) hashes to 0
            hm = hm * own.power + own.seenFold;
        }
        this.hash = 31 * (31 * hr + hs) + hm;
    }

    /** A set sharing predictions whose origin serials and hash its maker computed (see {@link RelativeClosure}). */
    EarleyState(int[] rules, EarleyState[] origins, long[] serials, long[][] seen, long[] expected, boolean accepting, PredictedItems own, int hash) {
        this.sharesPredictions = true;
        this.own = own;
        this.ownStart = rules.length;
        this.itemCount = rules.length + own.rules.length;
        this.headRules = rules;
        this.headOrigins = origins;
        this.headSeen = seen;
        this.headSerials = serials;
        this.expected = expected;
        this.accepting = accepting;
        this.hash = hash;
    }

    public boolean expects(int terminal) {
        return (expected[terminal >>> 6] & (1L << terminal)) != 0;
    }

    /** The sentence so far is complete. */
    public boolean isAccepting() { return accepting; }

    /** Items in the set, shared own items included. */
    public int itemCount() { return itemCount; }

    /** The dotted rule of item i (canonical order). */
    public int rule(int i) { return i < ownStart ? headRules[i] : own.rules[i - ownStart]; }

    /** The origin set of item i; {@code null} means this set itself. */
    public EarleyState origin(int i) { return i < ownStart ? headOrigins[i] : null; }

    /** Items held by reference to shared predicted items (the last ones), not in this state's arrays. */
    public int sharedItemCount() { return itemCount - ownStart; }

    /** The serial of item i's origin, -1 for this set. */
    long serialAt(int i) { return i < ownStart ? headSerials[i] : -1; }

    /**
     * Heap bytes of this state and its share of a memo (compressed oops): header and fields 48,
     * four arrays of 16-byte headers plus 4 + 4 + 8 bytes per head item and the expected words (shared
     * own items are counted once, by the {@link ClosureMemo} that holds them), and
     * about 24 bytes for the memo entry that leads here; permutation items add their sets of
     * members seen (shared sets counted once per item: an over-estimate).
     */
    public long estimatedBytes() {
        long bytes = 48 + 4 * 16 + 16L * headRules.length + 8L * expected.length + 24;
        if (headRules.length > EarleyParser.INDEXED_ITEMS) bytes += 16 + 8L * headRules.length; // the completion index, when built
        if (headSeen != null) {
            bytes += 16 + 4L * headSeen.length; // the array of sets; each permutation item's own set
            for (long[] s : headSeen) if (s != null) bytes += 16 + 8L * s.length;
        }
        return bytes;
    }

    /** Memoized successors (for counting reachable states). */
    public void forEachMemoized(java.util.function.Consumer<EarleyState> action) {
        Memo m = memo;
        if (m == null) return;
        for (int i = 0; i < m.keys.length; i++) if (m.keys[i] != 0) action.accept(m.values[i]);
    }

    /** The members seen by item i (null unless it is a permutation item). */
    public long[] seenAt(int i) {
        if (i >= ownStart) return own.seenAt(i - ownStart);
        return headSeen == null ? null : headSeen[i];
    }

    /**
     * Memo of {@code EarleyParser.scanAny}: pairs of terminals (ascending) and the set after them, copy-on-write
     * like {@link #memo}; at most {@link #MAX_ANY_MEMO} pairs (past them a scan of several terminals is made again).
     */
    private volatile Object[] anyMemo;
    private static final int MAX_ANY_MEMO = 8;

    public EarleyState anyMemoGet(int[] terminals) {
        Object[] m = anyMemo;
        if (m == null) return null;
        for (int i = 0; i < m.length; i += 2) if (java.util.Arrays.equals((int[]) m[i], terminals)) return (EarleyState) m[i + 1];
        return null;
    }

    public synchronized void anyMemoPut(int[] terminals, EarleyState next) {
        Object[] m = anyMemo;
        int n = m == null ? 0 : m.length;
        if (n >= 2 * MAX_ANY_MEMO) return;
        Object[] grown = m == null ? new Object[2] : java.util.Arrays.copyOf(m, n + 2);
        grown[n] = terminals.clone();
        grown[n + 1] = next;
        anyMemo = grown;
    }

    public EarleyState memoGet(int terminal) {
        Memo m = memo;
        if (m == null) return null;
        int[] keys = m.keys;
        int mask = keys.length - 1;
        for (int i = (terminal * 0x9E3779B1) >>> 16 & mask; ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == terminal + 1) return m.values[i];
            if (k == 0) return null;
        }
    }

    public synchronized void memoPut(int terminal, EarleyState value) {
        Memo m = memo;
        int size = m == null ? 0 : m.size;
        int capacity = m == null ? 4 : m.keys.length;
        while ((size + 1) * 2 > capacity) capacity *= 2;
        int[] keys = new int[capacity];
        EarleyState[] values = new EarleyState[capacity];
        int n = 0;
        if (m != null) {
            for (int i = 0; i < m.keys.length; i++) {
                if (m.keys[i] != 0 && m.keys[i] != terminal + 1) n += insert(keys, values, m.keys[i], m.values[i]);
            }
        }
        n += insert(keys, values, terminal + 1, value);
        memo = new Memo(keys, values, n); // final fields + volatile write: readers see a complete table
    }

    private static int insert(int[] keys, EarleyState[] values, int key, EarleyState value) {
        int mask = keys.length - 1;
        for (int i = ((key - 1) * 0x9E3779B1) >>> 16 & mask; ; i = (i + 1) & mask) {
            if (keys[i] == 0) { keys[i] = key; values[i] = value; return 1; }
        }
    }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof EarleyState e) || hash != e.hash || itemCount != e.itemCount) return false;
        if (own == e.own && ownStart == e.ownStart) { // the same shared part: compare the heads
            return Arrays.equals(headRules, e.headRules) && Arrays.equals(headSerials, e.headSerials) && sameHeadSeen(e);
        }
        for (int i = 0; i < itemCount; i++) {
            if (rule(i) != e.rule(i) || serialAt(i) != e.serialAt(i) || !Arrays.equals(seenAt(i), e.seenAt(i))) return false;
        }
        return true;
    }

    private boolean sameHeadSeen(EarleyState e) {
        if (headSeen == null && e.headSeen == null) return true;
        for (int i = 0; i < ownStart; i++) {
            if (!Arrays.equals(headSeen == null ? null : headSeen[i], e.headSeen == null ? null : e.headSeen[i])) return false;
        }
        return true;
    }

    @Override public int hashCode() { return hash; }
}
