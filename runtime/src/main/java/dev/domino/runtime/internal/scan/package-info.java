/**
 * The lexical level: one byte automaton per terminal ({@link dev.domino.runtime.internal.scan.ByteDfa}, counted
 * repeats as {@link dev.domino.runtime.internal.scan.CountedLoop}, special tokens as
 * {@link dev.domino.runtime.internal.scan.TokenMatch}) and their states numbered globally
 * ({@link dev.domino.runtime.internal.scan.ScannerStates}). The compiler builds the automata; tree building,
 * byte stepping and inspection read them.
 */
package dev.domino.runtime.internal.scan;
