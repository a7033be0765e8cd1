package dev.domino.runtime.internal.json;

import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.util.*;

import dev.domino.runtime.Vocabulary;

/**
 * {@code uniqueItems}, beside the parser: the items of an array of distinct items are pairwise different
 * JSON values. No context-free grammar says so; the compiler marks such arrays with terminals of their
 * own ({@link Terminal#uniqueRole()}: the opening, each separator, the closing, whitespace included), and
 * this class checks distinctness on the bytes.
 *
 * <p>The state ({@link UniqueState}) follows the output's bytes, not the configurations: one frame per open
 * array whose opening some configuration scanned as a marked opening, each remembering the canonical form
 * ({@link CanonicalJson}) of its completed items and the text of the current one. A configuration dies
 * <ul>
 *   <li>when a byte starts a marked separator or closing while the item before it equals an earlier one;</li>
 *   <li>when a byte completes an item equal to an earlier one (a string at its closing quote, an object or
 *   array at its closing bracket, a literal at its last letter, a number at a digit) and the configuration
 *   can go on only through a marked separator or closing (its terminal cannot take another byte).</li>
 * </ul>
 * Which array a separator belongs to is JSON's nesting, the same for every configuration; whether the array
 * must hold distinct items is the configuration's own (the marked terminal it scans), so a branch of an
 * {@code anyOf} without {@code uniqueItems} over the same array keeps its duplicates.
 *
 * <p>Masks: a token can only be refused for a duplicate if stepping its bytes through the frames meets
 * one ({@link UniqueState.Cursor}, conservatively opening a frame at every {@code [}); only those tokens of
 * the grammar's mask are stepped through the configurations again, with the check.
 */
public final class UniqueArrays {
    private final ScannerStates scanner;
    private final EarleyParser parser;
    /** Terminal -> its role (Terminal.UNIQUE_*). */
    private final int[] roles;
    /** Terminals a separator or a closing may be scanned as, per bit (for {@link #leavesOnlyByMarker}). */
    private final long[] separatorsAndClosings;
    /** Per vocabulary (identity): tokens holding a quote, a closing bracket or brace or comma, and a comma. */
    private volatile TokenLists lists;

    private UniqueArrays(ScannerStates scanner, EarleyParser parser, int[] roles) {
        this.scanner = scanner;
        this.parser = parser;
        this.roles = roles;
        this.separatorsAndClosings = new long[(roles.length + 63) >>> 6];
        for (int t = 0; t < roles.length; t++) {
            if (roles[t] == Terminal.UNIQUE_SEPARATOR || roles[t] == Terminal.UNIQUE_CLOSE) separatorsAndClosings[t >>> 6] |= 1L << t;
        }
    }

    /** The checker of an artifact whose grammar marks arrays of distinct items; null when it marks none. */
    public static UniqueArrays of(ScannerStates scanner, EarleyParser parser) {
        int[] roles = new int[scanner.terminals().length];
        boolean any = false;
        for (int t = 0; t < roles.length; t++) {
            roles[t] = scanner.terminal(t).uniqueRole();
            any |= roles[t] != Terminal.UNIQUE_NONE;
        }
        return any ? new UniqueArrays(scanner, parser, roles) : null;
    }

    /** Configurations and distinctness state after some bytes. */
    public record Advance(Configurations configs, UniqueState state) {}

    /**
     * Steps every configuration over {@code bytes} with the distinctness checks; null when none survives.
     * The same rule as the byte-stepping kernel ({@link ByteStep}) plus the two refusals of the class comment.
     */
    public Advance advance(Configurations start, UniqueState state, byte[] bytes, ByteStep step) {
        UniqueState.Cursor cursor = state.cursor();
        Configurations.Builder cur = new Configurations.Builder();
        Configurations.Builder next = new Configurations.Builder();
        for (int i = 0; i < start.size(); i++) cur.add(start.parsers[i], start.scanStates[i]);
        for (byte value : bytes) {
            int b = value & 0xFF;
            next.clear();
            boolean duplicateBefore = cursor.duplicateEndsAt(b);
            boolean opened = false;
            for (int i = 0; i < cur.size; i++) {
                step.reset(cur.parsers[i], cur.scanStates[i], b);
                while (step.next()) {
                    int started = step.started();
                    int role = started < 0 ? Terminal.UNIQUE_NONE : roles[started];
                    if (duplicateBefore && (role == Terminal.UNIQUE_SEPARATOR || role == Terminal.UNIQUE_CLOSE)) continue;
                    opened |= role == Terminal.UNIQUE_OPEN;
                    next.add(step.parser(), step.state());
                }
            }
            if (next.size == 0) return null;
            if (opened) cursor.open();
            if (cursor.step(b)) {
                // an item equal to an earlier one just completed: keep the configurations that can go on otherwise
                Configurations.Builder kept = new Configurations.Builder();
                for (int i = 0; i < next.size; i++) {
                    if (!leavesOnlyByMarker(next.parsers[i], next.scanStates[i])) kept.add(next.parsers[i], next.scanStates[i]);
                }
                if (kept.size == 0) return null;
                next = kept;
            }
            Configurations.Builder swap = cur; cur = next; next = swap;
        }
        return new Advance(cur.build(), cursor.snapshot());
    }

