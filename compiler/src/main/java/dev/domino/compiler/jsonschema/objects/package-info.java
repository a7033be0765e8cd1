/**
 * {@code type: object} to IR: {@link dev.domino.compiler.jsonschema.objects.ObjectSchemas} decides which keys exist
 * and which value schema each gets ({@code properties}, {@code patternProperties}, {@code additionalProperties},
 * {@code required}, {@code propertyNames}, property counts); {@link dev.domino.compiler.jsonschema.objects.ObjectMembers}
 * lays the members out (declared slots, extra members, property order). Key languages are Boolean formulas
 * ({@link dev.domino.compiler.jsonschema.objects.KeyConstraint}) run side by side in one automaton
 * ({@link dev.domino.compiler.jsonschema.objects.KeyAutomaton}); quantifiers over arbitrary key languages, the
 * internal keywords the {@code algebra} produces, are in {@link dev.domino.compiler.jsonschema.objects.KeyQuantifiers}.
 * Data flows: normalized schema keywords → key languages and member rules → IR.
 */
package dev.domino.compiler.jsonschema.objects;
