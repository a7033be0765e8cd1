/**
 * Regular IR expressions to minimal byte DFAs (Thompson NFA over UTF-8 byte ranges, subset construction,
 * minimization, canonical numbering), which become the runtime's {@code ByteDfa} terminals. Reads IR only;
 * the tree builder and the artifact consume its output.
 */
package dev.domino.compiler.automata;
