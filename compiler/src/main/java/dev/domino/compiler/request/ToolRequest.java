package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/**
 * The tool-calling part of a request: the functions ({@code tools}), what {@code tool_choice} asks,
 * {@code parallel_tool_calls}, the style named by {@code tool_call_style} (null: the server's or
 * the detected one), and the final answer's schema from {@code response_format} (null: free text).
 */
record ToolRequest(Map<String, JsonNode> functions, Choice choice, String named, boolean parallel, ToolCallStyle style, JsonNode answer) {
    /** {@code tool_choice}: auto (text or calls), required (at least one call), a named function (it only), none (text only). */
    enum Choice { AUTO, REQUIRED, NAMED, NONE }

    /** The functions a call may name. */
    Map<String, JsonNode> callable() {
        return choice == Choice.NAMED ? Map.of(named, functions.get(named)) : functions;
    }
}
