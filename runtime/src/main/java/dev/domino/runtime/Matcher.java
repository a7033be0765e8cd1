package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.json.*;
import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.vocab.*;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * Per-request grammar state: which tokens may come next, and committing them.
 * Not thread-safe (one request, one thread at a time); {@link #fork()} gives an independent
 * copy in O(1), and {@link #rollback(int)} undoes commits in O(n) pointer steps, because all
 * history is immutable and shared.
 *
 * <p>Mask = union over live configurations (P, q) of a walk of tree T_q: a group (t, tokens)
 * is allowed when P can accept terminal t next; an edge t is followed when P can scan t, with
 * the scanned parser state. EOS is allowed when the output so far is a sentence.
 *
 * <p>Nothing on the decode path throws ({@link #fillNextTokenBitmask}, {@link #acceptToken},
 * {@link #consumeToken}, {@link #isAllowed}, {@link #forcedBytes}): a token id outside the
 * vocabulary, a token after EOS, a token {@link #consumeToken} was not allowed to commit, a
 * vocabulary mismatch or an internal failure puts the matcher in a sticky error state
 * ({@link #isError()}, {@link #errorReason()}) whose mask allows the stop tokens (EOS) only, as llguidance's
 * matcher does; {@link #reset()} clears it. A matcher made with no stop tokens ({@code newMatcher(new int[0])})
 * has an <b>all-zero</b> mask in the error state: no token is allowed, and the server must end the request
 * ({@link #errorReason()} says so). {@link #rollback} also clears an error that a refused token caused (the
 * refused token was never committed), so a speculative decoder that sends drafts through
 * {@link #consumeToken} recovers by rolling back; an error set with {@link #setError} or an internal
 * failure stays until {@link #reset()}.
 *
 * <p><b>Lookahead k</b> (DOMINO §3.4): a token may complete at most k + 1 terminals (the
 * terminal it starts in, or the one the output is inside, counts as the first; ignored
 * terminals such as {@code %ignore} whitespace count too). So k = 0 admits every token that ends
 * inside or at the end of the next whole terminal, k = 1 also bridge tokens such as {@code ",}
 * or {@code }\n}, and {@link #UNLIMITED_LOOKAHEAD} every token that keeps the output a viable
 * prefix. {@link #isAllowed}, {@link #acceptToken} and {@link #tryAcceptToken} apply the same
 * bound, so a token the mask refuses is refused; a commit keeps every lexing of the output (k
 * restricts which tokens may come next, never the language). {@link #acceptString} and
 * {@link #acceptBytes} (forced text, not tokens) are not bounded.
 */
public final class Matcher {
    public static final int UNLIMITED_LOOKAHEAD = Integer.MAX_VALUE;

    private final Artifact artifact;
    private final EarleyParser parser;
    private final ScannerStates scanner;
    private final int lookahead;
    /** This request's stop tokens (sorted): they end the output where it is a sentence. */
    private final int[] stopIds;
    private History history;
    /** Why the matcher is in the error state; null while it is not (see {@link #isError()}). */
    private String errorReason;
    /** Whether the error came from a refused token (cleared by {@link #rollback}), not from setError or a failure. */
    private boolean errorFromToken;
    /** The commit depth the token budget ends at, or {@link #NO_BUDGET} (see {@link #setTokenBudget}). */
    private int budgetEnd = NO_BUDGET;
    private int budgetRestrictions;
    private static final int NO_BUDGET = -1;
    /** The work of this matcher's masks, once a profiler asked for it (see {@link MaskWork}); null until then. */
    private MaskWork work;

    /**
     * Immutable history node: the configurations after {@code depth} committed tokens, and where the output
     * stands in its arrays of distinct items (see {@link UniqueArrays}; empty when the grammar has none).
     */
    private record History(Configurations configs, History previous, int depth, boolean terminated, UniqueState unique, int[] lexemeTokens) {
        History next(Configurations c, boolean end, UniqueState u) { return new History(c, this, depth + 1, end, u, end ? lexemeTokens : null); }

        /** With the token counts of lexemes limited in tokens (see {@link LexemeTokenLimits}). */
        History next(LexemeTokenLimits.Counted c) { return new History(c.configs(), this, depth + 1, false, unique, c.counts()); }
    }

    Matcher(Artifact artifact, int lookahead, int[] stopTokens) {
        if (lookahead < 0) throw new IllegalArgumentException("lookahead must be >= 0");
        this.artifact = artifact;
        this.parser = artifact.parser;
        this.scanner = artifact.scanner;
        this.lookahead = lookahead;
        int[] stops = java.util.Arrays.stream(stopTokens).sorted().distinct().toArray();
        for (int id : stops) {
            if (id < 0 || id >= artifact.vocabulary().size()) {
                throw new IllegalArgumentException("stop token " + id + " outside the vocabulary (size " + artifact.vocabulary().size() + ")");
            }
        }
        this.stopIds = stops;
        reset();
    }

    private Matcher(Matcher other) {
        this.artifact = other.artifact;
        this.parser = other.parser;
        this.scanner = other.scanner;
        this.lookahead = other.lookahead;
        this.stopIds = other.stopIds;
        this.history = other.history;
        this.errorReason = other.errorReason;
        this.errorFromToken = other.errorFromToken;
        this.budgetEnd = other.budgetEnd;
        this.budgetRestrictions = other.budgetRestrictions;
    }

    public Artifact artifact() { return artifact; }
    public int lookahead() { return lookahead; }

    /** This request's stop tokens (a copy, sorted). */
    public int[] stopTokens() { return stopIds.clone(); }

    /** Whether the id is one of this request's stop tokens. */
    public boolean isStopToken(int id) { return java.util.Arrays.binarySearch(stopIds, id) >= 0; }

    /** Back to the start of the output. */
    public void reset() {
        Configurations.Builder b = new Configurations.Builder();
        b.add(parser.initial(), Artifact.BETWEEN);
        Configurations start = b.build();
        history = new History(start, null, 0, false, UniqueState.EMPTY,
                artifact.lexemeLimits == null ? null : LexemeTokenLimits.initialCounts(start));
        errorReason = null;
        errorFromToken = false;
        budgetEnd = NO_BUDGET;
    }

    // ---------------------------------------------------------------- token budget

    /**
     * Limits the rest of the output to {@code tokens} more tokens, the stop token (EOS) included:
     * from now on masks, {@link #acceptToken} and {@link #isAllowed} allow only tokens after which
     * a completion of the output still fits, and a stop token while one is left. A completion's
     * tokens are counted as its bytes (each byte is a token), or, where that does not fit and the
     * lookahead is unlimited, as the tokens that spell the smallest shortest completion longest
     * entry first (see docs/finishing.md). The output then always ends at a stop token within the budget,
     * valid, never cut off. Each committed token (and each {@link #acceptString}/{@link #acceptBytes}
     * call) uses one; {@link #rollback} gives them back; {@link #fork} copies the budget;
     * {@link #reset} removes it. Where the budget is far from the end the masks are unchanged.
     *
     * @param tokens tokens left, or a negative number to remove the budget
     * @return false, leaving the matcher without a budget, when even the shortest completion and a
     *         stop token do not fit in {@code tokens} (or computing it failed: the matcher is then in the error state)
     * @throws IllegalStateException when the vocabulary lacks a single-byte token for some byte value
     *         (the completion could then need more tokens than bytes: no guarantee is given)
     */
    public boolean setTokenBudget(int tokens) {
        if (tokens < 0) { budgetEnd = NO_BUDGET; return true; }
        if (artifact.lexemeLimits != null) {
            throw new IllegalStateException("a token budget is not supported with lexemes limited in tokens (max_tokens=)");
        }
        if (!TokenBudget.hasEverySingleByte(artifact.vocabulary())) {
            throw new IllegalStateException("a token budget needs a vocabulary with every byte as a token; "
                    + artifact.vocabulary().name() + " lacks some");
        }
        try {
            if (!history.terminated && errorReason == null && TokenBudget.costWithin(this, history.configs, tokens - 1) + 1L > tokens) {
                budgetEnd = NO_BUDGET;
                return false;
            }
        } catch (RuntimeException | StackOverflowError e) {
            budgetEnd = NO_BUDGET;
            return fail(describe(e, "computing the shortest completion"));
        }
        budgetEnd = (int) Math.min(Integer.MAX_VALUE - 1L, (long) history.depth + tokens);
        return true;
    }

    /** Tokens left in the budget (the stop token included), or -1 without a budget. */
    public int tokenBudget() { return budgetEnd == NO_BUDGET ? -1 : Math.max(0, budgetEnd - history.depth); }

    /**
     * Fewest bytes that complete the output from here (0 when it is a sentence): with a
     * vocabulary of every single byte, at most that many tokens, then a stop token.
     */
    public int shortestCompletion() { return TokenBudget.of(artifact).cost(history.configs); }

    /** How many masks and token checks the budget made refuse a token the grammar allowed (diagnostics). */
    public int budgetRestrictions() { return budgetRestrictions; }

    /** Whether the output may go on with {@code next} (null: never) and still finish within the budget. */
    private boolean withinBudget(Configurations next) {
        if (budgetEnd == NO_BUDGET || next == null) return next != null;
        int left = budgetEnd - history.depth;
        if ((long) TokenBudget.costWithin(this, next, left - 2) + 2 <= left) return true;
        budgetRestrictions++;
        return false;
    }

    /** An independent matcher at the same point (shares all history). */
    public Matcher fork() { return new Matcher(this); }

    /** Number of tokens committed since the start (or reset). */
    public int committedTokens() { return history.depth; }

    public boolean isTerminated() { return history.terminated; }

    /** True when the output so far is a complete sentence (EOS would be allowed); false in the error state. */
    public boolean isAccepting() { return errorReason == null && !history.terminated && isSentence(history.configs); }

    /**
     * Undoes the last {@code n} commits (EOS included); {@code n} may be 0. Clears the error state when a
     * refused token caused it ({@link #consumeToken}'s refusal, an id outside the vocabulary, a token after
     * EOS): that token was never committed. Errors from {@link #setError} or internal failures stay.
     */
    public void rollback(int n) {
        if (n < 0 || n > history.depth) {
            throw new IllegalArgumentException("cannot roll back " + n + " tokens: only " + history.depth + " committed");
        }
        History h = history;
        for (int i = 0; i < n; i++) h = h.previous;
        history = h;
        if (errorFromToken) {
            errorReason = null;
            errorFromToken = false;
        }
    }

    // ---------------------------------------------------------------- commit

    /**
     * Commits a token if the grammar allows it. Returns false, leaving the state unchanged,
     * when it does not (so a caller can resample). Never throws: an id outside the vocabulary or
     * a token after EOS returns false and puts the matcher in the error state.
     */
    public boolean acceptToken(int tokenId) {
        if (errorReason != null) return acceptInError(tokenId);
        if (tokenId < 0 || tokenId >= artifact.vocabulary().size()) {
            return failOnToken("token id " + tokenId + " outside the vocabulary (size " + artifact.vocabulary().size() + ")");
        }
        if (history.terminated) return failOnToken("token " + tokenId + " after the output was terminated (EOS accepted)");
        try {
            return commit(tokenId);
        } catch (RuntimeException | StackOverflowError e) {
            return fail(describe(e, "committing token " + tokenId));
        }
    }

    /**
     * The decode-path commit, as llguidance's {@code consume_token}: commits the token, or, when
     * the grammar does not allow it, puts the matcher in the error state (the next mask allows
     * stop tokens only) and returns false. Use it where a refused token means the server's mask and the
     * model's output went apart; {@link #acceptToken} leaves the state unchanged instead, for
     * callers that check and resample.
     */
    public boolean consumeToken(int tokenId) {
        if (acceptToken(tokenId)) return true;
        if (errorReason == null) {
            failOnToken("token " + tokenId + " '" + artifact.vocabulary().display(tokenId) + "' is not allowed after "
                    + history.depth + " committed tokens");
        }
        return false;
    }

    private boolean commit(int tokenId) {
        Vocabulary v = artifact.vocabulary();
        boolean stop = isStopToken(tokenId);
        if (stop && isSentence(history.configs) && (budgetEnd == NO_BUDGET || budgetEnd > history.depth)) {
            history = history.next(history.configs, true, history.unique);
            return true;
        }
        if (artifact.lexemeLimits != null) return commit(artifact.lexemeLimits.successors(this, history.configs, history.lexemeTokens, tokenId));
        UniqueArrays.Advance next = checkedSuccessors(tokenId);
        if (next == null || !withinBudget(next.configs())) return false;
        history = history.next(next.configs().mergedByScanState(parser), false, next.state());
        artifact.maskAhead(this);
        return true;
    }

    private boolean commit(LexemeTokenLimits.Counted next) {
        if (next == null) return false;
        history = history.next(next);
        artifact.maskAhead(this);
        return true;
    }

    /**
     * Where the output stands after token {@code tokenId}: the configurations (the lookahead bound applied) and the
     * arrays of distinct items; null when the token is not allowed.
     */
    private UniqueArrays.Advance checkedSuccessors(int tokenId) {
        Vocabulary v = artifact.vocabulary();
        boolean stop = isStopToken(tokenId);
        UniqueState unique = history.unique;
        Configurations next = null;
        if (!stop && v.isGrammarToken(tokenId) && (lookahead == UNLIMITED_LOOKAHEAD || withinLookahead(history.configs, v.bytes(tokenId)))) {
            UniqueArrays.Advance a = advanceChecked(history.configs, v.bytes(tokenId));
            if (a != null) { next = a.configs(); unique = a.state(); }
        }
        if (artifact.tokenTerminals.length > 0) next = union(next, advanceByTokenTerminals(history.configs, tokenId, stop));
        return next == null ? null : new UniqueArrays.Advance(next, unique);
    }

    /**
     * The configurations after token {@code tokenId} (the lookahead bound applied), by the grammar alone (the
     * shortest-completion search of {@link TokenBudget}); null when it is not allowed.
     */
    Configurations successors(Configurations c, int tokenId) {
        Vocabulary v = artifact.vocabulary();
        boolean stop = isStopToken(tokenId);
        Configurations next = stop || !v.isGrammarToken(tokenId)
                || lookahead != UNLIMITED_LOOKAHEAD && !withinLookahead(c, v.bytes(tokenId))
                ? null : advance(c, v.bytes(tokenId));
        if (artifact.tokenTerminals.length > 0) next = union(next, advanceByTokenTerminals(c, tokenId, stop));
        return next;
    }

    /**
     * Computes the next mask into {@code scratch} for its side effects only: the trees and root
     * trees it walks get built (see {@link Artifact#maskAhead}). False when it had nothing to
     * build: every configuration's tree was built and references no root tree.
     */
    boolean buildAheadOfMask(int[] scratch) {
        Configurations c = history.configs;
        boolean missing = false;
        for (int i = 0; i < c.size() && !missing; i++) {
            TokenTree tree = artifact.treeIfBuilt(c.scanStates[i]);
            missing = tree == null;
            for (int r = 0; !missing && r < tree.rootReferenceCount(); r++) missing = !artifact.rootTreeBuilt(tree.rootTerminal(r));
        }
        if (!missing) return false;
        buildingAhead = true;
        budgetEnd = NO_BUDGET; // a snapshot that builds trees: the budget's filter builds none
        computeMask(scratch, 0);
        return true;
    }

    // ---------------------------------------------------------------- token terminals

    /**
     * The parser state where configuration (p, q) stands at a terminal boundary (between
     * terminals, or at the end of terminal q's match), or null when it is inside a terminal
     * that cannot end here: only there can a whole token be scanned as a token terminal.
     */
    private EarleyState atBoundary(EarleyState p, int q) {
        if (q == Artifact.BETWEEN) return p;
        int t = scanner.terminalOf(q);
        if (!scanner.terminal(t).isAccepting(q - scanner.offset(t))) return null;
        EarleyState p2 = parser.scan(p, t);
        return p2 == parser.dead ? null : p2;
    }

    /** Configurations after token {@code id} as a token terminal (a stop token only where one names it); null when none matches. */
    Configurations tokenTerminalSuccessors(Configurations c, int id) {
        return artifact.tokenTerminals.length == 0 ? null : advanceByTokenTerminals(c, id, isStopToken(id));
    }

    /** Whether the token's bytes keep within this matcher's lookahead bound from {@code c}. */
    boolean withinLookaheadOf(Configurations c, byte[] bytes) { return lookahead == UNLIMITED_LOOKAHEAD || withinLookahead(c, bytes); }

    /** Configurations after scanning token {@code id} as a token terminal; null when none matches. */
    private Configurations advanceByTokenTerminals(Configurations c, int id, boolean stop) {
        Configurations.Builder out = null;
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = atBoundary(c.parsers[i], c.scanStates[i]);
            if (p == null) continue;
            for (int t : artifact.tokenTerminals) {
                TokenMatch m = scanner.terminal(t).tokens();
                if (!p.expects(t) || !m.matches(id) || (stop && m.negated())) continue;
                EarleyState p2 = parser.scan(p, t);
                if (p2 == parser.dead) continue;
                if (out == null) out = new Configurations.Builder();
                out.add(p2, Artifact.BETWEEN);
            }
        }
        return out == null ? null : out.build();
    }

    private static Configurations union(Configurations a, Configurations b) {
        if (a == null) return b;
        if (b == null) return a;
        Configurations.Builder out = new Configurations.Builder();
        for (int i = 0; i < a.size(); i++) out.add(a.parsers[i], a.scanStates[i]);
        for (int i = 0; i < b.size(); i++) out.add(b.parsers[i], b.scanStates[i]);
        return out.build();
    }

    /** ORs the tokens the live token terminals allow (negated sets: one precomputed mask each). */
    private void maskTokenTerminals(Configurations c, int[] mask, int base) {
        long orNegated = 0; // token terminals (by index < 64) whose negated mask is already ORed
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = atBoundary(c.parsers[i], c.scanStates[i]);
            if (p == null) continue;
            for (int k = 0; k < artifact.tokenTerminals.length; k++) {
                int t = artifact.tokenTerminals[k];
                if (!p.expects(t)) continue;
                int[] negated = artifact.tokenTerminalMasks[k];
                if (negated == null) {
                    for (int id : scanner.terminal(t).tokens().ids()) mask[base + (id >>> 5)] |= 1 << id;
                } else if (k >= 64 || (orNegated & (1L << k)) == 0) {
                    orNegated |= k < 64 ? 1L << k : 0;
                    for (int w = 0; w < negated.length; w++) mask[base + w] |= negated[w];
                }
            }
        }
    }

    /** Whether some live configuration expects a token terminal (for {@link Speculator}). */
    boolean expectsTokenTerminal() { return expectsTokenTerminal(history.configs); }

    private boolean expectsTokenTerminal(Configurations c) {
        if (artifact.tokenTerminals.length == 0) return false;
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = atBoundary(c.parsers[i], c.scanStates[i]);
            if (p == null) continue;
            for (int t : artifact.tokenTerminals) if (p.expects(t)) return true;
        }
        return false;
    }

    /** Whether a positive token reference the configurations expect names {@code id}. */
    private boolean namedByTokenTerminal(Configurations c, int id) {
        for (int i = 0; i < c.size(); i++) {
            EarleyState p = atBoundary(c.parsers[i], c.scanStates[i]);
            if (p == null) continue;
            for (int t : artifact.tokenTerminals) {
                TokenMatch m = scanner.terminal(t).tokens();
                if (!m.negated() && p.expects(t) && m.matches(id)) return true;
            }
        }
        return false;
    }

    /**
     * Commits raw text (not tokens): useful for forced prefixes. Counts as one commit for
     * {@link #rollback(int)}. Returns false, state unchanged, if the text leads nowhere.
     */
    public boolean acceptString(String text) { return acceptBytes(strictUtf8(text)); }

    /** UTF-8 of {@code text}; a lone surrogate is an error, not the {@code ?} that {@code String.getBytes} puts in its place. */
    private static byte[] strictUtf8(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) i++;
            else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("text is not valid Unicode: lone surrogate U+" + Integer.toHexString(c).toUpperCase()
                        + " at index " + i);
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public boolean acceptBytes(byte[] bytes) {
        if (errorReason != null) return false;
        if (history.terminated) return fail("bytes after the output was terminated (EOS accepted)");
        if (artifact.lexemeLimits != null) {
            try {
                return commit(artifact.lexemeLimits.advanceBytes(this, history.configs, history.lexemeTokens, bytes));
            } catch (ParserLimitException e) {
                return fail(describe(e, "committing " + bytes.length + " bytes"));
            }
        }
        UniqueArrays.Advance next;
        try {
            next = advanceChecked(history.configs, bytes);
        } catch (ParserLimitException e) {
            return fail(describe(e, "committing " + bytes.length + " bytes"));
        }
        if (next == null || !withinBudget(next.configs())) return false;
        history = history.next(next.configs().mergedByScanState(parser), false, next.state());
        artifact.maskAhead(this);
        return true;
    }

    /** Opportunistic check: would {@link #acceptToken} succeed? No state change, no full mask. */
    public boolean isAllowed(int tokenId) {
        try {
            return allowed(tokenId);
        } catch (ParserLimitException e) {
            return fail(describe(e, "checking token " + tokenId));
        }
    }

    private boolean allowed(int tokenId) {
        if (tokenId < 0 || tokenId >= artifact.vocabulary().size()) return false;
        if (errorReason != null) return !history.terminated && isStopToken(tokenId);
        if (history.terminated) return false;
        Vocabulary v = artifact.vocabulary();
        if (isStopToken(tokenId)) {
            if (budgetEnd != NO_BUDGET && budgetEnd <= history.depth) return false;
            return isSentence(history.configs) || artifact.tokenTerminals.length > 0 && namedByTokenTerminal(history.configs, tokenId);
        }
        if (artifact.lexemeLimits != null) return artifact.lexemeLimits.successors(this, history.configs, history.lexemeTokens, tokenId) != null;
        if (budgetEnd != NO_BUDGET) {
            UniqueArrays.Advance next = checkedSuccessors(tokenId);
            return next != null && withinBudget(next.configs());
        }
        if (v.isGrammarToken(tokenId) && (lookahead == UNLIMITED_LOOKAHEAD || withinLookahead(history.configs, v.bytes(tokenId)))
                && (artifact.uniqueArrays == null ? lookahead != UNLIMITED_LOOKAHEAD || isViable(history.configs, v.bytes(tokenId))
                    : advanceChecked(history.configs, v.bytes(tokenId)) != null)) return true;
        return artifact.tokenTerminals.length > 0 && advanceByTokenTerminals(history.configs, tokenId, false) != null;
    }

    // ---------------------------------------------------------------- error state

    /** True once something went wrong on the decode path (see the class comment); sticky until {@link #reset()}. */
    public boolean isError() { return errorReason != null; }

    /**
     * Why the matcher is in the error state (one line), or null when it is not. Without stop tokens the
     * error-state mask is all zeros, and the reason ends by saying so.
     */
    public String errorReason() {
        if (errorReason == null || stopIds.length > 0) return errorReason;
        return errorReason + " (this matcher has no stop tokens: its mask allows no token, end the request)";
    }

    /**
     * Puts the matcher in the error state (the first reason is kept), for a server that finds
     * the request unusable, e.g. its artifact was compiled for another vocabulary.
     */
    public void setError(String reason) {
        if (errorReason == null) errorReason = reason == null || reason.isBlank() ? "error" : reason;
    }

    /** A parser limit is the grammar's doing and says so; anything else is an internal error. */
    private static String describe(Throwable e, String doing) {
        if (e instanceof ParserLimitException) return doing + ": " + e.getMessage();
        return "internal error " + doing + ": " + e;
    }

    private boolean fail(String reason) {
        setError(reason);
        return false;
    }

    /** The error state caused by a token that was refused, not committed: {@link #rollback} clears it. */
    private boolean failOnToken(String reason) {
        if (errorReason == null) errorFromToken = true;
        return fail(reason);
    }

    /** In the error state only a stop token is taken (it ends the output); everything else is refused. */
    private boolean acceptInError(int tokenId) {
        if (history.terminated || !isStopToken(tokenId)) return false;
        history = history.next(history.configs, true, history.unique);
        return true;
    }

    // ---------------------------------------------------------------- mask

    /** Number of ints one row of an int bitmask needs (32 tokens per int). */
    public int bitmaskInts() { return (artifact.vocabulary().size() + 31) >>> 5; }

    /**
     * Fills row {@code row} of a vLLM/XGrammar-layout bitmask: 32 tokens per int, bit set =
     * allowed. The row starts at {@code row * bitmaskInts()}.
     */
    public void fillNextTokenBitmask(int[] bitmask, int row) {
        int ints = bitmaskInts();
        long base = (long) row * ints; // in long: a huge row must fail the check, not wrap into another row
        if (row < 0 || base + ints > bitmask.length) throw new IllegalArgumentException("bitmask too small for row " + row);
        computeMask(bitmask, (int) base);
    }

    /** The mask as 64 tokens per long (bit set = allowed); {@code words.length >= (V+63)/64}. */
    public void fillNextTokenMask(long[] words) {
        if (words.length < artifact.vocabWords) {
            throw new IllegalArgumentException("mask has " + words.length + " longs, the vocabulary needs " + artifact.vocabWords);
        }
        int[] ints = new int[bitmaskInts()];
        computeMask(ints, 0);
        for (int i = 0; i < ints.length; i++) {
            long part = ints[i] & 0xFFFFFFFFL;
            if ((i & 1) == 0) words[i >>> 1] = part;
            else words[i >>> 1] |= part << 32;
        }
    }

    public BitSet nextTokenMask() {
        long[] words = new long[artifact.vocabWords];
        fillNextTokenMask(words);
        return BitSet.valueOf(words);
    }

    /** Number of tokens the next mask allows. */
    public int countAllowed() {
        int[] ints = new int[bitmaskInts()];
        computeMask(ints, 0);
        int n = 0;
        for (int w : ints) n += Integer.bitCount(w);
        return n;
    }

    /**
     * Writes the mask into {@code mask[base .. base + bitmaskInts())}, 32 tokens per int: stop tokens only
     * in the error state, or when computing it fails (which puts the matcher there).
     */
    private void computeMask(int[] mask, int base) {
        java.util.Arrays.fill(mask, base, base + bitmaskInts(), 0);
        if (history.terminated) return;
        if (errorReason == null) {
            try {
                computeGrammarMask(mask, base);
                if (artifact.lexemeLimits != null) artifact.lexemeLimits.filter(this, history.configs, history.lexemeTokens, mask, base);
                if (budgetEnd != NO_BUDGET) applyBudget(mask, base);
                return;
            } catch (RuntimeException | StackOverflowError e) {
                setError(describe(e, "computing the mask after " + history.depth + " tokens"));
                java.util.Arrays.fill(mask, base, base + bitmaskInts(), 0);
            }
        }
        for (int stop : stopIds) mask[base + (stop >>> 5)] |= 1 << stop;
    }

    /** Removes the tokens after which no completion fits in the budget (see {@link #setTokenBudget}). */
    private void applyBudget(int[] mask, int base) {
        int left = budgetEnd - history.depth;
        int cleared = left >= 1 ? 0 : clearStops(mask, base);
        cleared += TokenBudget.filter(this, TokenBudget.of(artifact), history.configs, mask, base, left - 2);
        if (cleared > 0) budgetRestrictions++;
    }

    private int clearStops(int[] mask, int base) {
        int n = 0;
        for (int stop : stopIds) if ((mask[base + (stop >>> 5)] & (1 << stop)) != 0) { mask[base + (stop >>> 5)] &= ~(1 << stop); n++; }
        return n;
    }

    private void computeGrammarMask(int[] mask, int base) {
        Configurations c = history.configs;
        Vocabulary v = artifact.vocabulary();
        MaskWork work = this.work;
        if (work != null) { work.masks++; work.configurations += c.size(); }
        oredSets = c.size() > 1 ? new SerialSet() : null;
        checkedEdgeCount = 0;
        dynamicRoots = null;
        int n = c.size();
        if (treeScratch.length < n) treeScratch = new TokenTree[n];
        TokenTree[] trees = treeScratch;
        for (int i = 0; i < n; i++) trees[i] = artifact.treeForMask(c.scanStates[i], buildingAhead);
        int[] leader = n > 1 ? SameRootedTrees.leaders(c.parsers, trees, unscanned(c, trees), n) : null;
        int[] groupSize = leader == null ? null : SameRootedTrees.sizes(leader, n);
        if (memberScratch.length < n) memberScratch = new int[n];
        for (int i = 0; i < n; i++) {
            TokenTree tree = trees[i];
            if (tree == null) { // not built: walked without it, exactly (see TreeDemand)
                long start = TreeDemand.clockNanos(), walks = MaskServing.count(MaskServing.WALKS);
                direct().addConfiguration(c.parsers[i], c.scanStates[i], mask, base);
                artifact.chargeDirect(c.scanStates[i], TreeDemand.clockNanos() - start, MaskServing.count(MaskServing.WALKS) != walks);
                MaskServing.note(MaskServing.DIRECT);
                continue;
            }
            if (leader != null && leader[i] != i) continue; // walked with its leader
            int members = leader == null || groupSize[i] == 1 ? 1 : SameRootedTrees.members(leader, i, n, memberScratch);
            if (members > 1) {
                walkTogether(trees, memberScratch, members, c.parsers[i], mask, base);
                SameRootedTrees.walkedTogether(members);
            } else if (tree.copies == null) {
                walk(tree, 0, c.parsers[i], 0, 0, Integer.MAX_VALUE, mask, base);
            } else {
                int t = scanner.terminalOf(c.scanStates[i]);
                CountedLoop counted = scanner.terminal(t).counted();
                int local = c.scanStates[i] - scanner.offset(t);
                walk(tree, 0, c.parsers[i], 0, counted.needed(local), counted.remaining(local), mask, base);
            }
            if (tree.dynamicTokens.length > 0 || dynamicRoots != null) {
                for (int k = 0; k < members; k++) {
                    int j = members > 1 ? memberScratch[k] : i;
                    Configurations single = new Configurations(new EarleyState[] {c.parsers[j]}, new int[] {c.scanStates[j]});
                    if (trees[j].dynamicTokens.length > 0) {
                        if (work != null) work.dynamicChecks += trees[j].dynamicTokens.length;
                        checkDynamic(trees[j].dynamicTokens, single, mask, base);
                    }
                    if (dynamicRoots != null) {
                        // checked from the configuration, as if the root tree's tokens were in its tree
                        for (TokenTree root : dynamicRoots) {
                            if (work != null) work.dynamicChecks += root.dynamicTokens.length;
                            checkDynamic(root.dynamicTokens, single, mask, base);
                        }
                    }
                }
                dynamicRoots = null;
            }
        }
        if (artifact.uniqueArrays != null) artifact.uniqueArrays.refine(mask, base, c, history.unique, v, new ByteStep(scanner, parser)); // masks may run ahead on another thread
        boolean tokenTerminals = artifact.tokenTerminals.length > 0;
        if (tokenTerminals) maskTokenTerminals(c, mask, base);
        // stop tokens: allowed where the output may end, or where the grammar names them
        boolean sentence = isSentence(c);
        for (int stop : stopIds) {
            boolean allowed = sentence || tokenTerminals && namedByTokenTerminal(c, stop);
            if (allowed) mask[base + (stop >>> 5)] |= 1 << stop;
            else mask[base + (stop >>> 5)] &= ~(1 << stop);
        }
    }

    /**
     * The large sets this mask already ORed, when several configurations are live: they often
     * walk the same wide groups (one JSON string, many union branches), and ORing thousands of
     * tokens again is the most expensive thing a walk does. Null for a single configuration.
     */
    private SerialSet oredSets;

    /** A small open-addressing set of positive ints. */
    private static final class SerialSet {
        private int[] keys = new int[16];
        private int size;

        /** Adds the value; false when it was there already. */
        boolean add(int v) {
            int m = keys.length - 1;
            for (int i = (v * 0x9E3779B1) >>> 20 & m; ; i = (i + 1) & m) {
                if (keys[i] == v) return false;
                if (keys[i] == 0) {
                    keys[i] = v;
                    if (++size * 2 > keys.length) grow();
                    return true;
                }
            }
        }

        private void grow() {
            int[] old = keys;
            keys = new int[old.length * 2];
            int m = keys.length - 1;
            for (int v : old) {
                if (v == 0) continue;
                int i = (v * 0x9E3779B1) >>> 20 & m;
                while (keys[i] != 0) i = (i + 1) & m;
                keys[i] = v;
            }
        }
    }

    /** Set on the snapshots whose masks are computed ahead to build trees (see {@link #buildAheadOfMask}). */
    private boolean buildingAhead;
    private DirectMask direct;

    /** This matcher's walk without trees, made on first use. */
    private DirectMask direct() {
        DirectMask d = direct;
        if (d == null) {
            direct = d = new DirectMask(scanner, parser, VocabTrie.of(artifact.vocabulary()), artifact.vocabulary().size(), lookahead);
        }
        return d;
    }

    /** Root trees with dynamic tokens the current configuration's walk reached (rare: usually null). */
    private java.util.List<TokenTree> dynamicRoots;

    /** Per thread: tokens a counted group must not add (see walk). */
    private static final ThreadLocal<int[]> EXCLUDED = ThreadLocal.withInitial(() -> new int[256]);

    /**
     * ORs the groups of the tree below {@code node} that the parser state accepts, following the
     * edges it can scan. In the annotated tree of a counted terminal's state (see
     * {@link TokenTree#copies}) each group keeps the tokens whose paths start at most {@code room}
     * more copies, and, except the root's own group (tokens that stay inside the terminal), at
     * least {@code need}.
     */
    private void walk(TokenTree tree, int node, EarleyState p, int depth, int need, int room, int[] mask, int base) {
        orGroups(tree, node, p, depth, need, room, mask, base);
        if (depth > lookahead) return; // depth = terminals completed so far; the edge completes one more
        for (int e = tree.edgeStart[node], end = tree.edgeStart[node + 1]; e < end; e++) {
            int t = tree.edgeTerminal[e];
            if (!p.expects(t)) continue;
            EarleyState next = p.memoGet(t);
            if (next == null) {
                // a new Earley set costs microseconds: not worth it when the walk could add nothing, which
                // happens where several configurations (or root trees) give the same tokens
                if (oredSets != null && firstCheck(p, t) && covered(tree, tree.edgeChild[e], mask, base, 0)) continue;
                next = parser.scan(p, t);
            }
            if (work != null) work.earleyScans++;
            if (next != parser.dead) walk(tree, tree.edgeChild[e], next, depth + 1, need, room, mask, base);
        }
    }

    /**
     * Per configuration with a tree, whether its parser state has not scanned its terminal yet: only such
     * configurations are walked together. Where that scan is memoized (a commit or an earlier mask made it),
     * so is most of the walk below it, and the configuration walks alone at little cost; a state made for
     * several terminals at once is one no commit reuses.
     */
    private boolean[] unscanned(Configurations c, TokenTree[] trees) {
        boolean[] fresh = new boolean[c.size()];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = trees[i] != null && c.parsers[i].memoGet(scanner.terminalOf(c.scanStates[i])) == null;
        }
        return fresh;
    }

    /** The indexes of the configurations walked together with the current leader (see {@link SameRootedTrees#members}). */
    private int[] memberScratch = new int[16];
    /** The current mask's trees, per configuration (null: not built). */
    private TokenTree[] treeScratch = new TokenTree[4];

    /**
     * Walks the trees of configurations at one parser state whose trees are one tree renamed at the root
     * ({@link TokenTree#unrenamed}): each member's root groups, then below each root edge once, from the parser
     * state after any one of the members' terminals ({@link EarleyParser#scanAny}). Exact: the members' trees
     * agree below the root, and what a parser may do from the union of Earley sets at one position is what it
     * may do from one of them. Why: inside a {@code oneOf} complement, after a key's colon, 40 key terminals of
     * as many object variants share one parser state and one whitespace tree; walked one by one, each scanned
     * the value's first terminals from a parser state of its own (400 scans in one mask).
     */
    private void walkTogether(TokenTree[] trees, int[] members, int count, EarleyState p, int[] mask, int base) {
        TokenTree lead = trees[members[0]];
        for (int k = 0; k < count; k++) orGroups(trees[members[k]], 0, p, 0, 0, Integer.MAX_VALUE, mask, base);
        if (0 > lookahead) return;
        int[] labels = new int[count];
        EarleyState together = null;
        int labelsOf = -1; // the root edge whose members' terminals made `together`
        for (int e = lead.edgeStart[0], end = lead.edgeStart[1]; e < end; e++) {
            if (together == null || !sameLabels(trees, members, count, e, labelsOf)) {
                if (together == null && oredSets != null && firstCheck(p, lead.edgeTerminal[e])
                        && covered(lead, lead.edgeChild[e], mask, base, 0)) continue;
                int live = 0;
                for (int k = 0; k < count; k++) {
                    int t = trees[members[k]].edgeTerminal[e];
                    if (p.expects(t)) labels[live++] = t;
                }
                together = afterAny(p, java.util.Arrays.copyOf(labels, live));
                if (work != null) work.earleyScans++;
                labelsOf = e;
            }
            if (together != parser.dead) walk(lead, lead.edgeChild[e], together, 1, 0, Integer.MAX_VALUE, mask, base);
        }
    }

    /** The parser state after any one of the terminals from p: their scans' union, made once ({@link EarleyParser#scanAny}). */
    private EarleyState afterAny(EarleyState p, int[] terminals) {
        java.util.Arrays.sort(terminals);
        int n = 0;
        boolean ignored = false;
        for (int i = 0; i < terminals.length; i++) {
            if (i > 0 && terminals[i] == terminals[i - 1]) continue;
            terminals[n++] = terminals[i];
            ignored |= scanner.terminal(terminals[i]).ignored();
        }
        if (n == 0) return parser.dead;
        terminals = java.util.Arrays.copyOf(terminals, n);
        if (n == 1 || !ignored) return parser.scanAny(p, terminals);
        EarleyState[] after = new EarleyState[n]; // an ignored terminal leaves p as it is: scanned apart
        for (int i = 0; i < n; i++) after[i] = parser.scan(p, terminals[i]);
        return parser.union(after, n);
    }

    /** Whether every member's root edge e names the terminal its edge {@code other} names. */
    private static boolean sameLabels(TokenTree[] trees, int[] members, int count, int e, int other) {
        for (int k = 0; k < count; k++) {
            int[] labels = trees[members[k]].edgeTerminal;
            if (labels[e] != labels[other]) return false;
        }
        return true;
    }

    /** ORs the groups at {@code node} whose terminals the parser state accepts, and the root trees referenced there. */
    private void orGroups(TokenTree tree, int node, EarleyState p, int depth, int need, int room, int[] mask, int base) {
        TokenSets sets = tree.sets;
        MaskWork work = this.work;
        if (work != null) work.treeNodes++;
        for (int g = tree.groupStart[node], end = tree.groupStart[node + 1]; g < end; g++) {
            if (work != null) work.groupsSeen++;
            int gt = tree.groupTerminal[g];
            if (gt >= 0 ? !p.expects(gt) : !expectsAny(p, tree.terminalClasses[~gt])) continue;
            TokenTree.Copies copies = tree.copies == null ? null : tree.copies[g];
            int lo = node == 0 ? 0 : need;
            if (copies == null || copies.min() >= lo && copies.max() <= room) {
                TokenSet set = sets.get(tree.groupSet[g]);
                if (oredSets != null && set.size() >= 64 && !oredSets.add(set.serial)) continue;
                if (work != null) { work.groupsOred++; work.tokensOred += set.size(); }
                set.orInto(mask, base);
                continue;
            }
            int from = copies.from(lo), to = copies.from(room + 1);
            int[] ids = copies.ids();
            int excluded = ids.length - (to - from);
            if (to - from <= excluded) {
                for (int i = from; i < to; i++) mask[base + (ids[i] >>> 5)] |= 1 << ids[i];
            } else {
                // most of the set fits: OR all of it, then clear the few that do not fit, unless
                // something else had allowed them already
                int[] clear = EXCLUDED.get();
                if (clear.length < excluded) { clear = new int[excluded]; EXCLUDED.set(clear); }
                int m = 0;
                for (int i = 0; i < from; i++) if ((mask[base + (ids[i] >>> 5)] & (1 << ids[i])) == 0) clear[m++] = ids[i];
                for (int i = to; i < ids.length; i++) if ((mask[base + (ids[i] >>> 5)] & (1 << ids[i])) == 0) clear[m++] = ids[i];
                sets.get(tree.groupSet[g]).orInto(mask, base);
                for (int i = 0; i < m; i++) mask[base + (clear[i] >>> 5)] &= ~(1 << clear[i]);
            }
        }
        for (int r = tree.rootStart[node], end = tree.rootStart[node + 1]; r < end; r++) {
            // a wide terminal started at the token's first byte: its root tree stands for the subtree here
            int t = tree.rootTerminal[r];
            if (!p.expects(t)) continue;
            TokenTree root = artifact.rootTreeForMask(t, buildingAhead);
            if (root == null) {
                long start = TreeDemand.clockNanos(), walks = MaskServing.count(MaskServing.WALKS);
                direct().addStarting(p, t, depth, mask, base);
                artifact.chargeRootDirect(t, TreeDemand.clockNanos() - start, MaskServing.count(MaskServing.WALKS) != walks);
                MaskServing.note(MaskServing.DIRECT);
                continue;
            }
            // root trees of terminals with like tokens (a union's strings) hold the same large sets
            if (oredSets == null) oredSets = new SerialSet();
            walk(root, 0, p, depth, need, room, mask, base);
            if (root.dynamicTokens.length > 0) {
                if (dynamicRoots == null) dynamicRoots = new java.util.ArrayList<>();
                if (!dynamicRoots.contains(root)) dynamicRoots.add(root);
            }
        }
    }

    /**
     * The (parser state, terminal) pairs whose edges this mask checked for {@link #covered}: one check
     * each. A skipped edge leaves its scan unmemoized, and a tree whose terminal may end at thousands
     * of trie nodes (a pattern's free prefix) would otherwise check every one of them, where the one
     * scan it saves is all there is to save.
     */
    private long[] checkedEdges = new long[64];
    private int checkedEdgeCount;

    /** True the first time this mask asks for (p, t) (see {@link #checkedEdges}). */
    private boolean firstCheck(EarleyState p, int t) {
        long key = p.serial << 24 ^ t;
        for (int i = 0; i < checkedEdgeCount; i++) if (checkedEdges[i] == key) return false;
        if (checkedEdgeCount == checkedEdges.length) return false; // enough checks for one mask
        checkedEdges[checkedEdgeCount++] = key;
        return true;
    }

    /** Root trees referenced within root trees this deep are not looked into (there are no cycles; a bound all the same). */
    private static final int MAX_COVERED_NESTING = 8;

    /**
     * Whether every token a walk below {@code node} could add is in the mask already: the tokens
     * of its groups, and those of the root trees it references (each built, without dynamic
     * tokens, which only a walk would queue for checking).
     */
    private boolean covered(TokenTree tree, int node, int[] mask, int base, int nesting) {
        TokenTree.Below below = tree.below(node);
        if (!below.tokensWithin(mask, base)) return false;
        for (int t : below.rootTerminals()) {
            if (nesting >= MAX_COVERED_NESTING) return false;
            TokenTree root = artifact.rootTreeIfBuilt(t);
            if (root == null || root.dynamicTokens.length > 0 || !covered(root, 0, mask, base, nesting + 1)) return false;
        }
        return true;
    }

    private static boolean expectsAny(EarleyState p, int[] terminals) {
        for (int t : terminals) if (p.expects(t)) return true;
        return false;
    }

    /**
     * Sets the bits of the viable tokens among {@code tokens} by stepping their bytes, depth first:
     * a token is viable as soon as one configuration survives all its bytes, so a viable token
     * usually costs one path even where a byte fans out into a hundred configurations (a comma
     * that may start any of 100 optional keys). Configurations already expanded at a depth are
     * not expanded again, so a token never costs more than stepping all configurations byte by
     * byte. Tokens come sorted by bytes (see TreeBuilder): after a token dies, those sharing the
     * prefix within which every configuration died are skipped.
     */
    private void checkDynamic(int[] tokens, Configurations start, int[] mask, int base) {
        Vocabulary v = artifact.vocabulary();
        DepthFirst search = DEPTH_FIRST.get();
        byte[] dead = null;
        int deadLength = 0;
        for (int token : tokens) {
            if ((mask[base + (token >>> 5)] & (1 << token)) != 0) continue;
            byte[] b = v.bytes(token);
            if (dead != null && b.length >= deadLength && java.util.Arrays.equals(b, 0, deadLength, dead, 0, deadLength)) continue;
            if (lookahead != UNLIMITED_LOOKAHEAD) {
                if (withinLookahead(start, b)) mask[base + (token >>> 5)] |= 1 << token;
            } else if (viable(start, b, search)) {
                mask[base + (token >>> 5)] |= 1 << token;
            } else {
                dead = b;
                deadLength = search.deepest + 1; // no configuration survived that many bytes
            }
        }
    }

    /** Per-thread scratch of the depth-first search: per depth, the configurations seen and a byte-step cursor. */
    private static final class DepthFirst {
        Configurations.Builder[] seen = new Configurations.Builder[0];
        ByteStep[] steps = new ByteStep[0];
        /** Most bytes some configuration survived in the last search. */
        int deepest;

        void reset(int depths, ScannerStates scanner, EarleyParser parser) {
            if (seen.length < depths) {
                int old = seen.length;
                seen = java.util.Arrays.copyOf(seen, depths);
                for (int d = old; d < depths; d++) seen[d] = new Configurations.Builder();
                steps = java.util.Arrays.copyOf(steps, depths);
            }
            if (steps[0] != null && !steps[0].isFor(scanner, parser)) java.util.Arrays.fill(steps, null); // another artifact
            // the last search filled depths 0..deepest + 1 at most
            for (int d = 0, end = Math.min(seen.length, deepest + 2); d < end; d++) seen[d].clear();
            deepest = 0;
        }
    }

    private static final ThreadLocal<DepthFirst> DEPTH_FIRST = ThreadLocal.withInitial(DepthFirst::new);

    /** True when some configuration of {@code start} survives all of {@code bytes}. */
    private boolean viable(Configurations start, byte[] bytes, DepthFirst search) {
        search.reset(bytes.length + 1, scanner, parser);
        for (int i = 0; i < start.size(); i++) {
            if (search.seen[0].addIfAbsent(start.parsers[i], start.scanStates[i])
                    && survives(start.parsers[i], start.scanStates[i], bytes, 0, search)) return true;
        }
        return false;
    }

    /** Whether (p, q) survives {@code bytes[k..]}: each successor of byte k tried as soon as the kernel yields it. */
    private boolean survives(EarleyState p, int q, byte[] bytes, int k, DepthFirst search) {
        if (k > search.deepest) search.deepest = k;
        if (k == bytes.length) return true;
        ByteStep step = search.steps[k];
        if (step == null) step = search.steps[k] = new ByteStep(scanner, parser);
        step.reset(p, q, bytes[k] & 0xFF);
        Configurations.Builder seen = search.seen[k + 1];
        while (step.next()) {
            EarleyState p2 = step.parser();
            int q2 = step.state();
            if (seen.addIfAbsent(p2, q2) && survives(p2, q2, bytes, k + 1, search)) return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- byte-level scanning

    /**
     * Whether some configuration survives {@code bytes} completing at most {@code lookahead + 1}
     * terminals: the finite-k rule of the mask (see the class comment). Steps (parser state,
     * scanner state, terminals completed) triples; a triple is kept once per byte position.
     */
    private boolean withinLookahead(Configurations start, byte[] bytes) {
        long maxCompleted = (long) lookahead + 1;
        // per number of terminals completed so far (a byte completes at most one), the configurations
        Configurations.Builder[] cur = new Configurations.Builder[bytes.length + 1];
        Configurations.Builder[] next = new Configurations.Builder[bytes.length + 1];
        cur[0] = new Configurations.Builder();
        for (int i = 0; i < start.size(); i++) cur[0].add(start.parsers[i], start.scanStates[i]);
        for (int k = 0; k < bytes.length; k++) {
            int b = bytes[k] & 0xFF;
            for (Configurations.Builder n : next) if (n != null) n.clear();
            boolean any = false;
            for (int done = 0; done <= k; done++) {
                Configurations.Builder c = cur[done];
                if (c == null) continue;
                for (int i = 0; i < c.size; i++) {
                    ByteStep step = step().reset(c.parsers[i], c.scanStates[i], b);
                    while (step.next()) {
                        int completed = step.crossed() ? done + 1 : done;
                        if (completed > maxCompleted) continue;
                        if (next[completed] == null) next[completed] = new Configurations.Builder();
                        next[completed].add(step.parser(), step.state());
                        any = true;
                    }
                }
            }
            if (!any) return false;
            Configurations.Builder[] swap = cur; cur = next; next = swap;
        }
        return true;
    }

    private boolean isSentence(Configurations c) {
        for (int i = 0; i < c.size(); i++) {
            int q = c.scanStates[i];
            EarleyState p = c.parsers[i];
            if (q == Artifact.BETWEEN) {
                if (p.accepting) return true;
            } else {
                int t = scanner.terminalOf(q);
                if (scanner.terminal(t).isAccepting(q - scanner.offset(t)) && parser.scan(p, t).accepting) return true;
            }
        }
        return false;
    }

    private boolean isViable(Configurations c, byte[] bytes) { return advance(c, bytes) != null; }

    /** {@link #advance} with the distinctness checks of arrays of distinct items, when the grammar has any. */
    private UniqueArrays.Advance advanceChecked(Configurations start, byte[] bytes) {
        if (artifact.uniqueArrays != null) return artifact.uniqueArrays.advance(start, history.unique, bytes, step());
        Configurations next = advance(start, bytes);
        return next == null ? null : new UniqueArrays.Advance(next, UniqueState.EMPTY);
    }

    /** Steps every configuration over the bytes; null when none survives. */
    Configurations advance(Configurations start, byte[] bytes) {
        if (bytes.length == 0) return start;
        Configurations.Builder cur = new Configurations.Builder();
        Configurations.Builder next = new Configurations.Builder();
        for (int i = 0; i < start.size(); i++) cur.add(start.parsers[i], start.scanStates[i]);
        for (byte value : bytes) {
            int b = value & 0xFF;
            next.clear();
            for (int i = 0; i < cur.size; i++) stepByte(cur.parsers[i], cur.scanStates[i], b, next);
            if (next.size == 0) return null;
            Configurations.Builder swap = cur; cur = next; next = swap;
        }
        return cur.build();
    }

    /** Adds the configurations after byte b from (p, q) to {@code out} (see {@link ByteStep}). */
    private void stepByte(EarleyState p, int q, int b, Configurations.Builder out) { step().addAll(p, q, b, out); }

    /** This matcher's byte-step cursor (commits, checks and jump-forward; masks use per-thread ones). */
    private ByteStep step() {
        ByteStep s = byteStep;
        if (s == null) byteStep = s = new ByteStep(scanner, parser);
        return s;
    }

    private ByteStep byteStep;

    /** The parser states of every history node (for {@code MatcherStats.reachableParserStates}). */
    void collectParserStates(java.util.List<EarleyState> out) {
        for (History h = history; h != null; h = h.previous) out.addAll(java.util.Arrays.asList(h.configs.parsers));
    }

    // ---------------------------------------------------------------- jump-forward

    /** Most bytes {@link #forcedBytes()} returns: a bound on its work when a grammar forces a long text. */
    public static final int MAX_FORCED_BYTES = 4096;

    /**
     * The longest byte string every continuation of the output starts with (XGrammar's
     * {@code find_jump_forward_string}): empty where two different bytes may come next, where
     * the output may end here (a stop token), where the grammar expects a token reference
     * ({@code <|eot_id|>}), after the end and in the error state. A server can append it
     * without a forward pass per token (see {@link #forcedTokens()}). At most
     * {@link #MAX_FORCED_BYTES} bytes. Costs one step of the live configurations per byte value
     * and forced byte: call it after a commit, not per token of the vocabulary.
     */
    public byte[] forcedBytes() {
        if (errorReason != null || history.terminated) return new byte[0];
        try {
            return forcedFrom(history.configs);
        } catch (RuntimeException | StackOverflowError e) {
            setError(describe(e, "computing forced bytes after " + history.depth + " tokens"));
            return new byte[0];
        }
    }

    /**
     * Tokens a server may append now without sampling: the forced bytes spelled longest vocabulary
     * entry first, without the last token when the grammar also allows, in its place, a longer
     * entry that starts with its bytes (the model's choice there is not forced: it may merge the
     * forced text with what follows, as llguidance leaves such a token to the model). Each token
     * is allowed after the ones before it. Costs one mask where that last token has longer entries.
     */
    public int[] forcedTokens() {
        byte[] forced = forcedBytes();
        if (forced.length == 0) return new int[0];
        VocabTrie trie = VocabTrie.of(artifact.vocabulary());
        int[] tokens = ForcedTokens.greedy(trie, forced);
        if (tokens.length == 0) return tokens;
        int last = tokens[tokens.length - 1];
        Matcher before = fork();
        for (int i = 0; i < tokens.length - 1; i++) before.acceptToken(tokens[i]);
        int[] mask = new int[bitmaskInts()];
        before.computeMask(mask, 0);
        if (ForcedTokens.longerAllowed(trie, artifact.vocabulary().bytes(last), mask)) tokens = java.util.Arrays.copyOf(tokens, tokens.length - 1);
        return errorReason == null ? tokens : new int[0];
    }

    private byte[] forcedFrom(Configurations c) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Configurations.Builder next = new Configurations.Builder();
        // a token reference (a special token, or any token but one) may come instead of text: nothing is forced there
        while (out.size() < MAX_FORCED_BYTES && !isSentence(c) && !expectsTokenTerminal(c)) {
            int only = -1;
            for (int b = 0; b < 256; b++) {
                next.clear();
                for (int i = 0; i < c.size(); i++) stepByte(c.parsers[i], c.scanStates[i], b, next);
                if (next.size == 0) continue;
                if (only >= 0) return out.toByteArray(); // two bytes may come next
                only = b;
            }
            if (only < 0) break; // no byte continues (a grammar whose language is just this text)
            next.clear();
            for (int i = 0; i < c.size(); i++) stepByte(c.parsers[i], c.scanStates[i], only, next);
            out.write(only);
            c = next.build().mergedByScanState(parser);
        }
        return out.toByteArray();
    }

    /** The live configurations (for {@link TokenTrace} and speculation contexts, through {@link RuntimeAccess}). */
    Configurations configurations() { return history.configs; }

    /** Live configurations, for inspection: pairs {scannerState, parserItemCount}. */
    /** This matcher's work counters, created on the first call (profiling). */
    MaskWork countWork() {
        if (work == null) work = new MaskWork();
        return work;
    }

    int[][] liveConfigurations() {
        Configurations c = history.configs;
        int[][] out = new int[c.size()][];
        for (int i = 0; i < c.size(); i++) out[i] = new int[] {c.scanStates[i], c.parsers[i].itemCount()};
        return out;
    }

    // ---------------------------------------------------------------- opportunistic masking, speculation hooks

    /**
     * The opportunistic path (DOMINO §3.5): the model samples from unmasked logits, then the
     * engine checks only that token. Same contract as {@link #acceptToken(int)} (false and no
     * state change when the grammar forbids it); no mask is built: the token's bytes are
     * stepped through the live configurations, which visits exactly the tree paths that hold
     * the token. Only when this returns false does the server need
     * {@link #fillNextTokenBitmask(int[], int)} to resample.
     */
    public boolean tryAcceptToken(int tokenId) { return acceptToken(tokenId); }
}
