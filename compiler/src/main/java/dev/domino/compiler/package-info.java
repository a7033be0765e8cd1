/**
 * The compiler's front door and pipeline: {@link dev.domino.compiler.DominoCompiler} (bound to one vocabulary)
 * takes a source in a {@link dev.domino.compiler.SourceFormat} with {@link dev.domino.compiler.CompileOptions},
 * runs the front end to IR, then {@link dev.domino.compiler.GrammarCompiler}: terminals and parser grammar
 * ({@code lexer}), byte automata ({@code automata}), subterminal trees (the runtime's tree builder), and hands
 * back a runtime {@code Artifact}. Data flows source → IR → automata → trees → artifact; nothing here reads an
 * artifact back except to check it.
 */
package dev.domino.compiler;
