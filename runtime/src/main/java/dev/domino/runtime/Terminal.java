package dev.domino.runtime;

/**
 * A terminal of the parser-level grammar: a regular language over bytes.
 *
 * @param name        user-facing name (rule name, or the literal in quotes)
 * @param description the regular expression it came from, for inspection
 * @param dfa         its byte automaton (never accepts the empty string)
 * @param ignored     true for Lark {@code %ignore} terminals: allowed between any two terminals,
 *                    invisible to the parser
 */
public record Terminal(String name, String description, ByteDfa dfa, boolean ignored) {

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
