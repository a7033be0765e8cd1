/**
 * {@code type: integer} and {@code type: number} to IR: {@link dev.domino.compiler.jsonschema.numbers.NumberSchemas}
 * turns bounds and {@code multipleOf} into exact automata over the JSON spellings of numbers: integer ranges
 * ({@link dev.domino.compiler.jsonschema.numbers.IntegerRanges}), decimal ranges with power-of-ten multiples
 * ({@link dev.domino.compiler.jsonschema.numbers.DecimalRanges}), and other multiples and their complements as
 * residue automata ({@link dev.domino.compiler.jsonschema.numbers.NumberMultiples}). Data flows: normalized schema
 * keywords → IR number expressions.
 */
package dev.domino.compiler.jsonschema.numbers;
