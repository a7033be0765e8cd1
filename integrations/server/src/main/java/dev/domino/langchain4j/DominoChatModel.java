package dev.domino.langchain4j;

import dev.domino.server.ApiException;
import dev.domino.server.ChatRequest;
import dev.domino.server.ChatResult;
import dev.domino.server.Engine;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.Set;

/**
 * A LangChain4j {@link ChatModel} over jlama with Domino's constrained decoding: JSON-Schema response formats
 * ({@link Capability#RESPONSE_FORMAT_JSON_SCHEMA}, so AI Services with POJO return types get schema-valid JSON) and
 * {@code ToolChoice.REQUIRED} are enforced by the grammar's token masks, not asked for in the prompt.
 *
 * <pre>{@code
 * Engine engine = Engine.open(Path.of("model"), null, Engine.Config.defaults("tiny"));
 * ChatModel model = new DominoChatModel(engine);
 * Extractor e = AiServices.create(Extractor.class, model);
 * }</pre>
 */
public final class DominoChatModel implements ChatModel {
    private final Engine engine;
    private final RequestMapping.Settings settings;

    /** With the defaults of {@link #builder}. */
    public DominoChatModel(Engine engine) { this(engine, new RequestMapping.Settings(null, true, null)); }

    private DominoChatModel(Engine engine, RequestMapping.Settings settings) {
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

        public DominoChatModel build() { return new DominoChatModel(engine, new RequestMapping.Settings(seed, strictJsonSchema, parallelToolCalls)); }
    }

    @Override
    public Set<Capability> supportedCapabilities() { return Set.of(Capability.RESPONSE_FORMAT_JSON_SCHEMA); }

    @Override
    public ChatResponse doChat(dev.langchain4j.model.chat.request.ChatRequest request) {
        ChatRequest r = RequestMapping.toEngine(request, engine.config().modelName(), settings);
        try (Engine.Admission admission = engine.admit()) {
            ChatResult result = engine.run(engine.prepare(r), null, () -> false);
            return RequestMapping.toResponse(result, engine.config().modelName());
        } catch (ApiException e) {
            throw translate(e);
        }
    }

    static LangChain4jException translate(ApiException e) {
        if (e.status() == 429) return new RateLimitException(e.getMessage());
        if (e.status() / 100 == 4) return new InvalidRequestException(e.getMessage());
        return new LangChain4jException(e.getMessage(), e);
    }
}
