package dev.domino.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.constraints.ConstraintCache;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The cache-hit path of {@link ConstraintCache}: from a request (parsed JSON, or its text) to a
 * ready matcher, the constraint already compiled. {@code request}: {@code tools3} (three functions,
 * {@code tool_choice: required}), {@code schema} (a {@code response_format} JSON Schema with
 * nested objects and enums, about 1 KB), {@code regex}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss64m"})
@State(Scope.Benchmark)
public class ConstraintCacheBenchmark {
    @Param({Fixtures.DEFAULT_VOCAB}) public String vocab;
    @Param({"tools3", "schema", "regex"}) public String request;

    static final String TOOLS3 = """
            {"model": "m", "messages": [{"role": "user", "content": "Book me a flight to Nice and tell me the weather there."}],
             "tools": [
              {"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
                "parameters": {"type": "object", "properties": {
                   "location": {"type": "string", "description": "City and country"},
                   "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                 "required": ["location"], "additionalProperties": false}}},
              {"type": "function", "function": {"name": "book_flight", "description": "Books a flight",
                "parameters": {"type": "object", "properties": {
                   "from": {"type": "string"}, "to": {"type": "string"}, "date": {"type": "string", "format": "date"},
                   "seats": {"type": "integer", "minimum": 1, "maximum": 9}},
                 "required": ["from", "to", "date"], "additionalProperties": false}}},
              {"type": "function", "function": {"name": "get_time", "description": "Current time"}}],
             "tool_choice": "required"}""";

    static final String SCHEMA = """
            {"model": "m", "messages": [{"role": "user", "content": "Extract the order."}],
             "response_format": {"type": "json_schema", "json_schema": {"name": "order", "strict": true, "schema": {
               "type": "object", "properties": {
                 "customer_name": {"type": "string"}, "email": {"type": "string"},
                 "status": {"type": "string", "enum": ["new", "paid", "shipped", "cancelled"]},
                 "items": {"type": "array", "items": {"type": "object", "properties": {
                    "sku": {"type": "string"}, "quantity": {"type": "integer", "minimum": 1}, "price": {"type": "number"}},
                    "required": ["sku", "quantity"], "additionalProperties": false}},
                 "address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"},
                    "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["city"], "additionalProperties": false},
                 "notes": {"type": ["string", "null"]}},
               "required": ["customer_name", "status", "items"], "additionalProperties": false}}}}""";

    static final String REGEX = "{\"model\": \"m\", \"regex\": \"(yes|no|maybe)( because [a-z ]{1,40})?\"}";

    ConstraintCache cache;
    Vocabulary vocabulary;
    JsonNode parsed;
    String text;

    @Setup(Level.Trial) public void setUp() throws Exception {
        vocabulary = Fixtures.vocabulary(vocab);
        text = switch (request) {
            case "tools3" -> TOOLS3;
            case "schema" -> SCHEMA;
            case "regex" -> REGEX;
            default -> throw new IllegalArgumentException("unknown request " + request);
        };
        parsed = new ObjectMapper().readTree(text);
        cache = ConstraintCache.builder().build();
        long t0 = System.nanoTime();
        cache.matcher(parsed, vocabulary); // the one compile
        System.out.printf("%n[%s, %s] compile %.1f ms, request %d bytes%n", request, vocab, (System.nanoTime() - t0) / 1e6, text.length());
    }

    @TearDown(Level.Trial) public void tearDown() {
        System.out.printf("%n[%s] %s%n", request, cache.stats());
        cache.close();
    }

    /** A server that parsed the request body already. */
    @Benchmark public Matcher hitParsed() { return cache.matcher(parsed, vocabulary); }

    /** From the request body's text (JSON parse included). */
    @Benchmark public Matcher hitText() {
        return dev.domino.constraints.Constraints.newMatcher(cache.artifact(text, vocabulary), vocabulary);
    }
}
