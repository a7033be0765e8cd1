/**
 * {@code type: string} to IR: {@link dev.domino.compiler.jsonschema.strings.StringSchemas} combines
 * {@code pattern} (with its leading lookaheads, {@link dev.domino.compiler.jsonschema.strings.PatternLookaheads}),
 * {@code format} ({@link dev.domino.compiler.jsonschema.strings.Formats}, RFC 3339 times in
 * {@link dev.domino.compiler.jsonschema.strings.TimeAutomaton}) and {@code minLength}/{@code maxLength}
 * ({@link dev.domino.compiler.jsonschema.strings.LengthBounds}) as languages over decoded code points, then
 * {@link dev.domino.compiler.jsonschema.strings.JsonStrings} (and
 * {@link dev.domino.compiler.jsonschema.strings.JsonStringAutomaton} for automaton leaves) maps them to every JSON
 * spelling of those strings. Data flows: schema keywords → code point language → JSON string encoding → IR.
 * Object keys use the same encoding ({@code objects}).
 */
package dev.domino.compiler.jsonschema.strings;
