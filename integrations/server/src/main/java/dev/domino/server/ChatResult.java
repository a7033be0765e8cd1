package dev.domino.server;

import dev.domino.jlama.Generation;
import java.util.List;

/**
 * The outputs of one request.
 *
 * @param choices          one per {@code n}
 * @param promptTokens     tokens of the prompt
 * @param completionTokens tokens generated over all choices (EOS excluded)
 */
public record ChatResult(String id, long created, List<Choice> choices, int promptTokens, int completionTokens) {
    /**
     * One output: {@code content} for text (null when it became tool calls), {@code toolCalls} parsed from a tool-call
     * output, {@code finishReason} as OpenAI's ({@code stop}, {@code length}, {@code tool_calls}).
     */
    public record Choice(int index, String content, List<ChatRequest.ToolCall> toolCalls, String finishReason, Generation generation) {}
}
