/**
 * The parser level: the context-free grammar over terminals ({@link dev.domino.runtime.internal.parse.ParserGrammar},
 * with members-in-any-order {@link dev.domino.runtime.internal.parse.Permutation}s), the Earley recognizer and its
 * immutable, shared states ({@link dev.domino.runtime.internal.parse.EarleyParser},
 * {@link dev.domino.runtime.internal.parse.EarleyState}), and the fewest bytes that finish an output
 * ({@link dev.domino.runtime.internal.parse.ShortestCompletion}). The compiler writes the grammar; masks and commits
 * read the parser's states. Only {@code ShortestCompletion} reads the scanner as well (byte costs of terminals).
 */
package dev.domino.runtime.internal.parse;
