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
public record Terminal(String name, String description, ByteDfa dfa, boolean ignored) {}
