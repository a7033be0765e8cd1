/**
 * IR to two levels: {@link dev.domino.compiler.lexer.TerminalDerivation} splits a grammar into terminals (regular
 * languages) and a parser-level grammar over them ({@link dev.domino.compiler.lexer.LexedGrammar}), with the
 * follow sets tree pruning needs. Reads IR, feeds {@code automata} (one byte DFA per terminal) and the
 * runtime's parser grammar.
 */
package dev.domino.compiler.lexer;
