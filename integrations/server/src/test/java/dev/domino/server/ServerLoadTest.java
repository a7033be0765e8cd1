package dev.domino.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionNamedToolChoice;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code domino serve} under load through the OpenAI SDK: concurrent clients send requests of mixed schemas
 * (structured outputs, required tool calls, a named tool); every response is checked under its schema with networknt.
 * CI runs a small load (8 clients, 48 requests); the measurement in docs/server.md runs
 * {@code -Dload.clients=32 -Dload.requests=500}.
 */
class ServerLoadTest {
    static final String ORDER_SCHEMA = """
            {"type": "object", "properties": {
               "order_id": {"type": "integer", "minimum": 1, "maximum": 99999},
               "status": {"enum": ["pending", "paid", "shipped", "cancelled"]},
               "items": {"type": "array", "maxItems": 3, "items": {"type": "object", "properties": {
                   "sku": {"type": "string", "maxLength": 8}, "quantity": {"type": "integer", "minimum": 1, "maximum": 100}},
                 "required": ["sku", "quantity"], "additionalProperties": false}},
               "customer": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 12},
                   "tier": {"enum": ["basic", "gold"]}}, "required": ["name"], "additionalProperties": false}},
             "required": ["order_id", "status", "items"], "additionalProperties": false}""";

    static final String FLAGS_SCHEMA = """
            {"type": "object", "properties": {
               "urgent": {"type": "boolean"}, "tags": {"type": "array", "items": {"enum": ["gift", "express", "fragile"]}, "maxItems": 3},
               "ratio": {"type": "number", "minimum": 0, "maximum": 1}},
             "required": ["urgent", "tags"], "additionalProperties": false}""";

    record Kind(String name, JsonNode schema) {}

