/**
 * The grammar IR every front end produces and the back end consumes: a {@link dev.domino.compiler.ir.Grammar} of
 * named rules over {@link dev.domino.compiler.ir.Expr} (literals, code-point sets, sequences, alternatives,
 * repeats), and {@link dev.domino.compiler.ir.GrammarException} for one-line errors. Immutable values; it names no
 * front end, automaton or runtime class.
 */
package dev.domino.compiler.ir;
