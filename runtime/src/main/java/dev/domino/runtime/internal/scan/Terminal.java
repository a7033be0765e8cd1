package dev.domino.runtime.internal.scan;

import dev.domino.runtime.internal.json.*;

import dev.domino.runtime.*;

/**
 * A terminal of the parser-level grammar: a regular language over bytes.
 *
 * @param name        user-facing name (rule name, or the literal in quotes)
 * @param description the regular expression it came from, for inspection
 * @param dfa         its byte automaton (never accepts the empty string); for a counted terminal,
 *                    the automaton of the unbounded loop {@code body+}
 * @param ignored     true for Lark {@code %ignore} terminals: allowed between any two terminals,
 *                    invisible to the parser
 * @param counted     non-null for {@code body{1,max}} kept as a loop plus a counter: its local
 *                    scanner states are (count, loop state), see {@link CountedLoop}
 * @param tokens      non-null for a token terminal ({@code <|eot_id|>}, {@code !<[id]>}): it matches
 *                    whole tokens by id, and its automaton accepts nothing (one state, no transitions)
 * @param uniqueRole  {@link #UNIQUE_NONE}, or the part of an array of distinct items ({@code uniqueItems})
 *                    the terminal marks: its opening, a separator or its closing (see {@link UniqueArrays})
 * @param maxTokens   0, or the most tokens one match may overlap (llguidance's {@code max_tokens=} on a
 *                    lexeme; counted at run time, see {@code LexemeTokenLimits})
 * @param hiddenTail  0, or how many bytes at the end of each match llguidance hides from the output (the
 *                    text of {@code stop="..."} on a lexeme; reported by {@code HiddenText})
 */
public record Terminal(String name, String description, ByteDfa dfa, boolean ignored, CountedLoop counted, TokenMatch tokens, int uniqueRole,
                       int maxTokens, int hiddenTail) {
    public static final int UNIQUE_NONE = 0, UNIQUE_OPEN = 1, UNIQUE_SEPARATOR = 2, UNIQUE_CLOSE = 3;
    /** The largest {@code max_tokens=} a lexeme may carry (the limit {@code lexeme-max-tokens}). */
    public static final int MAX_LEXEME_TOKENS = 1 << 20;
    /** The longest stop text (bytes) a lexeme may hide. */
    public static final int MAX_HIDDEN_TAIL = 1 << 16;

    public Terminal {
        if (uniqueRole < UNIQUE_NONE || uniqueRole > UNIQUE_CLOSE) throw new IllegalArgumentException("unique role " + uniqueRole);
        if (maxTokens < 0 || maxTokens > MAX_LEXEME_TOKENS) throw new IllegalArgumentException("max tokens " + maxTokens);
        if (hiddenTail < 0 || hiddenTail > MAX_HIDDEN_TAIL) throw new IllegalArgumentException("hidden tail " + hiddenTail);
    }

    public Terminal(String name, String description, ByteDfa dfa, boolean ignored, CountedLoop counted, TokenMatch tokens, int uniqueRole) {
        this(name, description, dfa, ignored, counted, tokens, uniqueRole, 0, 0);
    }

    public Terminal(String name, String description, ByteDfa dfa, boolean ignored, CountedLoop counted, TokenMatch tokens) {
        this(name, description, dfa, ignored, counted, tokens, UNIQUE_NONE);
    }

    public Terminal(String name, String description, ByteDfa dfa, boolean ignored) {
        this(name, description, dfa, ignored, null, null, UNIQUE_NONE);
    }

    public Terminal(String name, String description, ByteDfa dfa, boolean ignored, CountedLoop counted) {
        this(name, description, dfa, ignored, counted, null, UNIQUE_NONE);
    }

    /** A token terminal: no bytes, whole tokens by id. */
    public static Terminal ofTokens(String name, TokenMatch tokens) {
        return new Terminal(name, name, new ByteDfa(1, 0, new boolean[1], filled(256)), false, null, tokens);
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, -1);
        return a;
    }

    /** Local scanner states (for a counted terminal more than its automaton has). */
    public int stateCount() { return counted == null ? dfa.stateCount() : counted.stateCount(); }

    public int start() { return dfa.start(); }

    /** The local state after the terminal's first byte b, or -1. */
    public int startStep(int b) { return step(dfa.start(), b); }

    /** The local state after byte b, or -1. */
    public int step(int local, int b) { return counted == null ? dfa.step(local, b) : counted.step(local, b); }

    public boolean isAccepting(int local) { return counted == null ? dfa.isAccepting(local) : counted.isAccepting(local); }

    /** For each byte value, the terminals whose first byte it can be. */
    public static int[][] startersByByte(Terminal[] terminals) {
        int[][] out = new int[256][];
        int[] buffer = new int[terminals.length];
        for (int b = 0; b < 256; b++) {
            int n = 0;
            for (int t = 0; t < terminals.length; t++) {
                ByteDfa dfa = terminals[t].dfa();
                if (dfa.step(dfa.start(), b) >= 0) buffer[n++] = t;
            }
            out[b] = java.util.Arrays.copyOf(buffer, n);
        }
        return out;
    }
}
