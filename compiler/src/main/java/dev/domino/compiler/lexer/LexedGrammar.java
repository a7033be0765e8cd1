package dev.domino.compiler.lexer;

import dev.domino.runtime.internal.parse.ParserGrammar;
import dev.domino.runtime.internal.scan.Terminal;

import java.util.BitSet;
import java.util.List;

/**
 * A grammar split into its two levels: terminals (byte automata) and a parser-level CFG over
 * them, reduced (every nonterminal productive and reachable).
 *
 * @param terminals  terminal t at index t
 * @param grammar    the parser-level grammar
 * @param follow     follow[t]: terminals that may come right after t in some sentence
 *                   (ignored terminals follow everything and are followed by everything)
 * @param first      terminals that may begin a sentence
 */
public record LexedGrammar(List<Terminal> terminals, ParserGrammar grammar, BitSet[] follow, BitSet first) {}
