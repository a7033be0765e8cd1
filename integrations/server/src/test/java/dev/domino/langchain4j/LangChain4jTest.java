package dev.domino.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.server.TinyServer;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j on the tiny model: Domino's own {@code ChatModel} / {@code StreamingChatModel} in process, and
 * LangChain4j's {@code OpenAiChatModel} against {@code domino serve} on localhost.
 */
class LangChain4jTest {
    enum City { PARIS, LONDON }

    /**
     * No int field: a JSON-Schema integer has no bound, and the random model writes 20-digit numbers that are valid
     * under the schema but overflow a Java int when LangChain4j maps the JSON to the record.
     */
    record Person(String name, boolean employed, City city) {}

    interface Extractor {
        Person extract(String text);
    }

    static final JsonObjectSchema WEATHER = JsonObjectSchema.builder()
            .addProperty("city", JsonStringSchema.builder().build())
            .addProperty("unit", JsonEnumSchema.builder().enumValues("celsius", "fahrenheit").build())
            .required("city", "unit").additionalProperties(false).build();

    static final JsonObjectSchema PERSON = JsonObjectSchema.builder()
            .addProperty("name", JsonStringSchema.builder().build())
            .addProperty("age", JsonIntegerSchema.builder().build())
            .required("name", "age").additionalProperties(false).build();

    static JsonNode schemaOf(JsonObjectSchema s) { return TinyServer.JSON.valueToTree(JsonSchemaElementUtils.toMap(s)); }

    @Test
    void aiServiceWithAPojoReturnTypeOnDominoChatModel() {
        for (long seed = 0; seed < 3; seed++) {
            ChatModel model = DominoChatModel.builder(TinyServer.engine()).seed(seed).build();
            assertThat(model.supportedCapabilities()).contains(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
            Extractor extractor = AiServices.create(Extractor.class, model);
            Person p = extractor.extract("Alice is 42 and works in Paris.");
            assertThat(p).isNotNull();
            assertThat(p.name()).isNotNull();
        }
    }

    @Test
    void requiredToolChoiceGivesToolExecutionRequests() {
        ChatModel model = DominoChatModel.builder(TinyServer.engine()).seed(1L).parallelToolCalls(false).build();
        ChatResponse r = model.chat(ChatRequest.builder().messages(UserMessage.from("Weather in Paris?"))
                .parameters(ChatRequestParameters.builder().toolSpecifications(ToolSpecification.builder().name("get_weather")
                        .description("weather in a city").parameters(WEATHER).build()).toolChoice(ToolChoice.REQUIRED).maxOutputTokens(800).build())
                .build());
        assertThat(r.finishReason()).isEqualTo(FinishReason.TOOL_EXECUTION);
        List<ToolExecutionRequest> calls = r.aiMessage().toolExecutionRequests();
        assertThat(calls).isNotEmpty();
        for (ToolExecutionRequest c : calls) {
            assertThat(c.name()).isEqualTo("get_weather");
            assertThat(TinyServer.validate(schemaOf(WEATHER), TinyServer.parse(c.arguments()))).as(c.arguments()).isEmpty();
        }
    }

    @Test
    void streamingChatModelStreamsSchemaValidJson() throws Exception {
        var model = DominoStreamingChatModel.builder(TinyServer.engine()).seed(2L).build();
        StringBuilder partial = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        model.chat(ChatRequest.builder().messages(UserMessage.from("A person?")).parameters(ChatRequestParameters.builder()
                .responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder().name("person")
                        .rootElement(PERSON).build()).build()).maxOutputTokens(800).build()).build(), new StreamingChatResponseHandler() {
            @Override public void onPartialResponse(String s) { partial.append(s); }
            @Override public void onCompleteResponse(ChatResponse r) { done.complete(r); }
            @Override public void onError(Throwable t) { done.completeExceptionally(t); }
        });
        ChatResponse r = done.get(TinyServer.REQUEST_TIMEOUT.toMinutes(), TimeUnit.MINUTES);
        assertThat(partial.toString()).isEqualTo(r.aiMessage().text());
        assertThat(TinyServer.validate(schemaOf(PERSON), TinyServer.parse(r.aiMessage().text()))).isEmpty();
        assertThat(r.tokenUsage().outputTokenCount()).isPositive();
    }

    static OpenAiChatModel openAi() {
        return OpenAiChatModel.builder().baseUrl(TinyServer.baseUrl()).apiKey("unused").modelName(TinyServer.MODEL)
                .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA).strictJsonSchema(true).strictTools(true).maxRetries(0).timeout(TinyServer.REQUEST_TIMEOUT).maxTokens(800).seed(1).parallelToolCalls(false).build();
    }

    @Test
    void openAiChatModelAgainstDominoServe() {
        OpenAiChatModel model = openAi();
        // structured output
        ChatResponse r = model.chat(ChatRequest.builder().messages(UserMessage.from("A person?")).parameters(ChatRequestParameters.builder()
                .responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder().name("person")
                        .rootElement(PERSON).build()).build()).build()).build());
        assertThat(TinyServer.validate(schemaOf(PERSON), TinyServer.parse(r.aiMessage().text()))).as(r.aiMessage().text()).isEmpty();
        // required tool call
        r = model.chat(ChatRequest.builder().messages(UserMessage.from("Weather?")).parameters(ChatRequestParameters.builder()
                .toolSpecifications(ToolSpecification.builder().name("get_weather").parameters(WEATHER).build())
                .toolChoice(ToolChoice.REQUIRED).build()).build());
        assertThat(r.aiMessage().toolExecutionRequests()).as(r.finishReason() + " " + r.aiMessage().text()).isNotEmpty();
        for (ToolExecutionRequest c : r.aiMessage().toolExecutionRequests()) {
            assertThat(TinyServer.validate(schemaOf(WEATHER), TinyServer.parse(c.arguments()))).as(c.arguments()).isEmpty();
        }
        // an AI Service with a POJO return type, through the OpenAI wire format
        Person p = AiServices.create(Extractor.class, model).extract("Bob is 25.");
        assertThat(p).isNotNull();
    }
}
