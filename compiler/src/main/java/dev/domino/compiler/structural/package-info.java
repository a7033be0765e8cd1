/**
 * Structural tags (after XGrammar's {@code structural_tag}): free text, triggers, tagged bodies constrained by a
 * JSON Schema or a grammar, reasoning blocks, compiled into one IR grammar
 * ({@link dev.domino.compiler.structural.StructuralTags}). Reads the spec JSON, writes IR.
 */
package dev.domino.compiler.structural;
