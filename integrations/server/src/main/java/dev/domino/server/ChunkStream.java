package dev.domino.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A streamed response as server-sent events, in OpenAI's chunk shapes: a role chunk, then content deltas; or, for a
 * tool-call output, per call a chunk with its index, id, type and name (arguments ""), then argument fragments, as
 * OpenAI streams tool calls. A named function's arguments stream token by token; with {@code tool_choice:
 * "required"} (an array of calls) each call is sent when its object closes, its arguments in one fragment. With a
 * {@code tool_call_style} (a model family's layout), the content and the calls are sent when the output ends. A failed
 * write (the client went away) sets {@link #clientGone()}, which cancels the decoding.
 */
final class ChunkStream implements Engine.Sink {
    private final OutputStream out;
    private final ChatRequest request;
    private final String id, model;
    private final long created;
    private final boolean chat;
    private final AtomicBoolean gone = new AtomicBoolean();
    private int currentChoice = -1;
    private ToolCallScanner scanner;

    ChunkStream(OutputStream out, ChatRequest request, String id, String model, long created, boolean chat) {
        this.out = out;
        this.request = request;
        this.id = id;
        this.model = model;
        this.created = created;
        this.chat = chat;
    }

    boolean clientGone() { return gone.get(); }

    @Override public void text(int choice, String delta) {
        startChoice(choice);
        if (chat && request.toolCallStyle() != null) return; // a model family's layout is read when the output ends (finish)
        if (!chat || request.shape() == ChatRequest.Shape.TEXT) {
            ObjectNode d = OpenAiJson.JSON.createObjectNode();
            if (chat) d.put("content", delta); else d.put("text", delta);
            send(chunk(choice, d, null));
        } else {
            scanner.accept(delta);
        }
    }

    /** Ends a choice: what was not streamed yet (an output that is not a whole tool call), then the finish reason. */
    void finish(ChatResult.Choice c) {
        startChoice(c.index());
        String finish = c.finishReason();
        if (chat && request.toolCallStyle() != null) {
            if (c.content() != null && !c.content().isEmpty()) send(chunk(c.index(), OpenAiJson.JSON.createObjectNode().put("content", c.content()), null));
            for (int k = 0; k < c.toolCalls().size(); k++) {
                ChatRequest.ToolCall call = c.toolCalls().get(k);
                scanner.sendCall(k, call.id(), call.name(), "");
                scanner.sendArguments(k, call.arguments());
            }
        } else if (chat && request.shape() != ChatRequest.Shape.TEXT) {
            if (scanner.callsSent() == 0 && c.content() != null && !c.content().isEmpty()) {
                send(chunk(c.index(), OpenAiJson.JSON.createObjectNode().put("content", c.content()), null));
            }
            if (scanner.callsSent() > 0 && c.generation().stop() == dev.domino.jlama.Generation.Stop.EOS) finish = "tool_calls";
        }
        send(chunk(c.index(), OpenAiJson.JSON.createObjectNode(), chat ? finish : finish.equals("tool_calls") ? "stop" : finish));
    }

    void usage(ChatResult r) {
        ObjectNode root = OpenAiJson.header(id, chat ? "chat.completion.chunk" : "text_completion", created, model);
        root.putArray("choices");
        root.set("usage", OpenAiJson.usage(r));
        send(root);
    }

    void error(ApiException e) { send(OpenAiJson.error(e)); }

    void done() {
        write("data: [DONE]\n\n");
    }

    private void startChoice(int choice) {
        if (choice == currentChoice) return;
        currentChoice = choice;
        scanner = new ToolCallScanner(choice);
        if (chat) {
            ObjectNode d = OpenAiJson.JSON.createObjectNode().put("role", "assistant");
            if (request.shape() == ChatRequest.Shape.TEXT) d.put("content", "");
            send(chunk(choice, d, null));
        }
    }

    private ObjectNode chunk(int choice, ObjectNode delta, String finish) {
        ObjectNode root = OpenAiJson.header(id, chat ? "chat.completion.chunk" : "text_completion", created, model);
        ArrayNode choices = root.putArray("choices");
        ObjectNode c = choices.addObject();
        c.put("index", choice);
        if (chat) c.set("delta", delta); else c.put("text", delta.path("text").asText(""));
        c.putNull("logprobs");
        if (finish != null) c.put("finish_reason", finish); else c.putNull("finish_reason");
        return root;
    }

    private void send(JsonNode event) {
        try {
            write("data: " + OpenAiJson.JSON.writeValueAsString(event) + "\n\n");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void write(String s) {
        if (gone.get()) return;
        try {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            gone.set(true);
        }
    }

    /** Turns tool-call output text into tool-call deltas as it arrives. */
    private final class ToolCallScanner {
        private final int choice;
        private final StringBuilder element = new StringBuilder();
        private int depth, calls;
        private boolean inString, escaped;
        private String namedId;

        ToolCallScanner(int choice) { this.choice = choice; }

        int callsSent() { return calls; }

        void accept(String delta) {
            if (request.shape() == ChatRequest.Shape.NAMED_TOOL) {
                if (namedId == null) {
                    namedId = ToolCalls.newId();
                    sendCall(0, namedId, request.namedTool(), "");
                    calls = 1;
                }
                sendArguments(0, delta);
                return;
            }
            for (int i = 0; i < delta.length(); i++) {
                char ch = delta.charAt(i);
                if (depth >= 2 || depth == 1 && ch == '{') element.append(ch);
                if (inString) {
                    if (escaped) escaped = false;
                    else if (ch == '\\') escaped = true;
                    else if (ch == '"') inString = false;
                    continue;
                }
                if (ch == '"') inString = true;
                else if (ch == '[' || ch == '{') depth++;
                else if (ch == ']' || ch == '}') {
                    depth--;
                    if (depth == 1 && ch == '}') completeElement();
                }
            }
        }

        private void completeElement() {
            try {
                JsonNode c = OpenAiJson.JSON.readTree(element.toString());
                ChatRequest.ToolCall call = ToolCalls.call(c);
                sendCall(calls, call.id(), call.name(), "");
                sendArguments(calls, call.arguments());
                calls++;
            } catch (IOException e) {
                // not a call object (cannot happen under the grammar); the final content says what came out
            }
            element.setLength(0);
        }

        private void sendCall(int index, String callId, String name, String arguments) {
            ObjectNode delta = OpenAiJson.JSON.createObjectNode();
            ObjectNode call = delta.putArray("tool_calls").addObject();
            call.put("index", index);
            call.put("id", callId);
            call.put("type", "function");
            call.putObject("function").put("name", name).put("arguments", arguments);
            send(chunk(choice, delta, null));
        }

        private void sendArguments(int index, String fragment) {
            ObjectNode delta = OpenAiJson.JSON.createObjectNode();
            ObjectNode call = delta.putArray("tool_calls").addObject();
            call.put("index", index);
            call.putObject("function").put("arguments", fragment);
            send(chunk(choice, delta, null));
        }
    }

}
