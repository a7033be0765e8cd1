package dev.domino.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK against {@code domino serve} on localhost, with the tiny model. */
class OpenAiSdkTest {
    static OpenAIClient client;

    @BeforeAll
    static void connect() {
        client = OpenAIOkHttpClient.builder().baseUrl(TinyServer.baseUrl()).apiKey("unused").maxRetries(0).timeout(TinyServer.REQUEST_TIMEOUT).build();
    }

    @AfterAll
    static void close() {
        if (client != null) client.close();
    }

    static ResponseFormatJsonSchema jsonSchema(String name, String schema) {
        return ResponseFormatJsonSchema.builder().jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name(name)
                .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder().additionalProperties(properties(schema)).build())
                .strict(true).build()).build();
    }

    static Map<String, JsonValue> properties(String schemaJson) {
        Map<String, JsonValue> m = new HashMap<>();
        TinyServer.parse(schemaJson).fields().forEachRemaining(e -> m.put(e.getKey(), JsonValue.fromJsonNode(e.getValue())));
        return m;
    }

    static ChatCompletionFunctionTool weatherTool() {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("get_weather").description("Weather in a city")
                .parameters(FunctionParameters.builder().additionalProperties(properties(TinyServer.WEATHER_PARAMETERS)).build()).build()).build();
    }

    @Test
    void structuredOutputsAreValidUnderTheirSchema() {
        JsonNode schema = TinyServer.parse(TinyServer.PERSON_SCHEMA);
        for (long seed = 0; seed < 5; seed++) {
            ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(TinyServer.MODEL)
                    .addSystemMessage("Answer in JSON.").addUserMessage("Who lives in Paris?")
                    .responseFormat(jsonSchema("person", TinyServer.PERSON_SCHEMA)).seed(seed).temperature(1.0).maxCompletionTokens(200).build());
            var choice = c.choices().get(0);
            assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
            String content = choice.message().content().orElseThrow();
            assertThat(TinyServer.validate(schema, TinyServer.parse(content))).as(content).isEmpty();
            assertThat(c.usage().orElseThrow().completionTokens()).isPositive();
            assertThat(c.usage().orElseThrow().promptTokens()).isPositive();
        }
    }

    /** The SDK's own structured outputs: a schema derived from a class, the answer read back into an instance. */
    public static class City {
        public String name;
        public int population;
        public boolean capital;
    }

    @Test
    void sdkStructuredOutputsIntoAClass() {
        var params = ChatCompletionCreateParams.builder().model(TinyServer.MODEL).addUserMessage("Describe a city.")
                .responseFormat(City.class).seed(3).maxCompletionTokens(300).build();
        var c = client.chat().completions().create(params);
        City city = c.choices().get(0).message().content().orElseThrow();
        assertThat(city).isNotNull();
        assertThat(city.name).isNotNull();
    }

    @Test
    void requiredToolCallsAreValidCalls() {
        JsonNode parameters = TinyServer.parse(TinyServer.WEATHER_PARAMETERS);
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(TinyServer.MODEL)
                .addUserMessage("Weather in Paris?").addTool(weatherTool())
                .toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED).parallelToolCalls(false).seed(1).maxCompletionTokens(200).build());
        var choice = c.choices().get(0);
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        List<ChatCompletionMessageToolCall> calls = choice.message().toolCalls().orElseThrow();
        assertThat(calls).hasSize(1);
        var fn = calls.get(0).asFunction().function();
        assertThat(fn.name()).isEqualTo("get_weather");
        assertThat(TinyServer.validate(parameters, TinyServer.parse(fn.arguments()))).as(fn.arguments()).isEmpty();
        assertThat(calls.get(0).asFunction().id()).startsWith("call_");
    }

    @Test
    void streamedContentAndToolCallsAssembleToValidOutputs() {
        JsonNode schema = TinyServer.parse(TinyServer.PERSON_SCHEMA);
        StringBuilder content = new StringBuilder();
        String finish = null;
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model(TinyServer.MODEL).addUserMessage("A person?").responseFormat(jsonSchema("person", TinyServer.PERSON_SCHEMA))
                .seed(4).maxCompletionTokens(200).build())) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) s.stream()::iterator) {
                for (var ch : chunk.choices()) {
                    ch.delta().content().ifPresent(content::append);
                    if (ch.finishReason().isPresent()) finish = ch.finishReason().get().asString();
                }
            }
        }
        assertThat(finish).isEqualTo("stop");
        assertThat(TinyServer.validate(schema, TinyServer.parse(content.toString()))).as(content.toString()).isEmpty();

        // tool calls as OpenAI streams them: a chunk with index, id and name, then argument fragments
        JsonNode parameters = TinyServer.parse(TinyServer.WEATHER_PARAMETERS);
        Map<Long, StringBuilder> arguments = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model(TinyServer.MODEL).addUserMessage("Weather?").addTool(weatherTool())
                .toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED).seed(2).maxCompletionTokens(300).build())) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) s.stream()::iterator) {
                for (var ch : chunk.choices()) {
                    for (var call : ch.delta().toolCalls().orElse(List.of())) {
                        call.function().flatMap(f -> f.name()).ifPresent(n -> names.put(call.index(), n));
                        call.function().flatMap(f -> f.arguments()).ifPresent(a -> arguments.computeIfAbsent(call.index(), k -> new StringBuilder()).append(a));
                    }
                    if (ch.finishReason().isPresent()) finish = ch.finishReason().get().asString();
                }
            }
        }
        assertThat(finish).isEqualTo("tool_calls");
        assertThat(names).isNotEmpty();
        assertThat(names.values()).containsOnly("get_weather");
        for (StringBuilder a : arguments.values()) assertThat(TinyServer.validate(parameters, TinyServer.parse(a.toString()))).as(a.toString()).isEmpty();
    }

    @Test
    void errorsAreOpenAiErrors() {
        // a schema the compiler refuses: 400 with param response_format
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder().model(TinyServer.MODEL)
                .addUserMessage("x").responseFormat(jsonSchema("bad", "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"no-such-type\"}}}"))
                .build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.param()).contains("response_format");
                });
        // a field the server does not implement is refused by name, not ignored
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder().model(TinyServer.MODEL)
                .addUserMessage("x").frequencyPenalty(0.5).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).contains("frequency_penalty"));
        // another model's name
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-4o")
                .addUserMessage("x").build())).isInstanceOf(NotFoundException.class);
        assertThat(client.models().list().data()).extracting(m -> m.id()).containsExactly(TinyServer.MODEL);
    }
}
