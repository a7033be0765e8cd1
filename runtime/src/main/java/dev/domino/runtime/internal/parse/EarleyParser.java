package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * Earley recognition over terminals, producing immutable {@link EarleyState}s. Shared by all
 * matchers of an artifact; thread-safe.
 * Empty rules are handled the Aycock–Horspool way: predicting a nullable nonterminal also
 * advances over it, so completion never needs to look into the set under construction.
 *
 * <p>Memory stays bounded by sharing states per <em>generation</em>. Each state memoizes its
 * transitions (see {@link EarleyState}), so every state reachable from a root stays reachable
 * as long as that root does. Matchers therefore start from the current generation's root
 * ({@link #initial()}), and once the states created since that root was made exceed
 * {@link #sharedBytes} (an estimate of their heap bytes) the next matcher gets a fresh root:
 * requests still running keep the old generation alive, and it is collected when they end.
 * The heap held by parser states is then at most about {@code sharedBytes} per generation in
 * use, plus what live requests reach. One root for the artifact's lifetime grows without bound
 * (see {@code bench soak} and docs/performance.md).
 *
 * <p>{@link Permutation}s run on items that carry the set of members seen (see {@link ParserGrammar}):
 * such an item predicts only the members not seen yet, and completes only when every required
 * member was seen. Items of a permutation with member count bounds also carry the count: they
 * predict only members after which the bounds can still be met, and complete only at the minimum.
 */
public final class EarleyParser {
    /** Default {@link #sharedBytes} (see {@code RuntimeLimits.parserSharedBytes}). */
    public static final long DEFAULT_SHARED_BYTES = 4L << 20;
    /**
     * Default of the items one Earley step (one terminal at one position) may look at while completing
     * and predicting ({@code RuntimeLimits.parserMaxStepWork}; {@link #setMaxStepWork}). Past it the step fails with a {@link ParserLimitException}
     * (a commit or mask puts its matcher in the error state) instead of running on: a highly ambiguous
     * grammar such as {@code s ::= s s | "a"} costs Earley O(n²) per position (every origin completes,
     * each looking at the items of its set), about n² items at byte n, O(n³) for the output. The
     * default is far above the largest step of real grammars (docs/limits.md).
     */
    public static final long MAX_STEP_WORK = 1_000_000;
    private volatile long maxStepWork = MAX_STEP_WORK;
    private final ParserGrammar g;
    private final boolean[] ignoredTerminal;
    private final long[] ignoredMask;
    private final int words;
    /** Returned for a failed scan; never expects anything. */
    public final EarleyState dead;
    /** The start state's items (every origin is the state itself); each generation's root copies them. */
    private final EarleyState template;
    private volatile long sharedBytes;
    /** Estimated bytes of the states created since this parser was made (memo misses). */
    private final java.util.concurrent.atomic.LongAdder createdBytes = new java.util.concurrent.atomic.LongAdder();
    private volatile Generation generation;
    /**
     * The own predicted items shared by the closures of every generation (they hold no states);
     * replaced by an empty one once its estimated bytes pass {@link #sharedBytes}.
     */
    private volatile ClosureMemo closureMemo;

    /** A root and the value of {@link #createdBytes} when it was made. */
    private record Generation(EarleyState root, long startBytes) {}

    public EarleyParser(ParserGrammar grammar, boolean[] ignoredTerminal) {
        this(grammar, ignoredTerminal, DEFAULT_SHARED_BYTES);
    }

    /** @param sharedBytes bytes of parser states a generation shares before new matchers start a fresh one */
    public EarleyParser(ParserGrammar grammar, boolean[] ignoredTerminal, long sharedBytes) {
        this.g = grammar;
        this.ignoredTerminal = ignoredTerminal;
        this.words = (grammar.terminalCount() + 63) >>> 6;
        this.ignoredMask = new long[words];
        for (int t = 0; t < ignoredTerminal.length; t++) if (ignoredTerminal[t]) ignoredMask[t >>> 6] |= 1L << t;
        this.dead = new EarleyState(new int[0], new EarleyState[0], new long[words], false);
        this.template = closure(new int[] {g.startRule}, new EarleyState[] {null}, new long[1][], 1, null);
        this.sharedBytes = sharedBytes;
        this.closureMemo = new ClosureMemo(g.predictions.length);
        this.generation = new Generation(freshRoot(), 0);
    }

    /**
     * The start state of the current generation: equal to every other generation's, but a
     * different object with its own memo (see the class comment).
     */
    public EarleyState initial() {
        Generation gen = generation;
        if (createdBytes.sum() - gen.startBytes <= sharedBytes) return gen.root;
        synchronized (this) {
            if (generation == gen) generation = new Generation(freshRoot(), createdBytes.sum());
            return generation.root;
        }
    }

    /**
     * A start state outside every generation whose scans, and their states' scans, close each
     * kernel in full, sharing nothing through a {@link ClosureMemo}: the reference the memo is
     * tested against.
     */
    public EarleyState initialUnshared() {
        return new EarleyState(template.headRules, template.headOrigins, template.headSeen, template.expected, template.accepting, false);
    }

    /** Sets the bytes of parser states a generation shares (see the class comment); 0 = one generation per matcher. */
    public void setSharedBytes(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("shared parser-state bytes must be >= 0");
        sharedBytes = bytes;
    }

    /** Sets the items one Earley step may look at (see {@link #MAX_STEP_WORK}). */
    public void setMaxStepWork(long items) {
        if (items < 1) throw new IllegalArgumentException("parser step work must be >= 1");
        maxStepWork = items;
    }

    /** Drops the current generation: the next matcher starts from a fresh root. */
    public void clearSharedStates() {
        synchronized (this) { generation = new Generation(freshRoot(), createdBytes.sum()); }
    }

    /** Estimated bytes of the states created since the current generation's root was made. */
    public long sharedStateBytes() { return createdBytes.sum() - generation.startBytes; }

    /**
     * Number of distinct states reachable (through memos and origins) from the current root and
     * from {@code more}: what the parser holds on to. A graph walk, for diagnostics only.
     */
    public long reachableStates(Iterable<EarleyState> more) {
        java.util.Set<EarleyState> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<EarleyState> todo = new java.util.ArrayDeque<>();
        java.util.function.Consumer<EarleyState> visit = s -> { if (s != null && seen.add(s)) todo.add(s); };
        visit.accept(generation.root);
        for (EarleyState s : more) visit.accept(s);
        while (!todo.isEmpty()) {
            EarleyState s = todo.poll();
            for (EarleyState o : s.headOrigins) visit.accept(o);
            s.forEachMemoized(visit);
        }
        return seen.size();
    }

    /** The current {@link #closureMemo}, a fresh one when the current one holds more than {@link #sharedBytes}. */
    private ClosureMemo closureMemo() {
        ClosureMemo m = closureMemo;
        if (m.bytes.sum() <= sharedBytes) return m;
        synchronized (this) {
            if (closureMemo == m) closureMemo = new ClosureMemo(g.predictions.length);
            return closureMemo;
        }
    }

    private EarleyState freshRoot() {
        return new EarleyState(template.headRules, template.headOrigins, template.headSeen, template.expected, template.accepting, true);
    }

    public boolean isDead(EarleyState s) { return s == dead; }

    /** The set after scanning {@code terminal} from {@code from}; {@link #dead} if impossible. */
    public EarleyState scan(EarleyState from, int terminal) {
        if (ignoredTerminal[terminal]) return from;
        if (from == dead || !from.expects(terminal)) return dead;
        EarleyState memo = from.memoGet(terminal);
        if (memo != null) return memo;
        int symbol = -1 - terminal;
        int limit = from.ownStart; // the items from here on are the set's shared own items, found by their index
        PredictedItems own = from.own;
        int n = 0;
        int[] fromRules = from.headRules;
        for (int i = 0; i < limit; i++) if (g.ruleNext[fromRules[i]] == symbol) n++;
        long[] ownScanning = own == null ? null : scanning(own);
        int ownFirst = own == null ? 0 : PredictedItems.first(ownScanning, terminal), ownEnd = ownFirst;
        if (own != null) while (ownEnd < ownScanning.length && (int) (ownScanning[ownEnd] >> 32) == terminal) ownEnd++;
        // only the set's own items expect the terminal: the result may be known up to the set (RelativeClosure)
        boolean relative = n == 0 && ownEnd > ownFirst && from.sharesPredictions;
        if (relative) {
            RelativeClosure known = own.scanned.get(terminal);
            if (known != null) {
                checkWork(known.work);
                EarleyState next = known.at(from);
                createdBytes.add(known.stateBytes);
                from.memoPut(terminal, next);
                return next;
            }
        }
        n += ownEnd - ownFirst;
        int[] kernelRules = new int[n];
        EarleyState[] kernelOrigins = new EarleyState[n];
        long[][] kernelSeen = new long[n][];
        int k = 0;
        for (int i = 0; i < limit; i++) {
            int r = fromRules[i];
            if (g.ruleNext[r] == symbol) {
                kernelRules[k] = r + 1;
                kernelOrigins[k] = from.headOrigins[i] == null ? from : from.headOrigins[i];
                kernelSeen[k] = from.seenAt(i); // a permutation's separator keeps its members seen
                k++;
            }
        }
        for (int e = ownFirst; e < ownEnd; e++) {
            int j = (int) ownScanning[e];
            kernelRules[k] = own.rules[j] + 1;
            kernelOrigins[k] = from;
            kernelSeen[k] = own.seenAt(j);
            k++;
        }
        ClosureMemo closures = from.sharesPredictions ? closureMemo() : null;
        long[] outcome = relative ? new long[2] : null;
        EarleyState next = closure(kernelRules, kernelOrigins, kernelSeen, n, closures, outcome);
        if (relative && outcome[0] == 0 && next != dead) {
            // nothing completed: nothing of from but its own items was looked at
            RelativeClosure made = RelativeClosure.of(next, from, outcome[1]);
            if (made != null && own.scanned.putIfAbsent(terminal, made) == null) closures.bytes.add(made.estimatedBytes());
        }
        createdBytes.add(next.estimatedBytes());
        from.memoPut(terminal, next);
        return next;
    }

    /**
     * Predict/complete to a fixpoint, starting from the kernel items. With {@code closures}, the
     * items the set predicts itself come from there by the nonterminals predicted (see
     * {@link ClosureMemo}), and only the kernel and its completions are closed here.
     */
    private EarleyState closure(int[] kernelRules, EarleyState[] kernelOrigins, long[][] kernelSeen, int kernelSize, ClosureMemo closures) {
        return closure(kernelRules, kernelOrigins, kernelSeen, kernelSize, closures, null);
    }

    /**
     * With {@code outcome} (and {@code closures}), also reports whether closing the kernel completed
     * anything ({@code outcome[0]}: 1 if so) and the step's work ({@code outcome[1]}).
     */
    private EarleyState closure(int[] kernelRules, EarleyState[] kernelOrigins, long[][] kernelSeen, int kernelSize, ClosureMemo closures, long[] outcome) {
        ItemSet items = ItemSet.scratch(kernelSize);
        if (closures != null) items.predicted = new long[(g.predictions.length + 63) >>> 6];
        for (int i = 0; i < kernelSize; i++) items.add(kernelRules[i], kernelOrigins[i], kernelSeen[i]);
        close(items);
        if (closures == null) {
            if (items.size == 0) return dead;
            return canonical(items, false);
        }
        ClosureMemo.Nonterminals key = new ClosureMemo.Nonterminals(items.predicted);
        PredictedItems own = closures.predicted(key);
        if (own == null) {
            own = predictedItems(items.predicted, closures);
            PredictedItems kept = closures.putIfAbsent(key, own);
            if (kept == own) closures.bytes.add(own.estimatedBytes(items.predicted.length)); else own = kept;
        }
        checkWork(items.work + own.work);
        if (outcome != null) {
            outcome[0] = items.firstSerial == Long.MIN_VALUE ? 0 : 1;
            outcome[1] = items.work + own.work;
        }
        if (items.size == 0 && own.rules.length == 0) return dead;
        return canonical(items, own, closures);
    }

    /** Closes the items: each item added is predicted from or completed, in turn. */
    private void close(ItemSet items) {
        for (int i = 0; i < items.size; i++) {
            checkWork(items.work);
            int r = items.rules[i];
            EarleyState origin = items.origins[i];
            int perm = g.rulePerm[r];
            if (perm >= 0) {
                permutationItem(items, r, origin, items.seen[i], perm);
                continue;
            }
            int next = g.ruleNext[r];
            if (next == ParserGrammar.NONE) {
                if (origin == null) continue; // empty derivation: already advanced at prediction
                int lhs = g.ruleLhs[r];
                if (lhs < 0) continue; // augmented start
                complete(items, lhs, origin);
            } else if (next >= 0) {
                predict(items, next);
                if (g.nullable[next]) items.add(r + 1, origin, items.seen[i]);
            }
        }
    }

    private void checkWork(long work) {
        if (work > maxStepWork) {
            throw new ParserLimitException("the grammar is too ambiguous here: one Earley step looked at more than "
                    + maxStepWork + " items (limit -Ddomino.parser.maxStepWork=N, RuntimeLimits.parserMaxStepWork)");
        }
    }

    /**
     * Adds the rules of {@code nonterminal} with the dot at the start, or, while closing a kernel
     * whose own predictions are shared ({@link ItemSet#predicted}), records the nonterminal.
     */
    private void predict(ItemSet items, int nonterminal) {
        long[] recorded = items.predicted;
        if (recorded != null) {
            recorded[nonterminal >>> 6] |= 1L << nonterminal;
            return;
        }
        for (int p : g.predictions[nonterminal]) {
            int perm = g.rulePerm[p];
            items.add(p, null, perm >= 0 ? g.permNoneSeen[perm] : null);
        }
    }

    /**
     * The closed items a set predicts from {@code nonterminals} (see {@link PredictedItems}): the
     * union of each nonterminal's own closure (exact: with no origin, nothing completes, so the
     * closure works item by item), taken through a bit set of rules, so already in rule order. An
     * own item's members seen are its permutation's empty set: own items only predict and advance
     * over nullable nonterminals, never over a member.
     */
    private PredictedItems predictedItems(long[] nonterminals, ClosureMemo closures) {
        long[] ruleBits = new long[(g.ruleNext.length + 63) >>> 6];
        long work = 0;
        for (int w = 0; w < nonterminals.length; w++) {
            for (long bits = nonterminals[w]; bits != 0; bits &= bits - 1) {
                int[] closed = closures.ownClosure((w << 6) + Long.numberOfTrailingZeros(bits), this::ownClosure);
                for (int r : closed) ruleBits[r >>> 6] |= 1L << r;
                work += closed.length;
            }
        }
        int n = 0;
        for (long bits : ruleBits) n += Long.bitCount(bits);
        int[] rules = new int[n];
        long[] expected = ignoredMask.clone();
        boolean accepting = false, anySeen = false;
        int k = 0;
        for (int w = 0; w < ruleBits.length; w++) {
            for (long bits = ruleBits[w]; bits != 0; bits &= bits - 1) {
                int r = (w << 6) + Long.numberOfTrailingZeros(bits);
                rules[k++] = r;
                accepting |= expectNext(r, expected);
                anySeen |= g.rulePerm[r] >= 0;
            }
        }
        long[][] seen = null;
        if (anySeen) {
            seen = new long[n][];
            for (int i = 0; i < n; i++) if (g.rulePerm[rules[i]] >= 0) seen[i] = g.permNoneSeen[g.rulePerm[rules[i]]];
        }
        return new PredictedItems(rules, seen, expected, accepting, work);
    }

    /** The rules of the items a set predicts from one nonterminal, closed, sorted. */
    private int[] ownClosure(int nonterminal) {
        ItemSet items = new ItemSet(64);
        predict(items, nonterminal);
        close(items); // origins all null: nothing completes
        int[] rules = Arrays.copyOf(items.rules, items.size);
        Arrays.sort(rules);
        return rules;
    }

    /** {@code own}'s completion index, built on first use. */
    long[] waiting(PredictedItems own) {
        long[] w = own.waiting;
        if (w == null) own.waiting = w = waitingIndex(own.rules, own.rules.length);
        return w;
    }

    /** {@code own}'s scan index, built on first use. */
    long[] scanning(PredictedItems own) {
        long[] w = own.scanning;
        if (w == null) own.scanning = w = scanningIndex(own.rules);
        return w;
    }

    /** Adds the terminal {@code rule} expects next to {@code expected}; whether it is the accepting rule. */
    private boolean expectNext(int rule, long[] expected) {
        int next = g.ruleNext[rule];
        if (next < 0 && next > ParserGrammar.MEMBERS) {
            int t = -1 - next;
            expected[t >>> 6] |= 1L << t;
        }
        return rule == g.acceptRule;
    }

    /**
     * Sets with more items than this are completed into through an index of their waiting items
     * ({@link #waiting}) instead of a scan of all their items: a value position of a large schema
     * predicts over a thousand items, and every completion into it scanned them all.
     */
    static final int INDEXED_ITEMS = 32;

    /** Key of {@link #waiting} for the items of permutation {@code perm} that expect a member (nonterminals are their own key). */
    private static int membersKey(int perm) { return -2 - perm; }

    /**
     * The items of {@code o} before its shared own items ({@link EarleyState#ownStart}) that wait for a
     * nonterminal or a permutation's members, as sorted {@code key << 32 | item}.
     */
    private long[] waiting(EarleyState o) {
        long[] w = o.waiting;
        if (w != null) return w;
        w = waitingIndex(o.headRules, o.ownStart);
        o.waiting = w;
        return w;
    }

    /** Items {@code 0 .. limit-1} of {@code rules} that wait for a nonterminal (key: itself) or a permutation's members ({@link #membersKey}), as sorted {@code key << 32 | item}. */
    private long[] waitingIndex(int[] rules, int limit) {
        long[] keys = new long[limit];
        int n = 0;
        for (int j = 0; j < limit; j++) {
            int next = g.ruleNext[rules[j]];
            if (next >= 0) keys[n++] = ((long) next << 32) | j;
            else if (next == ParserGrammar.MEMBERS) keys[n++] = ((long) membersKey(g.rulePerm[rules[j]]) << 32) | j;
        }
        long[] w = Arrays.copyOf(keys, n);
        Arrays.sort(w); // by key, then item index: the items of one key in set order
        return w;
    }

    /** The items of {@code rules} that expect a terminal, as sorted {@code terminal << 32 | item}. */
    private long[] scanningIndex(int[] rules) {
        long[] keys = new long[rules.length];
        int n = 0;
        for (int j = 0; j < rules.length; j++) {
            int next = g.ruleNext[rules[j]];
            if (next < 0 && next > ParserGrammar.MEMBERS) keys[n++] = ((long) (-1 - next) << 32) | j;
        }
        long[] w = Arrays.copyOf(keys, n);
        Arrays.sort(w);
        return w;
    }

    /** Index in {@code w} of the first entry with {@code key}, or of the next key's. */
    private static int firstWaiting(long[] w, int key) { return PredictedItems.first(w, key); }

    /** Advances the items of {@code o} waiting for {@code lhs}, which was derived from o to here. */
    private void complete(ItemSet items, int lhs, EarleyState o) {
        // an ambiguous span completes the same (lhs, origin) again: the same items, already added
        if (!items.firstCompletion(lhs, o.serial)) return;
        int[] rules = o.headRules;
        items.work += o.itemCount(); // the step limit counts as if every item were looked at (see MAX_STEP_WORK)
        EarleyState[] origins = o.headOrigins;
        long[] serials = o.headSerials; // hashed without touching the origin objects (scattered over the heap)
        PredictedItems own = o.own;
        int limit = o.ownStart; // items from here on are o's shared own items, indexed there
        long[] w = limit > INDEXED_ITEMS ? waiting(o) : null;
        long[] ownWaiting = own == null ? null : waiting(own);
        if (w == null) {
            for (int j = 0; j < limit; j++) {
                if (g.ruleNext[rules[j]] == lhs) advance(items, o, j, origins, serials);
            }
        } else {
            for (int i = firstWaiting(w, lhs); i < w.length && (int) (w[i] >> 32) == lhs; i++) advance(items, o, (int) w[i], origins, serials);
        }
        if (ownWaiting != null) {
            for (int i = firstWaiting(ownWaiting, lhs); i < ownWaiting.length && (int) (ownWaiting[i] >> 32) == lhs; i++) {
                int j = (int) ownWaiting[i];
                items.add(own.rules[j] + 1, o, o.serial, own.seenAt(j)); // an own item's origin is o
            }
        }
        int perm = g.memberPerm[lhs];
        if (perm < 0) return;
        // a member (or the other) of a permutation: advance its items there that expect a member
        int key = membersKey(perm);
        if (w == null) {
            for (int j = 0; j < limit; j++) {
                int r = rules[j];
                if (g.rulePerm[r] == perm && g.ruleNext[r] == ParserGrammar.MEMBERS) advanceMember(items, lhs, o, j, perm);
            }
        } else {
            for (int i = firstWaiting(w, key); i < w.length && (int) (w[i] >> 32) == key; i++) advanceMember(items, lhs, o, (int) w[i], perm);
        }
        if (ownWaiting != null) {
            for (int i = firstWaiting(ownWaiting, key); i < ownWaiting.length && (int) (ownWaiting[i] >> 32) == key; i++) {
                advanceMember(items, lhs, o, limit + (int) ownWaiting[i], perm);
            }
        }
    }

    /** Item j of {@code o} moved over the nonterminal it waits for. */
    private static void advance(ItemSet items, EarleyState o, int j, EarleyState[] origins, long[] serials) {
        int r = o.headRules[j];
        if (origins[j] == null) items.add(r + 1, o, o.serial, o.seenAt(j));
        else items.add(r + 1, origins[j], serials[j], o.seenAt(j));
    }

    /** Permutation item j of {@code o}, which expects a member, after member (or other) {@code lhs}. */
    private void advanceMember(ItemSet items, int lhs, EarleyState o, int j, int perm) {
        int slot = g.memberSlot[lhs];
        int first = g.permFirstRule[perm];
        Permutation p = g.permutation(perm);
        int countWord = g.permCountWord[perm];
        long[] seen = o.seenAt(j);
        if (slot >= 0) {
            if ((seen[slot >>> 6] & (1L << slot)) != 0) return;
            seen = seen.clone();
            seen[slot >>> 6] |= 1L << slot;
        }
        boolean full = p.other() < 0 && allSeen(seen, p.memberCount());
        if (countWord >= 0) {
            if (slot < 0) seen = seen.clone();
            int count = (int) Math.min(seen[countWord] + 1, p.countCap());
            seen[countWord] = count;
            if (!viable(perm, seen)) return; // this member leaves too many or too few for the bounds
            full |= p.maxCount() != Permutation.UNBOUNDED && count >= p.maxCount();
        }
        EarleyState origin = o.origin(j) == null ? o : o.origin(j);
        items.add(first + (full ? ParserGrammar.PHASE_FULL : ParserGrammar.PHASE_AFTER), origin, seen);
    }

    /** Closure step of a permutation item: complete when allowed, predict the members it may take next. */
    private void permutationItem(ItemSet items, int r, EarleyState origin, long[] seen, int perm) {
        int phase = r - g.permFirstRule[perm];
        int countWord = g.permCountWord[perm];
        Permutation p = g.permutation(perm);
        if (phase == ParserGrammar.PHASE_FULL || (phase == ParserGrammar.PHASE_AFTER && containsAll(seen, g.permRequired[perm])
                && (countWord < 0 || seen[countWord] >= p.minCount()))) {
            if (origin != null) complete(items, g.ruleLhs[r], origin); // origin null: derived ε, advanced at prediction
        }
        int next = g.ruleNext[r];
        if (next == ParserGrammar.MEMBERS) {
            if (countWord < 0) {
                for (int i = 0; i < p.memberCount(); i++) {
                    if ((seen[i >>> 6] & (1L << i)) == 0) predict(items, p.member(i));
                }
                if (p.other() >= 0) predict(items, p.other());
                return;
            }
            // counted: predict only the members after which the permutation can still complete
            long[] req = g.permRequired[perm];
            int missing = 0;
            for (int w = 0; w < req.length; w++) missing += Long.bitCount(req[w] & ~seen[w]);
            int count = (int) seen[countWord];
            if (p.maxCount() != Permutation.UNBOUNDED && count >= p.maxCount()) return;
            for (int i = 0; i < p.memberCount(); i++) {
                if ((seen[i >>> 6] & (1L << i)) != 0) continue;
                int stillMissing = missing - (p.isRequired(i) ? 1 : 0);
                if (fits(p, count + 1, stillMissing)) predict(items, p.member(i));
            }
            if (p.other() >= 0 && fits(p, count + 1, missing)) predict(items, p.other());
        } else if (next >= 0) {
            predict(items, next); // a separator nonterminal (never nullable)
        }
    }

    /** Whether a counted permutation item (member bits, then the count word) can still complete. */
    private boolean viable(int perm, long[] seen) {
        long[] req = g.permRequired[perm];
        int missing = 0;
        for (int w = 0; w < req.length; w++) missing += Long.bitCount(req[w] & ~seen[w]);
        return fits(g.permutation(perm), (int) seen[g.permCountWord[perm]], missing);
    }

    /**
     * Whether some completion exists after {@code count} members (capped at
     * {@link Permutation#countCap()}) with {@code missing} required members still to come: the
     * fewest members it can end with ({@code count + missing}, at least minCount) must not exceed
     * the most (maxCount; without an other, also the number of declared members). A capped count
     * only occurs without a maximum, where it decides nothing.
     */
    private static boolean fits(Permutation p, int count, int missing) {
        long lo = Math.max((long) count + missing, p.minCount());
        long hi = p.maxCount() == Permutation.UNBOUNDED ? Long.MAX_VALUE : p.maxCount();
        if (p.other() < 0) hi = Math.min(hi, p.memberCount());
        return lo <= hi;
    }

    private static boolean containsAll(long[] seen, long[] required) {
        for (int w = 0; w < required.length; w++) if ((required[w] & ~seen[w]) != 0) return false;
        return true;
    }

    private static boolean allSeen(long[] seen, int count) {
        for (int w = 0, words = (count + 63) >>> 6; w < words; w++) {
            long all = w < count >>> 6 ? -1L : (1L << (count & 63)) - 1;
            if ((seen[w] & all) != all) return false;
        }
        return true;
    }

    /**
     * One set holding the items of both: what a parser in either state could do. Exact because
     * closure works item by item (the union of closed sets is closed), and an item predicted at
     * this position (origin "this set") means the same position in both. Used to merge
     * configurations that differ only in how earlier bytes were lexed.
     */
    public EarleyState union(EarleyState a, EarleyState b) {
        if (a == b || a.equals(b)) return a;
        if (a == dead) return b;
        if (b == dead) return a;
        return SortedUnion.applies(a, b) ? SortedUnion.of(a, b) : unionInFull(a, b);
    }

    /** {@link #union} by hashing every item of both into a new set: the reference {@link SortedUnion} is tested against. */
    public EarleyState unionInFull(EarleyState a, EarleyState b) {
        if (a == dead) return b;
        if (b == dead) return a;
        ItemSet items = new ItemSet(Math.max(16, (a.itemCount() + b.itemCount()) * 2));
        for (int i = 0; i < a.itemCount(); i++) items.add(a.rule(i), a.origin(i), a.seenAt(i));
        for (int i = 0; i < b.itemCount(); i++) items.add(b.rule(i), b.origin(i), b.seenAt(i));
        return canonical(items, a.sharesPredictions);
    }

    /**
     * The set after scanning any one of {@code terminals} (ascending, each expected by {@code from}, none ignored):
     * the union of their scans, closed once from the union of their kernels (closure works item by item, so that is
     * the union of the sets each scan makes). Memoized on {@code from} like a single terminal's scan. Why: after a
     * key's colon inside a {@code oneOf} complement, 40 key terminals end at one trie node from one set, and the
     * tokens after them were walked from 40 sets of their own (see {@code Matcher.walkTogether}).
     */
    public EarleyState scanAny(EarleyState from, int[] terminals) {
        if (terminals.length == 1) return scan(from, terminals[0]);
        if (from == dead) return dead;
        EarleyState memo = from.anyMemoGet(terminals);
        if (memo != null) return memo;
        int limit = from.ownStart;
        PredictedItems own = from.own;
        int[] fromRules = from.headRules;
        long[] ownScanning = own == null ? null : scanning(own);
        int n = 0;
        for (int i = 0; i < limit; i++) if (scansOneOf(g.ruleNext[fromRules[i]], terminals)) n++;
        int[] ownFirst = new int[terminals.length], ownEnd = new int[terminals.length];
        for (int t = 0; t < terminals.length; t++) {
            if (ignoredTerminal[terminals[t]]) throw new IllegalArgumentException("an ignored terminal is scanned alone");
            if (own == null) continue;
            int first = PredictedItems.first(ownScanning, terminals[t]), end = first;
            while (end < ownScanning.length && (int) (ownScanning[end] >> 32) == terminals[t]) end++;
            ownFirst[t] = first;
            ownEnd[t] = end;
            n += end - first;
        }
        if (n == 0) return dead;
        int[] kernelRules = new int[n];
        EarleyState[] kernelOrigins = new EarleyState[n];
        long[][] kernelSeen = new long[n][];
        int k = 0;
        for (int i = 0; i < limit; i++) {
            int r = fromRules[i];
            if (scansOneOf(g.ruleNext[r], terminals)) {
                kernelRules[k] = r + 1;
                kernelOrigins[k] = from.headOrigins[i] == null ? from : from.headOrigins[i];
                kernelSeen[k] = from.seenAt(i);
                k++;
            }
        }
        for (int t = 0; t < terminals.length; t++) {
            for (int e = ownFirst[t]; e < ownEnd[t]; e++) {
                int j = (int) ownScanning[e];
                kernelRules[k] = own.rules[j] + 1;
                kernelOrigins[k] = from;
                kernelSeen[k] = own.seenAt(j);
                k++;
            }
        }
        EarleyState next = closure(kernelRules, kernelOrigins, kernelSeen, n, from.sharesPredictions ? closureMemo() : null, null);
        createdBytes.add(next.estimatedBytes());
        from.anyMemoPut(terminals, next);
        return next;
    }

    /** Whether the symbol after a rule's dot is one of the (ascending) terminals. */
    private static boolean scansOneOf(int next, int[] terminals) {
        return next < 0 && java.util.Arrays.binarySearch(terminals, -1 - next) >= 0;
    }

    /** The union of the first {@code n} states (see {@link #union(EarleyState, EarleyState)}), built once. */
    public EarleyState union(EarleyState[] states, int n) {
        EarleyState first = dead;
        int items = 0, distinct = 0;
        for (int i = 0; i < n; i++) {
            EarleyState s = states[i];
            if (s == dead || s == first) continue;
            if (first == dead) first = s;
            items += s.itemCount();
            distinct++;
        }
        if (distinct <= 1) return first;
        boolean sorted = true;
        for (int i = 0; i < n && sorted; i++) sorted = states[i] == dead || SortedUnion.applies(first, states[i]);
        if (sorted) {
            EarleyState u = first;
            for (int i = 0; i < n; i++) if (states[i] != dead && states[i] != first) u = union(u, states[i]);
            return u;
        }
        ItemSet set = new ItemSet(Math.max(16, items * 2));
        for (int i = 0; i < n; i++) {
            EarleyState s = states[i];
            if (s == dead) continue;
            for (int k = 0; k < s.itemCount(); k++) set.add(s.rule(k), s.origin(k), s.seenAt(k));
        }
        return canonical(set, first.sharesPredictions);
    }

    /** The state of a closed item set, items in canonical order so equal sets compare equal. */
    private EarleyState canonical(ItemSet items, boolean sharesPredictions) {
        int[] order = canonicalOrder(items);
        int[] rules = new int[items.size];
        EarleyState[] origins = new EarleyState[items.size];
        long[][] seen = items.anySeen ? new long[items.size][] : null;
        long[] expected = ignoredMask.clone();
        boolean accepting = false;
        for (int i = 0; i < order.length; i++) {
            int idx = order[i];
            rules[i] = items.rules[idx];
            origins[i] = items.origins[idx];
            if (seen != null) seen[i] = items.seen[idx];
            accepting |= expectNext(rules[i], expected);
        }
        return new EarleyState(rules, origins, seen, expected, accepting, sharesPredictions);
    }

    /**
     * The state of the closed items (none of them the set's own) followed by the set's own
     * predicted items, pointed to, not copied: the canonical order, since own items come last in it.
     */
    private EarleyState canonical(ItemSet items, PredictedItems own, ClosureMemo closures) {
        int[] order = canonicalOrder(items);
        int m = order.length;
        int[] rules = new int[m];
        EarleyState[] origins = new EarleyState[m];
        long[][] seen = items.anySeen ? new long[m][] : null;
        long[] expected = own.expected.clone();
        boolean accepting = own.accepting;
        for (int k = 0; k < m; k++) {
            int idx = order[k];
            rules[k] = items.rules[idx];
            origins[k] = items.origins[idx];
            if (seen != null) seen[k] = items.seen[idx];
            accepting |= expectNext(rules[k], expected);
        }
        return new EarleyState(rules, origins, seen, expected, accepting, true, own);
    }

    /**
     * Indices of the items in canonical order: the items with an origin first, then the set's own
     * (origin null); within each, by rule, then origin serial, then members seen.
     */
    private static int[] canonicalOrder(ItemSet items) {
        long[] keys = new long[items.size];
        for (int i = 0; i < items.size; i++) {
            long own = items.origins[i] == null ? 1L << 62 : 0;
            keys[i] = own | ((long) items.rules[i] << 31) | i;
        }
        Arrays.sort(keys); // by origin kind, rule, then insertion
        int[] order = new int[items.size];
        for (int i = 0; i < keys.length; i++) order[i] = (int) (keys[i] & 0x7FFF_FFFFL);
        // within one rule and origin kind, order by origin serial
        for (int start = 0, end; start < order.length; start = end) {
            long run = keys[start] >>> 31;
            end = start + 1;
            while (end < order.length && keys[end] >>> 31 == run) end++;
            if (end - start > 1) sortRunBySerial(order, start, end, items.serials, items.seen);
        }
        return order;
    }

    private static long serialOf(EarleyState origin) { return origin == null ? -1 : origin.serial; }

    /** Items of one rule by origin serial, then (permutation items) by the members seen. */
    private static int compareItems(int x, int y, long[] serials, long[][] seen) {
        int c = Long.compare(serials[x], serials[y]);
        if (c != 0 || seen[x] == null || seen[y] == null) return c;
        return Arrays.compare(seen[x], seen[y]);
    }

    private static void sortRunBySerial(int[] order, int from, int to, long[] serials, long[][] seen) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int cur = order[i];
                int j = i - 1;
                while (j >= from && compareItems(order[j], cur, serials, seen) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = cur;
            }
            return;
        }
        Integer[] run = new Integer[to - from];
        for (int i = from; i < to; i++) run[i - from] = order[i];
        Arrays.sort(run, (x, y) -> compareItems(x, y, serials, seen));
        for (int i = from; i < to; i++) order[i] = run[i - from];
    }

    /** Insertion-ordered set of (rule, origin, members seen) triples; origins compared by serial (unique per state). */
    private static final class ItemSet {
        public int[] rules; public EarleyState[] origins; public long[] serials; public long[][] seen; public int size;
        public boolean anySeen;
        /** Nonterminals predicted, while the set's own items come from a {@link ClosureMemo} (else null: predictions are added). */
        public long[] predicted;
        public int[] table; // open addressing over indices+1
        /** Items looked at while completing, and items added or found present: the step's work. */
        public long work;
        /** (lhs, origin serial) pairs completed so far, open addressing; null until the second completion. */
        private long[] completedSerials;
        private int[] completedLhs;
        private int completedCount;
        private long firstSerial = Long.MIN_VALUE;
        private int firstLhs;

        /** False when {@code (lhs, origin)} was completed before in this step. */
        public boolean firstCompletion(int lhs, long serial) {
            if (firstSerial == Long.MIN_VALUE) { // most steps complete once or a few times: no table until needed
                firstSerial = serial;
                firstLhs = lhs;
                return true;
            }
            if (firstSerial == serial && firstLhs == lhs) return false;
            if (completedSerials == null || completedCount * 2 >= completedSerials.length) growCompleted();
            int mask = completedSerials.length - 1;
            int h = lhs * 0x9E3779B1 + (int) ((serial * 0x9E3779B97F4A7C15L) >>> 32);
            for (int i = (h ^ (h >>> 15)) & mask; ; i = (i + 1) & mask) {
                if (completedLhs[i] == 0) {
                    completedSerials[i] = serial;
                    completedLhs[i] = lhs + 1;
                    completedCount++;
                    return true;
                }
                if (completedSerials[i] == serial && completedLhs[i] == lhs + 1) return false;
            }
        }

        private void growCompleted() {
            long[] oldSerials = completedSerials;
            int[] oldLhs = completedLhs;
            int capacity = oldSerials == null ? 16 : oldSerials.length * 2;
            completedSerials = new long[capacity];
            completedLhs = new int[capacity];
            completedCount = 0;
            if (oldSerials == null) return;
            for (int i = 0; i < oldSerials.length; i++) {
                if (oldLhs[i] != 0) firstCompletion(oldLhs[i] - 1, oldSerials[i]);
            }
        }

        public ItemSet(int capacity) {
            rules = new int[capacity]; origins = new EarleyState[capacity]; serials = new long[capacity]; seen = new long[capacity][];
            table = new int[Integer.highestOneBit(capacity * 2 - 1) << 1];
        }

        /** Past this many table slots a thread's scratch set is not kept: clearing it would cost more than a new one. */
        private static final int MAX_KEPT_TABLE = 1 << 13;
        private static final ThreadLocal<ItemSet[]> SCRATCH = ThreadLocal.withInitial(() -> new ItemSet[1]);

        /**
         * This thread's empty item set for one closure (its contents are copied out before the next): a
         * complemented {@code oneOf} makes sets of 700 items, and allocating (zeroing) their arrays afresh for every
         * scan was a tenth of such a schema's mask time.
         */
        static ItemSet scratch(int kernelSize) {
            ItemSet[] holder = SCRATCH.get();
            ItemSet s = holder[0];
            if (s == null || s.table.length > MAX_KEPT_TABLE) {
                s = new ItemSet(Math.max(16, kernelSize * 4));
                holder[0] = s;
                return s;
            }
            s.clear();
            return s;
        }

        /** Empties the set for reuse, dropping its references (origins, members seen) so they can be collected. */
        private void clear() {
            if (size * 8 >= table.length) {
                Arrays.fill(table, 0);
            } else {
                // a few items in the table a large set grew: clear their slots only
                int mask = table.length - 1;
                for (int j = 0; j < size; j++) {
                    int h = hash(rules[j], serials[j], seen[j]);
                    int i = (h ^ (h >>> 15)) & mask;
                    while (table[i] != j + 1) i = (i + 1) & mask;
                    table[i] = 0;
                }
            }
            Arrays.fill(origins, 0, size, null);
            Arrays.fill(seen, 0, size, null);
            size = 0;
            anySeen = false;
            predicted = null;
            work = 0;
            if (completedLhs != null && completedLhs.length <= 1024) {
                if (completedCount > 0) Arrays.fill(completedLhs, 0); // an empty slot is lhs 0; the serials are overwritten
            } else {
                completedSerials = null;
                completedLhs = null;
            }
            completedCount = 0;
            firstSerial = Long.MIN_VALUE;
            firstLhs = 0;
        }

        private static int hash(int rule, long serial, long[] seen) {
            int h = rule * 0x9E3779B1 + (int) ((serial * 0x9E3779B97F4A7C15L) >>> 32);
            return seen == null ? h : h * 31 + Arrays.hashCode(seen);
        }

        public void add(int rule, EarleyState origin, long[] seenMembers) {
            add(rule, origin, serialOf(origin), seenMembers);
        }

        /** {@code serial} is {@code origin}'s serial (-1 for null). */
        public void add(int rule, EarleyState origin, long serial, long[] seenMembers) {
            work++;
            int h = hash(rule, serial, seenMembers);
            int mask = table.length - 1;
            int i = (h ^ (h >>> 15)) & mask;
            while (table[i] != 0) {
                int j = table[i] - 1;
                if (rules[j] == rule && serials[j] == serial && (seen[j] == seenMembers || Arrays.equals(seen[j], seenMembers))) return;
                i = (i + 1) & mask;
            }
            if (size == rules.length) {
                rules = Arrays.copyOf(rules, size * 2);
                origins = Arrays.copyOf(origins, size * 2);
                serials = Arrays.copyOf(serials, size * 2);
                seen = Arrays.copyOf(seen, size * 2);
            }
            rules[size] = rule; origins[size] = origin; serials[size] = serial; seen[size] = seenMembers; size++;
            if (seenMembers != null) anySeen = true;
            table[i] = size;
            if (size * 2 > table.length) rehash();
        }

        private void rehash() {
            table = new int[table.length * 2];
            int mask = table.length - 1;
            for (int j = 0; j < size; j++) {
                int h = hash(rules[j], serials[j], seen[j]);
                int i = (h ^ (h >>> 15)) & mask;
                while (table[i] != 0) i = (i + 1) & mask;
                table[i] = j + 1;
            }
        }
    }
}