    /** Whether (p, q) can take another byte only by starting a marked separator or closing. */
    private boolean leavesOnlyByMarker(EarleyState p, int q) {
        if (q != ScannerStates.BETWEEN) {
            int t = scanner.terminalOf(q), local = q - scanner.offset(t);
            Terminal terminal = scanner.terminal(t);
            for (int b = 0; b < 256; b++) if (terminal.step(local, b) >= 0) return false; // the terminal goes on
            if (!terminal.isAccepting(local)) return false;
            p = parser.scan(p, t);
            if (p == parser.dead) return true;
        }
        if (p.accepting) return false;
        long[] expected = p.expected;
        for (int w = 0; w < expected.length; w++) {
            long marker = w < separatorsAndClosings.length ? separatorsAndClosings[w] : 0;
            if ((expected[w] & ~marker) != 0) return false;
        }
        return true;
    }

    /**
     * Clears from {@code mask} the tokens that would complete an item equal to an earlier one: the
     * tokens whose bytes meet a duplicate in the frames are stepped again through the configurations.
     */
    public void refine(int[] mask, int base, Configurations configs, UniqueState state, Vocabulary vocabulary, ByteStep step) {
        TokenLists l = lists(vocabulary);
        int[] candidates = switch (state.candidates()) {
            case UniqueState.COMMA -> l.comma;
            case UniqueState.QUOTE -> l.quote;
            case UniqueState.CLOSING -> l.closing;
            default -> null; // every allowed token
        };
        UniqueState.Cursor cursor = state.cursor();
        if (candidates != null) {
            for (int id : candidates) check(id, mask, base, configs, state, vocabulary, step, cursor);
        } else {
            int ints = (vocabulary.size() + 31) >>> 5;
            for (int w = 0; w < ints; w++) {
                for (int bits = mask[base + w]; bits != 0; bits &= bits - 1) {
                    int id = (w << 5) + Integer.numberOfTrailingZeros(bits);
                    check(id, mask, base, configs, state, vocabulary, step, cursor);
                }
            }
        }
    }

    private void check(int id, int[] mask, int base, Configurations configs, UniqueState state, Vocabulary vocabulary, ByteStep step,
                       UniqueState.Cursor cursor) {
        int bit = 1 << id;
        if ((mask[base + (id >>> 5)] & bit) == 0 || !vocabulary.isGrammarToken(id)) return;
        byte[] bytes = vocabulary.bytes(id);
        if (!cursor.meetsDuplicate(state, bytes)) return;
        if (advance(configs, state, bytes, step) == null) mask[base + (id >>> 5)] &= ~bit;
    }

    private TokenLists lists(Vocabulary v) {
        TokenLists l = lists;
        if (l == null || l.vocabulary != v) lists = l = new TokenLists(v);
        return l;
    }

    /** Tokens by the structural bytes they hold: the only ones that can complete an item in some states. */
    private static final class TokenLists {
        final Vocabulary vocabulary;
        final int[] quote, closing, comma;

        TokenLists(Vocabulary v) {
            vocabulary = v;
            IntList q = new IntList(), c = new IntList(), k = new IntList();
            for (int id = 0; id < v.size(); id++) {
                if (!v.isGrammarToken(id)) continue;
                boolean hasQuote = false, hasClosing = false, hasComma = false;
                for (byte b : v.bytes(id)) {
                    hasQuote |= b == '"';
                    hasClosing |= b == ']' || b == '}' || b == ',';
                    hasComma |= b == ',';
                }
                if (hasQuote) q.add(id);
                if (hasClosing) c.add(id);
                if (hasComma) k.add(id);
            }
            quote = q.toArray();
            closing = c.toArray();
            comma = k.toArray();
        }
    }
}
