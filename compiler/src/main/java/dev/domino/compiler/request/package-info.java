/**
 * OpenAI-style requests ({@code response_format}, tools and {@code tool_choice}, structural tags) read strictly
 * into one constraint ({@link dev.domino.compiler.request.RequestSpec}), whose grammar the JSON Schema and
 * structural-tag front ends build. Data flows request JSON → constraint → IR; an unknown or unsupported
 * field is refused by name.
 */
package dev.domino.compiler.request;
