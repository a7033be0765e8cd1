package dev.domino.server;

import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.model.ModelSupport;
import com.github.tjake.jlama.safetensors.DType;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.jlama.ConstrainedGenerator;
import dev.domino.jlama.Generation;
import dev.domino.jlama.Sampling;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A model served to many callers: admission (at most {@code workers} requests decode at once, {@code queue} more
 * wait, the rest are refused with 429), the constraint cache for per-request schemas, the chat prompt, and
 * {@link ConstrainedGenerator} for the outputs. The HTTP server and the LangChain4j models both call it. Thread-safe.
 */
public final class Engine implements AutoCloseable {
    /**
     * @param modelName        the id clients name in {@code model} (and {@code /v1/models} lists)
     * @param workers          requests decoding at once (each on its own thread; forward passes take turns)
     * @param queue            requests admitted beyond {@code workers}, waiting for a decode slot
     * @param defaultMaxTokens token limit of a request that sets none (capped by the context)
     * @param requestTimeout   from admission to the last token; past it the output is cancelled
     * @param jsonWhitespace   JSON whitespace of compiled schemas: compact (default) or flexible
     * @param backgroundThreads threads that build per-request schemas' trees while masks run (default 1; 0 = none: each
     *                         compile prebuilds about 1 s of trees, masks build the rest), see {@link #constraintOptions}
     */
    public record Config(String modelName, int workers, int queue, int defaultMaxTokens, Duration requestTimeout, String jsonWhitespace,
                         int backgroundThreads) {
        public Config {
            if (modelName == null || modelName.isBlank()) throw new IllegalArgumentException("model name must not be empty");
            if (workers < 1 || workers > 256) throw new IllegalArgumentException("workers must be in [1, 256], got " + workers);
            if (queue < 0 || queue > 100_000) throw new IllegalArgumentException("queue must be in [0, 100000], got " + queue);
            if (defaultMaxTokens < 1) throw new IllegalArgumentException("default max tokens must be >= 1, got " + defaultMaxTokens);
            if (requestTimeout.isNegative() || requestTimeout.isZero()) throw new IllegalArgumentException("request timeout must be > 0");
            if (!jsonWhitespace.equals("compact") && !jsonWhitespace.equals("flexible")) {
                throw new IllegalArgumentException("JSON whitespace must be compact or flexible, got '" + jsonWhitespace + "'");
            }
            if (backgroundThreads < 0 || backgroundThreads > 256) {
                throw new IllegalArgumentException("background threads must be in [0, 256], got " + backgroundThreads);
            }
        }

        public static Config defaults(String modelName) { return new Config(modelName, 4, 64, 512, Duration.ofMinutes(5), "compact", 1); }
    }

    /** A prebuilt artifact that cannot serve this model (compiled for another vocabulary, or recording no request). */
    public static final class BadArtifactException extends RuntimeException {
        BadArtifactException(String message) { super(message); }
    }

    private final AbstractModel model;
    private final Vocabulary vocabulary;
    private final Config config;
    private final ConstraintCache cache;
    private final ConstrainedGenerator generator;
    private final ChatPrompts prompts;
    private final Metrics metrics = new Metrics();
    private final Semaphore slots;
    private final AtomicInteger admitted = new AtomicInteger(), decoding = new AtomicInteger();

    public Engine(AbstractModel model, Vocabulary vocabulary, Config config) {
        this.model = model;
        this.vocabulary = vocabulary;
        this.config = config;
        this.cache = ConstraintCache.builder().options(constraintOptions(config.jsonWhitespace(), config.backgroundThreads()))
                .backgroundTreeThreads(config.backgroundThreads()).build();
        this.generator = new ConstrainedGenerator(model);
        this.prompts = new ChatPrompts(model);
        this.slots = new Semaphore(config.workers(), true);
    }

