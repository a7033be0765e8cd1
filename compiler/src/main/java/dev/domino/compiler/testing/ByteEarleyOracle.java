package dev.domino.compiler.testing;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.TokenReferences;
import dev.domino.runtime.internal.scan.TokenMatch;
import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately simple reference recognizer: the grammar is flattened into a context-free
 * grammar over <em>bytes</em> and run through a textbook Earley parser, one Earley set per byte.
 * It shares no code with the fast engine, so the two can check each other.
 *
 * <h2>Byte-level CFG</h2>
 * <ul>
 *   <li>terminals are inclusive byte ranges; a code point set becomes alternatives of UTF-8
 *   byte-range sequences ({@link Utf8Ranges}); a literal becomes its UTF-8 bytes;</li>
 *   <li>{@code Repeat} becomes left recursion ({@code R -> ε | R body}); bounded repeats become
 *   a chain of optional nonterminals;</li>
 *   <li>lexical rules ({@link Grammar#lexicalRules()}) are inlined at byte level, but nothing is
 *   inserted inside them;</li>
 *   <li>{@link Grammar#ignored()} text may occur any number of times at the start, at the end
 *   and after every <em>terminal occurrence</em> (a Ref to a lexical rule, or a Literal/Chars
 *   directly in a non-lexical rule): the grammar becomes {@code S' -> IGN S} and every terminal
 *   occurrence {@code t} becomes {@code t IGN}, with {@code IGN -> ε | IGN ignored}.</li>
 * </ul>
 * Productions that mention unproductive nonterminals are dropped, and prediction only ever
 * reaches reachable ones, so every Earley item belongs to some complete derivation: a non-empty
 * Earley set after reading bytes means exactly that the bytes are a viable prefix.
 *
 * <h2>Earley</h2>
 * Items are (dotted position, origin set). Nullable nonterminals use the Aycock–Horspool trick:
 * predicting a nullable {@code B} in {@code A -> α • B β} also adds {@code A -> α B • β}, so
 * completions whose origin is the current set can be skipped. Left recursion needs nothing
 * special. A {@link State} is an immutable Earley set that points back (through item origins)
 * at the sets it needs; advancing from it never recomputes the prefix.
 *
 * <h2>Permutations</h2>
 * An {@link Expr.Perm} becomes a nonterminal without productions, run by <em>permutation items</em>
 * (nonterminal, step, members used so far, origin): step BEGIN (nothing read), MEMBER (a member was
 * just read) or SEPARATOR (a separator was just read). From BEGIN or SEPARATOR (or MEMBER when
 * there is no separator) the item predicts every member it has not used and the other; from
 * MEMBER it predicts the separator when some member or the other could still follow it; it
 * derives its nonterminal after a member once every required member was used. Completing a
 * member's symbol advances every waiting permutation item for which that member is unused
 * (structurally equal members share a symbol, so each of them is tried).
 * With member count bounds the item also holds k, the members read (declared and other), exactly;
 * an item exists only while some way to finish remains (enough productive members or the other
 * for minCount and the required ones, no more than maxCount), and it derives only when k >= minCount.
 *
 * <h2>Arrays of distinct items</h2>
 * An {@link Expr.UniqueArray} is run the same way, by <em>unique items</em> (nonterminal, step, item values so
 * far, origin): after the opening it predicts an item; completing an item from set o to the current set
 * parses the bytes between them as JSON (Jackson, {@link JsonValues}) and goes on only when the value equals
 * none of the earlier ones; after an item it predicts the separator (below maxItems) and the closing (from
 * minItems). Since a refused item leaves completed items behind that lead nowhere, a set is viable when some
 * item in it can still scan (or it is a sentence), not merely when it is non-empty.
 */
public final class ByteEarleyOracle {
    /** Marks "dot at the end" in {@link #posSym}. */
    private static final int END = Integer.MIN_VALUE;

    // Symbols: nonterminal n >= 0; a byte range lo..hi is the terminal -(1 + (lo << 8 | hi)).
    private static int terminal(int lo, int hi) { return -(1 + ((lo << 8) | hi)); }
    private static int termLo(int sym) { return ((-sym - 1) >> 8) & 0xFF; }
    private static int termHi(int sym) { return (-sym - 1) & 0xFF; }
    // A token reference (whole tokens by id, see Expr.TokenRef) is the terminal -(65537 + k), k into tokenSets.
    private static int tokenTerminal(int k) { return -(65537 + k); }
    private static boolean isByteTerminal(int sym) { return sym < 0 && sym >= -65536; }
    private static int tokenIndex(int sym) { return -sym - 65537; }

    private final int[] prodLhs;     // production -> left-hand nonterminal
    private final int[] prodStart;   // production -> its first dotted position
    private final int[] posSym;      // dotted position -> symbol after the dot, or END
    private final int[] posProd;     // dotted position -> production
    private final int[][] prodsOf;   // nonterminal -> its (productive) productions
    private final boolean[] nullable;
    private final int acceptPos;     // S' -> IGN S •
    private final Map<Integer, PermSpec> perms;  // permutation nonterminal -> its parts
    private final Map<Integer, UniqueSpec> uniques;  // array-of-distinct-items nonterminal -> its parts
    private final boolean[] productiveNt;
    private final State startState;
    /** The vocabulary token references were resolved against; null when the grammar has none. */
    private final Vocabulary vocabulary;
    /** Token sets of the grammar's token references, by index (see {@link #tokenTerminal}). */
    private final List<TokenMatch> tokenSets;
    /** Gives every Earley set a distinct id: item keys name their origin set by it. */
    private final java.util.concurrent.atomic.AtomicInteger ids = new java.util.concurrent.atomic.AtomicInteger();

    /** Dead state: nothing can follow. Shared; advancing it stays dead. */
    private static final State DEAD = new State(-1, -1);

    public ByteEarleyOracle(Grammar grammar) { this(grammar, null); }

    /**
     * A recognizer over tokens as well as bytes: the grammar's token references ({@code <|eot_id|>},
     * {@code !<[id]>}) are resolved against {@code vocabulary} and scan whole tokens by id
     * ({@link #advanceToken}, {@link #allowedTokens}).
     */
    public ByteEarleyOracle(Grammar grammar, Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
        Builder b = new Builder(grammar, vocabulary);
        int startNt = b.buildStart();
        List<List<int[]>> prods = b.prods;
        int nts = prods.size();

        // Productive nonterminals: least fixpoint. Then keep only productions over productive symbols.
        boolean[] productive = new boolean[nts];
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int a = 0; a < nts; a++) {
                if (productive[a]) continue;
                for (int[] rhs : prods.get(a)) {
                    if (allProductive(rhs, productive)) { productive[a] = true; changed = true; break; }
                }
                PermSpec spec = b.perms.get(a);
                if (spec != null && !productive[a] && spec.canFinish(productive)) { productive[a] = true; changed = true; }
                UniqueSpec u = b.uniques.get(a);
                if (u != null && !productive[a] && productive[u.open] && productive[u.itemAt(0)] && productive[u.close]
                        && (u.minItems < 2 || productive[u.separator])) { productive[a] = true; changed = true; }
            }
        }
        this.perms = b.perms;
        this.uniques = b.uniques;
        this.productiveNt = productive;
        List<Integer> lhs = new ArrayList<>();
        List<int[]> rhss = new ArrayList<>();
        // S' first, so that production 0 is the accepting one.
        if (productive[startNt]) { lhs.add(startNt); rhss.add(prods.get(startNt).get(0)); }
        for (int a = 0; a < nts; a++) {
            if (a == startNt) continue;
            for (int[] rhs : prods.get(a)) {
                if (allProductive(rhs, productive)) { lhs.add(a); rhss.add(rhs); }
            }
        }
        int np = lhs.size();
        prodLhs = new int[np];
        prodStart = new int[np];
        int positions = 0;
        for (int p = 0; p < np; p++) { prodLhs[p] = lhs.get(p); prodStart[p] = positions; positions += rhss.get(p).length + 1; }
        posSym = new int[positions];
        posProd = new int[positions];
        int[] count = new int[nts];
        for (int p = 0; p < np; p++) {
            int[] rhs = rhss.get(p);
            for (int k = 0; k <= rhs.length; k++) {
                posSym[prodStart[p] + k] = k < rhs.length ? rhs[k] : END;
                posProd[prodStart[p] + k] = p;
            }
            count[prodLhs[p]]++;
        }
        prodsOf = new int[nts][];
        for (int a = 0; a < nts; a++) prodsOf[a] = new int[count[a]];
        Arrays.fill(count, 0);
        for (int p = 0; p < np; p++) prodsOf[prodLhs[p]][count[prodLhs[p]]++] = p;

        // Nullable nonterminals: least fixpoint over the kept productions; a permutation is nullable
        // when it requires nothing (its members may not be nullable).
        nullable = new boolean[nts];
        for (Map.Entry<Integer, PermSpec> e : perms.entrySet()) nullable[e.getKey()] = e.getValue().required.isEmpty() && e.getValue().minCount == 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int p = 0; p < np; p++) {
                if (nullable[prodLhs[p]]) continue;
                boolean all = true;
                for (int k = prodStart[p]; posSym[k] != END; k++) {
                    int s = posSym[k];
                    if (s < 0 || !nullable[s]) { all = false; break; }
                }
                if (all) { nullable[prodLhs[p]] = true; changed = true; }
            }
        }
        for (PermSpec spec : perms.values()) {
            for (int m : spec.members) if (nullable[m]) throw new GrammarException("a permutation member matches the empty string");
            if ((spec.other >= 0 && nullable[spec.other]) || (spec.separator >= 0 && nullable[spec.separator])) {
                throw new GrammarException("a permutation's other member or separator matches the empty string");
            }
        }

        if (productive[startNt]) {
            acceptPos = prodStart[0] + rhss.get(0).length;
            State s0 = new State(0, ids.getAndIncrement());
            s0.add(prodStart[0], s0);
            startState = close(s0);
        } else {
            acceptPos = -1;
            startState = DEAD; // the language is empty
        }
        tokenSets = List.copyOf(b.tokenSets);
    }

    private static boolean allProductive(int[] rhs, boolean[] productive) {
        for (int s : rhs) if (s >= 0 && !productive[s]) return false;
        return true;
    }

    // ------------------------------------------------------------------------------------------
    // Public API

    /** The state before any byte. Dead if the grammar's language is empty. */
    public State start() { return startState; }

    /** The state after reading {@code bytes} from {@code s}; a dead state (never null) if not viable. */
    public State advance(State s, byte[] bytes) {
        for (byte x : bytes) {
            if (!s.isViable()) return DEAD;
            s = step(s, x & 0xFF);
        }
        return s;
    }

    /** Advances by one byte (0..255). */
    public State advance(State s, int b) { return s.isViable() ? step(s, b & 0xFF) : DEAD; }

    /** Whether the bytes read so far are a prefix of some sentence. */
    public boolean isViable(State s) { return s.isViable(); }

    /** Whether the bytes read so far form a sentence. */
    public boolean isComplete(State s) { return s.complete; }

    public boolean isViablePrefix(byte[] bytes) { return advance(start(), bytes).isViable(); }

    public boolean isSentence(byte[] bytes) { return advance(start(), bytes).complete; }

    public boolean isViablePrefix(String text) { return isViablePrefix(text.getBytes(StandardCharsets.UTF_8)); }

    public boolean isSentence(String text) { return isSentence(text.getBytes(StandardCharsets.UTF_8)); }

    /**
     * Which tokens keep {@code s} viable: bit {@code i} is set iff {@code s} advanced by
     * {@code tokens.get(i)} is viable. Tokens are visited in sorted order so that shared
     * prefixes are parsed once (a trie walk); nothing is cached beyond the call.
     */
    public BitSet viableTokens(State s, List<byte[]> tokens) {
        BitSet out = new BitSet(tokens.size());
        if (!s.isViable()) return out;
        Integer[] order = new Integer[tokens.size()];
        int maxLen = 0;
        for (int i = 0; i < order.length; i++) { order[i] = i; maxLen = Math.max(maxLen, tokens.get(i).length); }
        Arrays.sort(order, (x, y) -> Arrays.compareUnsigned(tokens.get(x), tokens.get(y)));
        State[] stack = new State[maxLen + 1]; // stack[k] = state after the first k bytes of prev
        stack[0] = s;
        byte[] prev = new byte[0];
        int known = 0; // stack[0..known] are valid for prev
        for (int idx : order) {
            byte[] tok = tokens.get(idx);
            int k = 0;
            int lim = Math.min(Math.min(prev.length, tok.length), known);
            while (k < lim && prev[k] == tok[k]) k++;
            // stack[0..k] are valid for tok too; extend (stopping at the first dead state).
            while (k < tok.length && stack[k].isViable()) { stack[k + 1] = step(stack[k], tok[k] & 0xFF); k++; }
            known = k;
            prev = tok;
            if (k == tok.length && stack[k].isViable()) out.set(idx);
        }
        return out;
    }

    /**
     * The state after token {@code id} (not a stop token): its bytes as grammar text (unless it is a
     * special token or has no bytes), united with scanning it whole where a token reference that
     * matches it may come next. Dead when neither way is viable.
     */
    public State advanceToken(State s, int id) {
        if (!s.isViable()) return DEAD;
        State byBytes = vocabulary.isGrammarToken(id) ? advance(s, vocabulary.bytes(id)) : DEAD;
        State next = new State(s.index + 1, ids.getAndIncrement());
        for (int i : s.scanItems) {
            int sym = posSym[s.pos[i]];
            if (!isByteTerminal(sym) && tokenSets.get(tokenIndex(sym)).matches(id)) next.add(s.pos[i] + 1, s.origin[i]);
        }
        if (next.size == 0) return byBytes;
        // one Earley set holding both ways: the byte way's items keep their origins
        for (int i = 0; byBytes.isViable() && i < byBytes.size; i++) next.add(byBytes.pos[i], byBytes.origin[i]);
        return close(next);
    }

    /**
     * The tokens allowed after {@code s} for a request that stops on {@code stopTokens}: tokens whose
     * bytes keep it viable (grammar text), tokens a reference that may come next matches, and a stop
     * token where the output is a sentence or a positive reference names it (negated references
     * never match stop tokens).
     */
    public BitSet allowedTokens(State s, int[] stopTokens) {
        BitSet out = new BitSet(vocabulary.size());
        if (!s.isViable()) return out;
        if (grammarIds == null) {
            List<Integer> ids = new ArrayList<>();
            List<byte[]> bytes = new ArrayList<>();
            for (int id = 0; id < vocabulary.size(); id++) if (vocabulary.isGrammarToken(id)) { ids.add(id); bytes.add(vocabulary.bytes(id)); }
            grammarBytes = bytes;
            grammarIds = ids.stream().mapToInt(Integer::intValue).toArray();
        }
        BitSet viable = viableTokens(s, grammarBytes);
        for (int i = viable.nextSetBit(0); i >= 0; i = viable.nextSetBit(i + 1)) out.set(grammarIds[i]);
        for (int i : s.scanItems) {
            int sym = posSym[s.pos[i]];
            if (isByteTerminal(sym)) continue;
            out.or(tokenSetBits(tokenIndex(sym)));
        }
        for (int stop : stopTokens) {
            boolean named = false;
            for (int i : s.scanItems) {
                int sym = posSym[s.pos[i]];
                if (!isByteTerminal(sym) && !tokenSets.get(tokenIndex(sym)).negated() && tokenSets.get(tokenIndex(sym)).matches(stop)) named = true;
            }
            if (s.complete || named) out.set(stop); else out.clear(stop);
        }
        return out;
    }

    /** Grammar tokens (ordinary, with bytes) and their bytes, for {@link #allowedTokens}; built on first use. */
    private volatile int[] grammarIds;
    private volatile List<byte[]> grammarBytes;
    private final java.util.concurrent.ConcurrentHashMap<Integer, BitSet> tokenSetBits = new java.util.concurrent.ConcurrentHashMap<>();

    /** The ids token set k matches (a negated set: every token with bytes but those). */
    private BitSet tokenSetBits(int k) {
        return tokenSetBits.computeIfAbsent(k, key -> {
            TokenMatch m = tokenSets.get(key);
            BitSet b = new BitSet(vocabulary.size());
            for (int id = 0; id < vocabulary.size(); id++) if ((!m.negated() || vocabulary.bytes(id).length > 0) && m.matches(id)) b.set(id);
            return b;
        });
    }

    /** The state after stop token {@code id} matched by a positive token reference (not as the end of the output). */
    public State advanceNamedToken(State s, int id) {
        if (!s.isViable()) return DEAD;
        State next = new State(s.index + 1, ids.getAndIncrement());
        for (int i : s.scanItems) {
            int sym = posSym[s.pos[i]];
            if (!isByteTerminal(sym) && !tokenSets.get(tokenIndex(sym)).negated() && tokenSets.get(tokenIndex(sym)).matches(id)) {
                next.add(s.pos[i] + 1, s.origin[i]);
            }
        }
        return next.size == 0 ? DEAD : close(next);
    }

    /** Convenience: advances by the UTF-8 bytes of {@code text}. */
    public State advance(State s, String text) { return advance(s, text.getBytes(StandardCharsets.UTF_8)); }

    /**
     * The bytes (0..255) that keep {@code s} viable. Every scanning item belongs to a complete
     * derivation (the CFG is pruned), so this is just the union of the scanned byte ranges.
     * Handy for explaining a mismatch with the engine.
     */
    public BitSet nextBytes(State s) {
        BitSet out = new BitSet(256);
        for (int i : s.scanItems) {
            int sym = posSym[s.pos[i]];
            if (isByteTerminal(sym)) out.set(termLo(sym), termHi(sym) + 1);
        }
        return out;
    }

    /** Number of byte-level productions kept (for diagnostics). */
    public int productionCount() { return prodLhs.length; }

    // ------------------------------------------------------------------------------------------
    // Earley

    /**
     * An Earley set: immutable once returned by the oracle (it is only written while being
     * built; hand it to another thread through a safe publication, e.g. an executor). Holds the items, plus two indexes: the items that scan a byte, and the items
     * waiting on each nonterminal (for completions that come back to this set later).
     */
    public static final class State {
        final int index; // bytes read since the start; -1 for the dead state
        final int id;    // distinct per set of one oracle (item keys name origins by it); -1 for the dead state
        int size;
        int[] pos = new int[8];
        State[] origin = new State[8];
        LongSet seen = new LongSet();
        final List<PermItem> permItems = new ArrayList<>();
        java.util.Set<PermItem> permSeen = new java.util.HashSet<>();
        final List<UniqueItem> uniqueItems = new ArrayList<>();
        java.util.Set<UniqueItem> uniqueSeen = new java.util.HashSet<>();
        /** The set before this one and the byte between them (null for a start set): the text of an item. */
        State previous;
        int lastByte;
        // after close():
        int[] scanItems = new int[0];   // indices of items whose next symbol is a terminal
        long[] waiting = new long[0];   // sorted (nonterminal << 32 | item index)
        boolean complete;

        State(int index, int id) { this.index = index; this.id = id; }

        boolean isViable() { return size > 0 && (complete || scanItems.length > 0); }

        void addPerm(PermItem item) { if (permSeen.add(item)) permItems.add(item); }

        void addUnique(UniqueItem item) { if (uniqueSeen.add(item)) uniqueItems.add(item); }

        /** Bytes read since the start (-1 for a dead state). */
        public int position() { return index; }

        /** Number of Earley items (for diagnostics). */
        public int itemCount() { return size; }

        void add(int p, State o) {
            if (!seen.add(((long) p << 32) | o.id)) return;
            if (size == pos.length) {
                pos = Arrays.copyOf(pos, size * 2);
                origin = Arrays.copyOf(origin, size * 2);
            }
            pos[size] = p;
            origin[size] = o;
            size++;
        }

        @Override public String toString() {
            return index < 0 ? "State[dead]" : "State[pos=" + index + ", items=" + size + (complete ? ", complete]" : "]");
        }
    }

    /** Scans byte {@code b} from {@code s} and closes the new set. */
    private State step(State s, int b) {
        State next = new State(s.index + 1, ids.getAndIncrement());
        next.previous = s;
        next.lastByte = b;
        for (int i : s.scanItems) {
            int sym = posSym[s.pos[i]];
            if (isByteTerminal(sym) && b >= termLo(sym) && b <= termHi(sym)) next.add(s.pos[i] + 1, s.origin[i]);
        }
        return next.size == 0 ? DEAD : close(next);
    }

    /** Prediction and completion until nothing changes; then builds the indexes. */
    private State close(State cur) {
        BitSet predicted = new BitSet();
        int scans = 0, waits = 0;
        for (int i = 0, k = 0, u = 0; i < cur.size || k < cur.permItems.size() || u < cur.uniqueItems.size(); ) {
            if (i == cur.size && k < cur.permItems.size()) {
                closePerm(cur, cur.permItems.get(k++), predicted);
                continue;
            }
            if (i == cur.size) {
                closeUnique(cur, cur.uniqueItems.get(u++), predicted);
                continue;
            }
            int p = cur.pos[i];
            State o = cur.origin[i];
            i++;
            int sym = posSym[p];
            if (sym == END) {
                // Completion. If o == cur the nonterminal derived ε; Aycock–Horspool already
                // advanced every item of cur waiting on it, at prediction time.
                if (o == cur) continue;
                derived(cur, prodLhs[posProd[p]], o);
            } else if (sym >= 0) {
                predict(cur, sym, predicted);
                if (nullable[sym]) cur.add(p + 1, o);
            }
        }
        for (int i = 0; i < cur.size; i++) {
            int sym = posSym[cur.pos[i]];
            if (sym >= 0) waits++;
            else if (sym != END) scans++;
        }
        int[] scanItems = new int[scans];
        long[] waiting = new long[waits];
        scans = 0;
        waits = 0;
        for (int i = 0; i < cur.size; i++) {
            int sym = posSym[cur.pos[i]];
            if (sym == END) {
                if (cur.pos[i] == acceptPos && cur.origin[i].id == 0) cur.complete = true;
            } else if (sym >= 0) {
                waiting[waits++] = ((long) sym << 32) | i;
            } else {
                scanItems[scans++] = i;
            }
        }
        Arrays.sort(waiting);
        cur.scanItems = scanItems;
        cur.waiting = waiting;
        cur.seen = null; // no more items will be added
        cur.permSeen = null;
        cur.uniqueSeen = null;
        return cur;
    }

    private void predict(State cur, int sym, BitSet predicted) {
        if (predicted.get(sym)) return;
        predicted.set(sym);
        for (int prod : prodsOf[sym]) cur.add(prodStart[prod], cur);
        if (perms.containsKey(sym)) cur.addPerm(new PermItem(sym, PermItem.BEGIN, new BitSet(), 0, cur));
        if (uniques.containsKey(sym)) cur.addUnique(new UniqueItem(sym, UniqueItem.BEGIN, List.of(), cur));
    }

    /** Nonterminal {@code a} was derived from set {@code o} up to {@code cur}: advance what waited for it in o. */
    private void derived(State cur, int a, State o) {
        long[] w = o.waiting;
        for (int j = lowerBound(w, a); j < w.length && (int) (w[j] >>> 32) == a; j++) {
            int item = (int) w[j];
            cur.add(o.pos[item] + 1, o.origin[item]);
        }
        for (PermItem item : o.permItems) {
            PermSpec spec = perms.get(item.nt());
            if (item.step() == PermItem.MEMBER && spec.separator >= 0) {
                if (spec.separator == a) cur.addPerm(new PermItem(item.nt(), PermItem.SEPARATOR, item.used(), item.count(), item.origin()));
                continue;
            }
            for (int m = 0; m < spec.members.length; m++) {
                if (spec.members[m] != a || item.used().get(m)) continue;
                BitSet used = (BitSet) item.used().clone();
                used.set(m);
                if (spec.canEnd(used, item.count() + 1, productiveNt)) {
                    cur.addPerm(new PermItem(item.nt(), PermItem.MEMBER, used, item.count() + 1, item.origin()));
                }
            }
            if (spec.other == a && spec.canEnd(item.used(), item.count() + 1, productiveNt)) {
                cur.addPerm(new PermItem(item.nt(), PermItem.MEMBER, item.used(), item.count() + 1, item.origin()));
            }
        }
        for (UniqueItem item : o.uniqueItems) {
            UniqueSpec spec = uniques.get(item.nt());
            int n = item.values().size();
            if (item.step() == UniqueItem.BEGIN && a == spec.open) {
                cur.addUnique(new UniqueItem(item.nt(), UniqueItem.EXPECT_ITEM, item.values(), item.origin()));
            } else if (item.step() == UniqueItem.EXPECT_ITEM && a == spec.itemAt(n)) {
                com.fasterxml.jackson.databind.JsonNode v = JsonValues.parse(textBetween(o, cur));
                if (v == null) throw new IllegalStateException("an item of an array of distinct items is not JSON: " + textBetween(o, cur));
                if (JsonValues.among(v, item.values())) continue; // equal to an earlier item
                List<com.fasterxml.jackson.databind.JsonNode> values = new ArrayList<>(item.values());
                values.add(v);
                cur.addUnique(new UniqueItem(item.nt(), UniqueItem.AFTER_ITEM, List.copyOf(values), item.origin()));
            } else if (item.step() == UniqueItem.AFTER_ITEM && a == spec.separator && (spec.maxItems < 0 || n < spec.maxItems)
                    && productiveNt[spec.itemAt(n)]) {
                cur.addUnique(new UniqueItem(item.nt(), UniqueItem.EXPECT_ITEM, item.values(), item.origin()));
            } else if (item.step() == UniqueItem.AFTER_ITEM && a == spec.close && n >= spec.minItems) {
                cur.addUnique(new UniqueItem(item.nt(), UniqueItem.CLOSED, item.values(), item.origin()));
            }
        }
    }

    /** The bytes read from set {@code from} to set {@code to}, as text. */
    private static String textBetween(State from, State to) {
        byte[] bytes = new byte[to.index - from.index];
        State s = to;
        for (int i = bytes.length - 1; i >= 0; i--) { bytes[i] = (byte) s.lastByte; s = s.previous; }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private void closeUnique(State cur, UniqueItem item, BitSet predicted) {
        UniqueSpec spec = uniques.get(item.nt());
        switch (item.step()) {
            case UniqueItem.BEGIN -> predict(cur, spec.open, predicted);
            case UniqueItem.EXPECT_ITEM -> { if (productiveNt[spec.itemAt(item.values().size())]) predict(cur, spec.itemAt(item.values().size()), predicted); }
            case UniqueItem.AFTER_ITEM -> {
                int n = item.values().size();
                if ((spec.maxItems < 0 || n < spec.maxItems) && productiveNt[spec.itemAt(n)]) predict(cur, spec.separator, predicted);
                if (n >= spec.minItems) predict(cur, spec.close, predicted);
            }
            default -> { if (item.origin() != cur) derived(cur, item.nt(), item.origin()); }
        }
    }

    /** A unique item: its nonterminal, step, the values of the items read (never modified) and origin set. */
    record UniqueItem(int nt, int step, List<com.fasterxml.jackson.databind.JsonNode> values, State origin) {
        static final int BEGIN = 0, EXPECT_ITEM = 1, AFTER_ITEM = 2, CLOSED = 3;
        @Override public boolean equals(Object x) {
            if (!(x instanceof UniqueItem u) || u.nt != nt || u.step != step || u.origin != origin || u.values.size() != values.size()) return false;
            for (int i = 0; i < values.size(); i++) if (!JsonValues.equal(values.get(i), u.values.get(i))) return false;
            return true;
        }
        @Override public int hashCode() { return ((nt * 31 + step) * 31 + values.size()) * 31 + System.identityHashCode(origin); }
    }

    /** The parts of an array of distinct items as byte-level symbols; maxItems -1: no maximum. */
    record UniqueSpec(int open, int[] prefix, int item, int separator, int close, int minItems, int maxItems) {
        /** The symbol of item i (0-based): positional, then the rest. */
        int itemAt(int i) { return i < prefix.length ? prefix[i] : item; }
    }

    private void closePerm(State cur, PermItem item, BitSet predicted) {
        PermSpec spec = perms.get(item.nt());
        boolean awaitsMember = item.step() != PermItem.MEMBER || spec.separator < 0;
        if (item.step() == PermItem.MEMBER) {
            BitSet missing = (BitSet) spec.required.clone();
            missing.andNot(item.used());
            if (missing.isEmpty() && item.count() >= spec.minCount && item.origin() != cur) derived(cur, item.nt(), item.origin());
            if (spec.separator >= 0 && spec.more(item.used(), item.count(), productiveNt)) predict(cur, spec.separator, predicted);
        }
        if (awaitsMember) {
            for (int m = 0; m < spec.members.length; m++) {
                if (item.used().get(m) || !productiveNt[spec.members[m]]) continue;
                BitSet used = (BitSet) item.used().clone();
                used.set(m);
                if (spec.canEnd(used, item.count() + 1, productiveNt)) predict(cur, spec.members[m], predicted);
            }
            if (spec.other >= 0 && productiveNt[spec.other] && spec.canEnd(item.used(), item.count() + 1, productiveNt)) {
                predict(cur, spec.other, predicted);
            }
        }
    }

    /** A permutation item: its nonterminal, step, members used (never modified), members read and origin set. */
    record PermItem(int nt, int step, BitSet used, int count, State origin) {
        static final int BEGIN = 0, MEMBER = 1, SEPARATOR = 2;
        @Override public boolean equals(Object x) {
            return x instanceof PermItem p && p.nt == nt && p.step == step && p.count == count && p.origin == origin && p.used.equals(used);
        }
        @Override public int hashCode() { return ((nt * 31 + step) * 31 + count) * 31 + used.hashCode() + System.identityHashCode(origin); }
    }

    /** The parts of a permutation as byte-level symbols; -1 for no other / no separator. */
    static final class PermSpec {
        final int[] members;
        final BitSet required = new BitSet();
        final int other, separator;
        final int minCount, maxCount; // maxCount -1: no maximum

        PermSpec(int[] members, BitSet required, int other, int separator, int minCount, int maxCount) {
            this.members = members;
            this.required.or(required);
            this.other = other;
            this.separator = separator;
            this.minCount = minCount;
            this.maxCount = maxCount;
        }

        boolean canFinish(boolean[] productive) {
            if (!canEnd(new BitSet(), 0, productive)) return false;
            return Math.max(required.cardinality(), minCount) < 2 || separator < 0 || productive[separator];
        }

        /**
         * Whether, after reading {@code count} members of which {@code used} are the declared ones,
         * some continuation ends the permutation: the unused required members are productive, and a
         * final count exists between what they force and what the productive members (and the
         * other, without limit) allow, within minCount..maxCount.
         */
        boolean canEnd(BitSet used, int count, boolean[] productive) {
            if (minCount == 0 && maxCount < 0) return true; // uncounted: productive required members were checked once
            long fewest = count, most = count;
            for (int m = 0; m < members.length; m++) {
                if (used.get(m)) continue;
                if (required.get(m)) {
                    if (!productive[members[m]]) return false;
                    fewest++;
                }
                if (productive[members[m]]) most++;
            }
            if (other >= 0 && productive[other]) most = Long.MAX_VALUE;
            if (maxCount >= 0) most = Math.min(most, maxCount);
            return Math.max(fewest, minCount) <= most;
        }

        /** Whether a member could still follow a separator after {@code used} and {@code count} members. */
        boolean more(BitSet used, int count, boolean[] productive) {
            if (other >= 0 && productive[other] && canEnd(used, count + 1, productive)) return true;
            for (int m = 0; m < members.length; m++) {
                if (used.get(m) || !productive[members[m]]) continue;
                BitSet next = (BitSet) used.clone();
                next.set(m);
                if (canEnd(next, count + 1, productive)) return true;
            }
            return false;
        }
    }

    private static int lowerBound(long[] w, int nt) {
        long key = (long) nt << 32;
        int lo = 0, hi = w.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (w[mid] < key) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** A minimal open-addressing set of non-negative longs (item keys). */
    static final class LongSet {
        private long[] table = new long[16];
        private int count;

        LongSet() { Arrays.fill(table, -1); }

        boolean add(long key) {
            if (2 * (count + 1) > table.length) grow();
            if (!insert(table, key)) return false;
            count++;
            return true;
        }

        private static boolean insert(long[] t, long key) {
            int mask = t.length - 1;
            int h = (int) (key ^ (key >>> 29) ^ (key >>> 32)) * 0x9E3779B9;
            for (int i = (h ^ (h >>> 16)) & mask; ; i = (i + 1) & mask) {
                if (t[i] == -1) { t[i] = key; return true; }
                if (t[i] == key) return false;
            }
        }

        private void grow() {
            long[] t = new long[table.length * 2];
            Arrays.fill(t, -1);
            for (long k : table) if (k != -1) insert(t, k);
            table = t;
        }
    }

    // ------------------------------------------------------------------------------------------
    // IR -> byte-level CFG

    /** Builds productions; nonterminals are indices into {@link #prods}. */
    private static final class Builder {
        final Grammar g;
        final List<List<int[]>> prods = new ArrayList<>();
        final Map<String, Integer> lexNt = new HashMap<>();    // rule inlined without ignored text
        final Map<String, Integer> parserNt = new HashMap<>(); // rule with ignored text after terminals
        final Map<String, Integer> tokenNt = new HashMap<>();  // lexical rule as a terminal occurrence
        final Map<Expr, Integer> parserMemo = new HashMap<>(); // structurally equal exprs share
        final Map<Expr, Integer> lexMemo = new HashMap<>();    // a nonterminal, per mode
        final Map<Integer, PermSpec> perms = new HashMap<>();  // permutation nonterminals
        final Map<Integer, UniqueSpec> uniques = new HashMap<>();  // array-of-distinct-items nonterminals
        int ign = -1;                                          // IGN, or -1 if nothing is ignored
        final Vocabulary vocabulary;                           // resolves token references; may be null
        final List<TokenMatch> tokenSets = new ArrayList<>();

        Builder(Grammar g, Vocabulary vocabulary) { this.g = g; this.vocabulary = vocabulary; }

        int newNt() { prods.add(new ArrayList<>()); return prods.size() - 1; }

        void add(int nt, int... rhs) { prods.get(nt).add(rhs); }

        int buildStart() {
            int sPrime = newNt();
            if (!g.ignored().isEmpty()) {
                ign = newNt();
                int one = newNt();
                add(ign);               // IGN -> ε
                add(ign, ign, one);     // IGN -> IGN one
                for (Expr e : g.ignored()) add(one, sym(e, true));
            }
            int body = sym(new Expr.Ref(g.start(), 0, 0), false);
            if (ign >= 0) add(sPrime, ign, body); else add(sPrime, body);
            return sPrime;
        }

        /** Wraps a terminal occurrence so that ignored text may follow it (parser mode only). */
        int occurrence(int sym, boolean lexical) {
            if (lexical || ign < 0) return sym;
            int n = newNt();
            add(n, sym, ign);
            return n;
        }

        /** A symbol deriving exactly {@code e}; {@code lexical} = inside a terminal (no ignored text). */
        int sym(Expr e, boolean lexical) {
            if (e instanceof Expr.Ref r) return ref(r, lexical);
            // Memoize structurally equal subexpressions (records): keeps the CFG small.
            Map<Expr, Integer> memo = lexical ? lexMemo : parserMemo;
            Integer known = memo.get(e);
            if (known != null) return known;
            int result;
            if (e instanceof Expr.TokenRef ref) {
                if (lexical) throw new GrammarException("token reference " + ref.display() + " inside a terminal", ref.line(), ref.column());
                if (vocabulary == null) throw new GrammarException("token reference " + ref.display() + " needs a vocabulary", ref.line(), ref.column());
                int n = newNt();
                add(n, tokenTerminal(tokenSets.size()));
                tokenSets.add(TokenReferences.resolve(ref, vocabulary));
                result = occurrence(n, false);
            } else if (e instanceof Expr.Lazy u) {
                // right-linear over the body's automaton: N_q -> b N_q' while nothing has matched;
                // N_q -> ε where the text may end (at the first match, or before any)
                dev.domino.runtime.internal.scan.ByteDfa dfa = dev.domino.compiler.automata.LazyAutomaton.of(u.body(), g.rules()::get);
                int[] nt = new int[dfa.stateCount()];
                for (int q = 0; q < nt.length; q++) nt[q] = newNt();
                for (int q = 0; q < nt.length; q++) {
                    boolean match = dfa.isAccepting(q);
                    if (match == u.consume()) add(nt[q]);
                    if (match) continue;
                    for (int b = 0; b < 256; ) {
                        int target = dfa.step(q, b), hi = b;
                        while (hi < 255 && dfa.step(q, hi + 1) == target) hi++;
                        if (target >= 0) add(nt[q], terminal(b, hi), nt[target]);
                        b = hi + 1;
                    }
                }
                result = occurrence(nt[dfa.start()], lexical);
            } else if (e instanceof Expr.Units u) {
                result = occurrence(units(u), lexical);
            } else if (e instanceof Expr.Literal lit) {
                byte[] bytes = lit.text().getBytes(StandardCharsets.UTF_8);
                int n = newNt();
                int[] rhs = new int[bytes.length];
                for (int i = 0; i < bytes.length; i++) rhs[i] = terminal(bytes[i] & 0xFF, bytes[i] & 0xFF);
                add(n, rhs);
                result = occurrence(n, lexical);
            } else if (e instanceof Expr.Chars c) {
                int n = newNt(); // no productions if the set is empty: unproductive, pruned
                for (int[] seq : Utf8Ranges.sequences(c.set())) {
                    int[] rhs = new int[seq.length / 2];
                    for (int k = 0; k < rhs.length; k++) rhs[k] = terminal(seq[2 * k], seq[2 * k + 1]);
                    add(n, rhs);
                }
                result = occurrence(n, lexical);
            } else if (e instanceof Expr.Automaton a) {
                // right-linear over the code point automaton: N_q -> ε where q accepts, N_q -> bytes(cp) N_q'
                dev.domino.compiler.ir.CodePointAutomaton dfa = a.dfa();
                int[] nt = new int[dfa.stateCount()];
                for (int q = 0; q < nt.length; q++) nt[q] = newNt();
                for (int q = 0; q < nt.length; q++) {
                    if (dfa.isAccepting(q)) add(nt[q]);
                    for (int r = dfa.firstRange(q); r < dfa.endRange(q); r++) {
                        for (int[] seq : Utf8Ranges.sequences(dev.domino.compiler.ir.CodePointSet.range(dfa.lo(r), dfa.hi(r)))) {
                            int[] rhs = new int[seq.length / 2 + 1];
                            for (int k = 0; k < seq.length / 2; k++) rhs[k] = terminal(seq[2 * k], seq[2 * k + 1]);
                            rhs[rhs.length - 1] = nt[dfa.target(r)];
                            add(nt[q], rhs);
                        }
                    }
                }
                result = occurrence(nt[dfa.start()], lexical);
            } else if (e instanceof Expr.Seq s) {
                int n = newNt();
                int[] rhs = new int[s.items().size()];
                for (int i = 0; i < rhs.length; i++) rhs[i] = sym(s.items().get(i), lexical);
                add(n, rhs);
                result = n;
            } else if (e instanceof Expr.Alt a) {
                int n = newNt(); // no options: no productions: unproductive
                for (Expr opt : a.options()) add(n, sym(opt, lexical));
                result = n;
            } else if (e instanceof Expr.Repeat rep) {
                result = repeat(sym(rep.body(), lexical), rep.min(), rep.max());
            } else if (e instanceof Expr.Perm perm) {
                int[] members = new int[perm.members().size()];
                BitSet required = new BitSet();
                for (int i = 0; i < members.length; i++) {
                    members[i] = sym(perm.members().get(i).body(), lexical);
                    if (perm.members().get(i).required()) required.set(i);
                }
                int other = perm.hasOther() ? sym(perm.other(), lexical) : -1;
                int separator = perm.hasSeparator() ? sym(perm.separator(), lexical) : -1;
                result = newNt(); // no productions: permutation items run it
                int maxCount = perm.maxCount() == Expr.Repeat.UNBOUNDED ? -1 : perm.maxCount();
                perms.put(result, new PermSpec(members, required, other, separator, perm.minCount(), maxCount));
            } else if (e instanceof Expr.UniqueArray u) {
                if (lexical) throw new GrammarException("an array of distinct items inside a terminal");
                // every part gets a nonterminal of its own, so that completing it tells which part was read
                int open = dedicated(sym(u.open(), false)), item = dedicated(sym(u.item(), false));
                int separator = dedicated(sym(u.separator(), false)), close = dedicated(sym(u.close(), false));
                int[] prefix = new int[u.prefix().size()];
                for (int i = 0; i < prefix.length; i++) prefix[i] = dedicated(sym(u.prefix().get(i), false));
                result = newNt(); // no productions: unique items run it
                uniques.put(result, new UniqueSpec(open, prefix, item, separator, close, u.minItems(),
                        u.maxItems() == Expr.Repeat.UNBOUNDED ? -1 : u.maxItems()));
            } else {
                throw new IllegalStateException("unknown expr " + e);
            }
            memo.put(e, result);
            return result;
        }

        /**
         * text ∩ unit{min,max}: right-linear over (text automaton state, unit loop state, units started),
         * N(a, b, k) -> byte N(a', b', k') with k' = k + 1 where the loop is at a unit boundary (its start
         * or an accepting state), N -> ε where both accept and min ≤ k. Counts all the way (no sharing
         * between counts): small bounds only.
         */
        int units(Expr.Units u) {
            var builder = new dev.domino.compiler.automata.DfaBuilder(g.rules()::get);
            var text = builder.build(u.text(), 1 << 20);
            var loop = builder.build(new Expr.Repeat(u.unit(), 1, Expr.Repeat.UNBOUNDED)).dfa();
            int start = newNt();
            if (text.nullable() && u.min() == 0) add(start);
            if (text.dfa() == null) return start;
            dev.domino.runtime.internal.scan.ByteDfa a = text.dfa();
            Map<List<Integer>, Integer> nts = new HashMap<>();
            List<int[]> work = new ArrayList<>();
            nts.put(List.of(a.start(), loop.start(), 0), start);
            work.add(new int[] {a.start(), loop.start(), 0});
            for (int i = 0; i < work.size(); i++) {
                int[] w = work.get(i);
                int n = nts.get(List.of(w[0], w[1], w[2]));
                if (a.isAccepting(w[0]) && loop.isAccepting(w[1]) && w[2] >= u.min()) add(n);
                boolean boundary = w[1] == loop.start() || loop.isAccepting(w[1]);
                int k2 = w[2] + (boundary ? 1 : 0);
                if (k2 > u.max()) continue;
                for (int b = 0; b < 256; ) {
                    int ta = a.step(w[0], b), tb = loop.step(w[1], b), hi = b;
                    while (hi < 255 && a.step(w[0], hi + 1) == ta && loop.step(w[1], hi + 1) == tb) hi++;
                    if (ta >= 0 && tb >= 0) {
                        List<Integer> key = List.of(ta, tb, k2);
                        Integer m = nts.get(key);
                        if (m == null) { m = newNt(); nts.put(key, m); work.add(new int[] {ta, tb, k2}); }
                        add(n, terminal(b, hi), m);
                    }
                    b = hi + 1;
                }
            }
            return start;
        }

        /** A fresh nonterminal deriving exactly {@code sym}. */
        int dedicated(int sym) {
            int n = newNt();
            add(n, sym);
            return n;
        }

        /** {@code body{min,max}}: min copies, then either a star or a chain of optionals. */
        int repeat(int body, int min, int max) {
            int n = newNt();
            int[] rhs = new int[min + 1];
            Arrays.fill(rhs, 0, min, body);
            if (max == Expr.Repeat.UNBOUNDED) {
                int star = newNt();
                add(star);             // R -> ε
                add(star, star, body); // R -> R body (left recursion is fine for Earley)
                rhs[min] = star;
            } else {
                // opt_k derives 0..k copies: opt_k -> ε | body opt_{k-1}
                int opt = newNt();
                add(opt);
                for (int k = 1; k <= max - min; k++) {
                    int next = newNt();
                    add(next);
                    add(next, body, opt);
                    opt = next;
                }
                rhs[min] = opt;
            }
            add(n, rhs);
            return n;
        }

        int ref(Expr.Ref r, boolean lexical) {
            Expr body = g.rules().get(r.name());
            if (body == null) throw new GrammarException("undefined rule '" + r.name() + "'", r.line(), r.column());
            boolean isLexicalRule = g.lexicalRules().contains(r.name());
            if (lexical || isLexicalRule) {
                Integer n = lexNt.get(r.name());
                if (n == null) {
                    n = newNt();
                    lexNt.put(r.name(), n); // before recursing, so recursive rules terminate
                    add(n, sym(body, true));
                }
                if (lexical || ign < 0) return n;
                Integer t = tokenNt.get(r.name());
                if (t == null) { t = occurrence(n, false); tokenNt.put(r.name(), t); }
                return t;
            }
            Integer n = parserNt.get(r.name());
            if (n == null) {
                n = newNt();
                parserNt.put(r.name(), n);
                add(n, sym(body, false));
            }
            return n;
        }
    }
}
