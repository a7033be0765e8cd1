package dev.domino.langchain4j;

import dev.domino.server.ApiException;
import dev.domino.server.ChatRequest;
import dev.domino.server.ChatResult;
import dev.domino.server.Engine;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.util.Set;

/**
 * The streaming twin of {@link DominoChatModel}: text arrives in {@code onPartialResponse} as it is decoded (on the
 * calling thread), then {@code onCompleteResponse} with the whole message, tool calls included.
 */
public final class DominoStreamingChatModel implements StreamingChatModel {
    private final Engine engine;
    private final RequestMapping.Settings settings;

    /** With the defaults of {@link #builder}. */
    public DominoStreamingChatModel(Engine engine) { this(engine, new RequestMapping.Settings(null, true, null)); }

    private DominoStreamingChatModel(Engine engine, RequestMapping.Settings settings) {
        this.engine = engine;
        this.settings = settings;
    }

    public static Builder builder(Engine engine) { return new Builder(engine); }

    /** Defaults: a random seed per request, strict JSON schemas, several tool calls allowed per output. */
    public static final class Builder {
        private final Engine engine;
        private Long seed;
        private boolean strictJsonSchema = true;
        private Boolean parallelToolCalls;

        private Builder(Engine engine) { this.engine = engine; }

        /** The seed of every request (reproducible outputs); null: a random one. */
        public Builder seed(Long seed) { this.seed = seed; return this; }
        /** See {@code RequestMapping.Settings#strictJsonSchema} (default true). */
        public Builder strictJsonSchema(boolean strict) { this.strictJsonSchema = strict; return this; }
        /** false: at most one tool call per output. */
        public Builder parallelToolCalls(Boolean parallel) { this.parallelToolCalls = parallel; return this; }

        public DominoStreamingChatModel build() { return new DominoStreamingChatModel(engine, new RequestMapping.Settings(seed, strictJsonSchema, parallelToolCalls)); }
    }

    @Override
    public Set<Capability> supportedCapabilities() { return Set.of(Capability.RESPONSE_FORMAT_JSON_SCHEMA); }

    @Override
    public void doChat(dev.langchain4j.model.chat.request.ChatRequest request, StreamingChatResponseHandler handler) {
        ChatResult result;
        try {
            ChatRequest r = RequestMapping.toEngine(request, engine.config().modelName(), settings);
            try (Engine.Admission admission = engine.admit()) {
                // tool-call outputs are not text: they arrive whole in the complete response
                Engine.Sink sink = r.shape() == ChatRequest.Shape.TEXT ? (choice, delta) -> handler.onPartialResponse(delta) : null;
                result = engine.run(engine.prepare(r), sink, () -> false);
            }
        } catch (ApiException e) {
            handler.onError(DominoChatModel.translate(e));
            return;
        } catch (RuntimeException e) {
            handler.onError(e);
            return;
        }
        handler.onCompleteResponse(RequestMapping.toResponse(result, engine.config().modelName()));
    }
}