    /**
     * Loads a jlama model directory and the prebuilt artifacts of {@code artifactsDir} (files {@code *.domino} compiled
     * with {@code domino compile --spec REQUEST.json --vocab DIR/tokenizer.json}; null for none).
     *
     * @throws BadArtifactException for an artifact of another vocabulary or without a recorded request
     */
    public static Engine open(Path modelDir, Path artifactsDir, Config config) throws IOException {
        if (!Files.isRegularFile(modelDir.resolve("config.json"))) throw new IllegalArgumentException(modelDir + ": no config.json (not a model directory)");
        if (artifactsDir != null && !Files.isDirectory(artifactsDir)) throw new IllegalArgumentException(artifactsDir + ": not a directory");
        Vocabulary vocabulary = VocabularyLoader.load(modelDir.resolve("tokenizer.json").toString(), null).vocabulary();
        List<Artifact> prebuilt = new ArrayList<>();
        if (artifactsDir != null) {
            try (Stream<Path> files = Files.list(artifactsDir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".domino")).sorted().toList()) {
                    Artifact a = Artifact.load(f);
                    if (!a.vocabulary().fingerprint().equals(vocabulary.fingerprint())) {
                        throw new BadArtifactException(f + " was compiled for vocabulary '" + a.vocabulary().name()
                                + "', not for the model's tokenizer.json: recompile it with --vocab " + modelDir.resolve("tokenizer.json"));
                    }
                    prebuilt.add(a);
                }
            }
        }
        AbstractModel model = ModelSupport.loadModel(modelDir.toFile(), DType.F32, DType.F32);
        Engine e = new Engine(model, vocabulary, config);
        for (Artifact a : prebuilt) {
            try {
                e.cache.addPrebuilt(a);
            } catch (IllegalArgumentException ex) {
                e.close();
                throw new BadArtifactException(ex.getMessage() + " (start the server with the same --json-whitespace)");
            }
        }
        return e;
    }

    /**
     * The options request constraints compile with; a prebuilt artifact must record the same ones
     * ({@code domino compile --spec REQUEST.json --json-whitespace compact --tool-call-style domino} for the default).
     * Tool calls stay in Domino's JSON array ({@link ToolCalls}) unless a request names its model's tool_call_style ({@link StyledToolCalls}).
     * With background threads the serving mode ({@link ConstraintOptions#serving()}: nothing prebuilt, the first mask
     * comes sooner); the trees built do not change the options' key, so prebuilt artifacts serve either way.
     */
    public static ConstraintOptions constraintOptions(String jsonWhitespace, int backgroundThreads) {
        ConstraintOptions base = backgroundThreads > 0 ? ConstraintOptions.serving() : ConstraintOptions.defaults();
        return base.withJsonSchema(jsonWhitespace.equals("compact") ? JsonSchemaOptions.compact() : JsonSchemaOptions.defaults())
                .withToolCallStyle(dev.domino.compiler.request.ToolCallStyle.DOMINO_JSON);
    }

    public Config config() { return config; }
    public Metrics metrics() { return metrics; }
    public Vocabulary vocabulary() { return vocabulary; }
    public AbstractModel model() { return model; }

    public String prometheus() { return metrics.prometheus(decoding.get(), Math.max(0, admitted.get() - decoding.get()), cache.stats()); }

    public ConstraintCache.Stats cacheStats() { return cache.stats(); }

    /** How per-request schemas are compiled and their trees built, for the start-up line. */
    public String constraintSummary() {
        ConstraintOptions o = cache.options();
        int bg = cache.backgroundTreeThreads();
        return (o.lazy() ? "lazy trees, " + o.prebuildMillis() + " ms prebuilt" : "every tree at compile time")
                + ", " + bg + " background tree thread" + (bg == 1 ? "" : "s");
    }

    /** A request's place: held from admission to its response's end. */
    public final class Admission implements AutoCloseable {
        private boolean closed;

        @Override public void close() {
            if (!closed) {
                closed = true;
                admitted.decrementAndGet();
            }
        }
    }

    /** @throws ApiException 429 when {@code workers + queue} requests are already admitted */
    public Admission admit() {
        if (admitted.incrementAndGet() > config.workers() + config.queue()) {
            admitted.decrementAndGet();
            metrics.rejected.increment();
            throw new ApiException(429, "rate_limit_exceeded", null, "rate_limit_exceeded",
                    "the server is busy: " + config.workers() + " requests decoding and " + config.queue() + " waiting; retry later");
        }
        return new Admission();
    }

    /** A request checked and compiled, ready to decode. */
    public record Prepared(ChatRequest request, Artifact artifact, int[] promptTokens, int maxTokens, long deadlineNanos) {}

    /**
     * Checks the request against this model, compiles (or finds) its constraint, and encodes the prompt.
     *
     * @throws ApiException 400 for a bad request or a schema that does not compile, 404 for another model's name
     */
    public Prepared prepare(ChatRequest r) {
        long deadline = System.nanoTime() + config.requestTimeout().toNanos();
        if (r.model() != null && !r.model().equals(config.modelName())) {
            throw new ApiException(404, "invalid_request_error", "model", "model_not_found",
                    "the model '" + r.model() + "' does not exist; this server serves '" + config.modelName() + "'");
        }
        Artifact artifact;
        try {
            artifact = cache.artifact(r.constraint(), vocabulary);
        } catch (ConstraintException e) {
            String param = r.constraint().has("response_format") ? "response_format" : r.constraint().has("tools") ? "tools" : null;
            throw switch (e.reason()) {
                case INVALID_REQUEST, COMPILE_ERROR -> new ApiException(400, "invalid_request_error", param, "invalid_schema",
                        "invalid output constraint: " + e.getMessage());
                case TIME_BUDGET -> new ApiException(400, "invalid_request_error", param, "constraint_too_complex", e.getMessage());
                case RESOURCES -> new ApiException(503, "server_error", param, "constraint_resources", e.getMessage());
                case INTERNAL -> new ApiException(500, "server_error", param, null, e.getMessage());
            };
        }
        int[] prompt = generator.encodePrompt(prompts.prompt(r));
        int context = model.getConfig().contextLength;
        if (prompt.length >= context) {
            throw ApiException.invalid("messages", "the prompt has " + prompt.length + " tokens; the model's context length is " + context);
        }
        int maxTokens;
        if (r.maxTokens() == null) {
            maxTokens = Math.min(config.defaultMaxTokens(), context - prompt.length);
        } else if (prompt.length + r.maxTokens() > context) {
            throw ApiException.invalid("max_tokens", "the prompt (" + prompt.length + " tokens) and max_tokens (" + r.maxTokens()
                    + ") exceed the model's context length " + context);
        } else {
            maxTokens = r.maxTokens();
        }
        return new Prepared(r, artifact, prompt, maxTokens, deadline);
    }

    /** Receives each choice's text as it is generated (streaming). */
    public interface Sink {
        void text(int choice, String delta);
    }

    /**
     * Decodes the request's {@code n} outputs, one after another on the calling thread, once a decode slot is free.
     *
     * @param cancelled polled between forward passes (a client that went away)
     * @throws ApiException 503 past the request timeout, 500 for an output that ended in the matcher's error state
     */
    public ChatResult run(Prepared p, Sink sink, BooleanSupplier cancelled) {
        long t0 = System.nanoTime();
        ChatRequest r = p.request();
        acquireSlot(p, cancelled);
        decoding.incrementAndGet();
        List<ChatResult.Choice> choices = new ArrayList<>();
        int completion = 0;
        try {
            long seed = r.seed() != null ? r.seed() : ThreadLocalRandom.current().nextLong();
            var options = ConstrainedGenerator.Options.defaults(p.maxTokens(), new Sampling(r.temperature(), r.topP()), seed);
            for (int i = 0; i < r.n(); i++) {
                int choice = i;
                var control = new ConstrainedGenerator.Control(r.stop(), sink == null ? null : delta -> sink.text(choice, delta),
                        cancelled, p.deadlineNanos(), r.logprobs());
                Generation g;
                try {
                    g = generator.generate(p.promptTokens(), p.artifact(),
                            new ConstrainedGenerator.Options(options.maxTokens(), options.sampling(), seed + i, true, options.jumpForward()), control);
                } catch (IllegalArgumentException tooShort) { // the grammar's shortest output does not fit in max_tokens
                    throw ApiException.invalid("max_tokens", tooShort.getMessage());
                }
                metrics.output(g);
                completion += g.tokens();
                if (g.stop() == Generation.Stop.ERROR) {
                    throw new ApiException(500, "server_error", null, "constraint_dead_end", "output " + i + " stopped: " + g.error());
                }
                if (g.stop() == Generation.Stop.CANCELLED) {
                    if (cancelled.getAsBoolean()) throw new Cancelled();
                    throw new ApiException(503, "server_error", null, "timeout", "the request took longer than the server's timeout of "
                            + config.requestTimeout().toSeconds() + " s");
                }
                choices.add(choice(i, r, g));
            }
        } finally {
            decoding.decrementAndGet();
            slots.release();
            metrics.request((System.nanoTime() - t0) / 1e6);
        }
        return new ChatResult("chatcmpl-" + UUID.randomUUID().toString().replace("-", ""), System.currentTimeMillis() / 1000, choices,
                p.promptTokens().length, completion);
    }

    /** The caller went away while its output was decoded. */
    public static final class Cancelled extends RuntimeException {
        Cancelled() { super("cancelled by the client", null, false, false); }
    }

    private void acquireSlot(Prepared p, BooleanSupplier cancelled) {
        try {
            while (!slots.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                if (cancelled.getAsBoolean()) throw new Cancelled();
                if (System.nanoTime() - p.deadlineNanos() > 0) {
                    throw new ApiException(503, "server_error", null, "timeout", "timed out waiting for a decode slot");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Cancelled();
        }
    }

    private static ChatResult.Choice choice(int i, ChatRequest r, Generation g) {
        String finish = switch (g.stop()) {
            case LIMIT -> "length";
            default -> "stop";
        };
        if (r.toolCallStyle() != null) { // the model family's layout: text, then calls
            StyledToolCalls.Parsed parsed = g.stop() == Generation.Stop.EOS ? StyledToolCalls.parse(r.toolCallStyle(), g.output(), r.tools()) : null;
            if (parsed != null && !parsed.calls().isEmpty()) {
                return new ChatResult.Choice(i, parsed.content().isEmpty() ? null : parsed.content(), parsed.calls(), "tool_calls", g);
            }
            return new ChatResult.Choice(i, parsed != null ? parsed.content() : g.output(), List.of(), finish, g);
        }
        if (r.shape() != ChatRequest.Shape.TEXT && g.stop() == Generation.Stop.EOS) {
            List<ChatRequest.ToolCall> calls = ToolCalls.parse(r.shape(), r.namedTool(), g.output());
            if (calls != null) return new ChatResult.Choice(i, null, calls, "tool_calls", g);
        }
        return new ChatResult.Choice(i, g.output(), List.of(), finish, g);
    }

    @Override public void close() {
        cache.close();
        model.close();
    }
}