    @Test
    void mixedSchemasUnderConcurrentClients() throws Exception {
        int clients = Integer.getInteger("load.clients", 8), requests = Integer.getInteger("load.requests", 48);
        int maxTokens = Integer.getInteger("load.maxTokens", 400);
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(TinyServer.baseUrl()).apiKey("unused").maxRetries(0)
                .timeout(TinyServer.REQUEST_TIMEOUT).build();
        JsonNode person = TinyServer.parse(TinyServer.PERSON_SCHEMA), order = TinyServer.parse(ORDER_SCHEMA),
                flags = TinyServer.parse(FLAGS_SCHEMA), weather = TinyServer.parse(TinyServer.WEATHER_PARAMETERS);
        // one request per kind first: its compile (tens of ms alone, seconds on a loaded machine) is not load latency
        for (String warm : List.of(TinyServer.PERSON_SCHEMA, ORDER_SCHEMA, FLAGS_SCHEMA)) {
            warmUp(client, ChatCompletionCreateParams.builder().model(TinyServer.MODEL).addUserMessage("warm up")
                    .responseFormat(OpenAiSdkTest.jsonSchema("warm", warm)).maxCompletionTokens(1).build());
        }
        for (var warm : List.of(ChatCompletionToolChoiceOption.ofAuto(ChatCompletionToolChoiceOption.Auto.REQUIRED),
                ChatCompletionToolChoiceOption.ofNamedToolChoice(ChatCompletionNamedToolChoice.builder()
                        .function(ChatCompletionNamedToolChoice.Function.builder().name("get_weather").build()).build()))) {
            var b = ChatCompletionCreateParams.builder().model(TinyServer.MODEL).addUserMessage("warm up").addTool(OpenAiSdkTest.weatherTool())
                    .toolChoice(warm).maxCompletionTokens(1);
            if (warm.isAuto()) b.parallelToolCalls(false);
            warmUp(client, b.build());
        }
        double maskBefore = HttpApiTest.metric("domino_mask_seconds_total"), forwardBefore = HttpApiTest.metric("domino_forward_seconds_total"),
                sampleBefore = HttpApiTest.metric("domino_sample_seconds_total");
        AtomicInteger valid = new AtomicInteger(), next = new AtomicInteger();
        List<String> invalid = java.util.Collections.synchronizedList(new ArrayList<>());
        double[] latencyMs = new double[requests];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            done.add(pool.submit(() -> {
                for (int i; (i = next.getAndIncrement()) < requests; ) {
                    var b = ChatCompletionCreateParams.builder().model(TinyServer.MODEL).addUserMessage("Request " + i)
                            .seed(i).temperature(1.0).maxCompletionTokens(maxTokens);
                    JsonNode schema;
                    int kind = i % 5;
                    switch (kind) {
                        case 0 -> { b.responseFormat(OpenAiSdkTest.jsonSchema("person", TinyServer.PERSON_SCHEMA)); schema = person; }
                        case 1 -> { b.responseFormat(OpenAiSdkTest.jsonSchema("order", ORDER_SCHEMA)); schema = order; }
                        case 2 -> { b.responseFormat(OpenAiSdkTest.jsonSchema("flags", FLAGS_SCHEMA)); schema = flags; }
                        case 3 -> { b.addTool(OpenAiSdkTest.weatherTool()).toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED).parallelToolCalls(false); schema = weather; }
                        default -> { b.addTool(OpenAiSdkTest.weatherTool()).toolChoice(ChatCompletionNamedToolChoice.builder()
                                .function(ChatCompletionNamedToolChoice.Function.builder().name("get_weather").build()).build()); schema = weather; }
                    }
                    long r0 = System.nanoTime();
                    ChatCompletion c1 = client.chat().completions().create(b.build());
                    latencyMs[i] = (System.nanoTime() - r0) / 1e6;
                    var message = c1.choices().get(0).message();
                    List<String> outputs = kind >= 3
                            ? message.toolCalls().orElse(List.of()).stream().map(t -> t.asFunction().function().arguments()).toList()
                            : message.content().stream().toList();
                    boolean ok = !outputs.isEmpty();
                    for (String o : outputs) {
                        try {
                            ok &= TinyServer.validate(schema, TinyServer.parse(o)).isEmpty();
                        } catch (RuntimeException e) {
                            ok = false;
                        }
                    }
                    if (ok) valid.incrementAndGet();
                    else invalid.add(i + " " + c1.choices().get(0).finishReason() + " " + outputs);
                }
                return null;
            }));
        }
        for (Future<?> f : done) f.get();
        double wallS = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        client.close();
        double mask = HttpApiTest.metric("domino_mask_seconds_total") - maskBefore, forward = HttpApiTest.metric("domino_forward_seconds_total") - forwardBefore,
                sample = HttpApiTest.metric("domino_sample_seconds_total") - sampleBefore;
        double[] sorted = latencyMs.clone();
        Arrays.sort(sorted);
        System.out.printf("domino serve load: %d clients, %d requests of 5 kinds (3 schemas, required tool call, named tool) in %.1f s (%.1f requests/s); "
                        + "%d/%d valid under their schema (networknt); latency p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms; "
                        + "decode time: masks %.1f%%, sampling %.1f%%, forward passes %.1f%% (%.2f s in masks)%n",
                clients, requests, wallS, requests / wallS, valid.get(), requests, pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted[sorted.length - 1],
                100 * mask / (mask + forward + sample), 100 * sample / (mask + forward + sample), 100 * forward / (mask + forward + sample), mask);
        assertThat(invalid).isEmpty();
        assertThat(valid.get()).isEqualTo(requests);
    }

    static double pct(double[] sorted, double p) {
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /**
     * Compiles a request's constraint on the server: one token cannot hold the shortest output, so the answer is a 400
     * naming max_tokens, after the compile.
     */
    private static void warmUp(OpenAIClient client, ChatCompletionCreateParams params) {
        try {
            client.chat().completions().create(params);
        } catch (com.openai.errors.BadRequestException expected) {
            // the constraint is compiled and cached all the same
        }
    }
}
