/**
 * The algebra of schemas and of string languages, exact rewrites only. Schemas:
 * {@link dev.domino.compiler.jsonschema.algebra.SchemaAlgebra} merges conjunctions ({@code allOf}, {@code $ref}
 * with siblings), {@link dev.domino.compiler.jsonschema.algebra.SchemaComplement} complements ({@code not}),
 * {@link dev.domino.compiler.jsonschema.algebra.UnionProduct} distributes conjunctions of unions, kept small by
 * {@link dev.domino.compiler.jsonschema.algebra.SchemaEmptiness}; {@code oneOf}
 * ({@link dev.domino.compiler.jsonschema.algebra.OneOfRewrites}), {@code if}/{@code then}/{@code else} and
 * {@code dependent*} ({@link dev.domino.compiler.jsonschema.algebra.ConditionalSchemas}) and {@code unevaluated*}
 * ({@link dev.domino.compiler.jsonschema.algebra.UnevaluatedKeywords}) become those operations. String languages:
 * {@link dev.domino.compiler.jsonschema.algebra.CodePointDfa} (intersection, complement, emptiness over code
 * points), {@link dev.domino.compiler.jsonschema.algebra.ExprLanguage} (membership, length bounds) and
 * {@link dev.domino.compiler.jsonschema.algebra.RegularLanguages}, the same operations for the regex and Lark
 * front ends. Data flows: normalized schema JSON → schema JSON without {@code not}/{@code oneOf}/conditionals,
 * handed back to the {@code SchemaCompiler} per type.
 */
package dev.domino.compiler.jsonschema.algebra;
