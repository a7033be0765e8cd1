package dev.domino.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.domino.jlama.SmallTokenizer;
import dev.domino.jlama.TinyLlama;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * One tiny random-weight Llama (the small Llama-3-format tokenizer, written here: no download) served on a free
 * localhost port, shared by the test classes of this JVM.
 */
public final class TinyServer {
    public static final String MODEL = "tiny";
    public static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Request timeout of the test servers and clients: a hang guard, far above a request's time on a loaded CI machine
     * (the first requests of a cold JVM take seconds), never what a test measures.
     */
    public static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private static Engine engine;
    private static HttpApi api;

    private TinyServer() {}

    public static synchronized Engine engine() {
        start();
        return engine;
    }

    /** {@code http://127.0.0.1:PORT/v1} */
    public static synchronized String baseUrl() {
        start();
        return "http://127.0.0.1:" + api.port() + "/v1";
    }

    public static synchronized Path modelDir() {
        return dir().resolve("model");
    }

    private static Path dir;

    private static Path dir() {
        if (dir == null) {
            try {
                dir = Files.createTempDirectory("domino-server-test");
                Path tokenizer = dir.resolve("small-tokenizer.json");
                SmallTokenizer.write(tokenizer);
                // output-layer spread 0.05: nearly flat next-token distributions, so outputs end (see the jlama tests)
                TinyLlama.write(dir.resolve("model"), tokenizer, TinyLlama.Shape.tiny(), 7, 0.05);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    private static void start() {
        if (api != null) return;
        try {
            engine = Engine.open(modelDir(), null, new Engine.Config(MODEL, 4, 64, 400, REQUEST_TIMEOUT, "compact", 1));
            api = new HttpApi(engine, "127.0.0.1", 0, 1 << 20).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Validation errors of {@code value} under {@code schema} (networknt, draft 2020-12); empty when valid. */
    public static Set<ValidationMessage> validate(JsonNode schema, JsonNode value) {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema).validate(value);
    }

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static final String PERSON_SCHEMA = """
            {"type": "object", "properties": {
               "name": {"type": "string", "maxLength": 12},
               "age": {"type": "integer", "minimum": 0, "maximum": 120},
               "city": {"enum": ["Paris", "London"]}},
             "required": ["name", "age", "city"], "additionalProperties": false}""";

    public static final String WEATHER_PARAMETERS = """
            {"type": "object", "properties": {
               "city": {"type": "string", "maxLength": 10},
               "unit": {"enum": ["celsius", "fahrenheit"]}},
             "required": ["city", "unit"], "additionalProperties": false}""";
}
