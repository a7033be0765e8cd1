/**
 * JSON Schema to IR: {@link dev.domino.compiler.jsonschema.JsonSchemaGrammar} compiles a schema into a grammar
 * whose language is the JSON texts valid under it, with {@link dev.domino.compiler.jsonschema.JsonSchemaOptions}
 * (whitespace, separators, formats, dialect) and a {@link dev.domino.compiler.jsonschema.SchemaRegistry} for remote
 * {@code $ref}s. These three are the package's API; everything else is internal to the compiler module.
 *
 * <p>Data flows one way: schema JSON → resolved ({@code refs}: remote documents embedded, {@code $dynamicRef}
 * made static, {@code $ref} targets found) → normalized ({@link dev.domino.compiler.jsonschema.SchemaNormalizer}:
 * keyword values checked by {@link dev.domino.compiler.jsonschema.KeywordValues}, annotations dropped, unknown and
 * unsupported keywords reported) → rewritten into conjunctions and unions of simple schemas ({@code algebra}:
 * {@code allOf} merged, {@code not} complemented, {@code oneOf}, conditionals and {@code unevaluated*} rewritten)
 * → per JSON type to IR {@code Expr} rules ({@code strings}, {@code numbers}, {@code objects}, {@code arrays};
 * {@code enum}/{@code const} by {@link dev.domino.compiler.jsonschema.ConstantSchemas}) in the rule set of
 * {@link dev.domino.compiler.jsonschema.JsonSyntax} → rules that derive nothing removed
 * ({@link dev.domino.compiler.jsonschema.UnproductiveRules}) → {@code ir.Grammar}.
 * {@link dev.domino.compiler.jsonschema.SchemaCompiler} is the hub that dispatches one schema object through
 * these steps; the sub-packages call back into it for nested schemas.
 */
package dev.domino.compiler.jsonschema;
