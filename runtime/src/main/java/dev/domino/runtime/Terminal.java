package dev.domino.runtime;

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
 */
public record Terminal(String name, String description, ByteDfa dfa, boolean ignored, CountedLoop counted) {

    public Terminal(String name, String description, ByteDfa dfa, boolean ignored) {
        this(name, description, dfa, ignored, null);
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
