/**
 * {@code type: array} to IR: {@link dev.domino.compiler.jsonschema.arrays.ArraySchemas} compiles {@code prefixItems}
 * and {@code items} (draft-04 array form and {@code additionalItems} too), {@code minItems}/{@code maxItems},
 * {@code contains} with its counts, and {@code uniqueItems}, element by element. Data flows: normalized schema
 * keywords → item rules → IR.
 */
package dev.domino.compiler.jsonschema.arrays;
