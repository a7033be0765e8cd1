/**
 * References and dialects, before anything is compiled: {@link dev.domino.compiler.jsonschema.refs.RemoteSchemas}
 * embeds the registry documents that {@code $ref}s name, {@link dev.domino.compiler.jsonschema.refs.DynamicRefs}
 * resolves {@code $dynamicRef} statically into {@code $ref}s, and {@link dev.domino.compiler.jsonschema.refs.RefResolver}
 * finds the target of a {@code $ref} (JSON pointer, anchor, {@code $id}) with its base URI.
 * {@link dev.domino.compiler.jsonschema.refs.Dialects} says which keywords the schema's dialect defines. The
 * registry itself ({@code SchemaRegistry}) is API and stays in {@code jsonschema}. Data flows: schema JSON with
 * references → one document whose references resolve locally.
 */
package dev.domino.compiler.jsonschema.refs;
