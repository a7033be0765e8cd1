package dev.domino.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.request.ToolCallStyle;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code tool_call_style} on the server: the output is constrained to the model family's layout and read back into
 * OpenAI {@code tool_calls} ({@link StyledToolCalls}); what the server cannot serve is refused by name.
 */
class ToolCallStyleServerTest {
    static final String W = "{\"city\": \"Paris\"}", T = "{\"zone\": \"UTC\"}";

    static void assertCalls(StyledToolCalls.Parsed p, String content, String... nameThenArgs) throws Exception {
        assertThat(p).isNotNull();
        assertThat(p.content()).isEqualTo(content);
        assertThat(p.calls()).hasSize(nameThenArgs.length / 2);
        for (int i = 0; i < p.calls().size(); i++) {
            assertThat(p.calls().get(i).name()).isEqualTo(nameThenArgs[2 * i]);
            assertThat(TinyServer.parse(p.calls().get(i).arguments())).isEqualTo(TinyServer.parse(nameThenArgs[2 * i + 1]));
            assertThat(p.calls().get(i).id()).startsWith("call_");
        }
    }

    static final JsonNode TOOLS = TinyServer.parse("[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": "
            + "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}, \"days\": {\"type\": \"integer\"}}}}}]");

    static StyledToolCalls.Parsed parse(ToolCallStyle style, String output) { return StyledToolCalls.parse(style, output, TOOLS); }

    @Test
    void eachStylesOutputIsReadBackIntoToolCalls() throws Exception {
        assertCalls(parse(ToolCallStyle.QWEN3_CODER, "ok\n<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n</parameter>\n"
                + "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"), "ok", "get_weather", "{\"city\": \"New York\", \"days\": 3}");
        assertCalls(parse(ToolCallStyle.LLAMA3_JSON, "Let me see.<|python_tag|>{\"name\": \"get_weather\", \"parameters\": " + W
                + "}; {\"name\": \"get_time\", \"parameters\": " + T + "}<|eom_id|>"), "Let me see.", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.LLAMA3_JSON, "{\"name\": \"get_weather\", \"parameters\": " + W + "}"), "", "get_weather", W);
        assertCalls(parse(ToolCallStyle.HERMES, "Sure.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + W
                + "}\n</tool_call>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": " + T + "}\n</tool_call>"), "Sure.", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.QWEN3_THINK, "<think>\nhm\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                + W + "}\n</tool_call>"), "<think>\nhm\n</think>\n", "get_weather", W);
        assertCalls(parse(ToolCallStyle.MISTRAL, "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": " + W
                + "}, {\"name\": \"get_time\", \"arguments\": " + T + "}]"), "", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.MISTRAL_V11, "ok[TOOL_CALLS]get_weather[ARGS]" + W + "[TOOL_CALLS]get_time[ARGS]" + T),
                "ok", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.DEEPSEEK_V3, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
                + W + "\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n" + T
                + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"), "", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.DEEPSEEK_R1, "<think>\nhm\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
                + "<｜tool▁sep｜>get_weather\n```json\n" + W + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"), "<think>\nhm\n</think>\n\n", "get_weather", W);
        assertCalls(parse(ToolCallStyle.DEEPSEEK_V31, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>" + W
                + "<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>" + T + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
                "", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.KIMI_K2, "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
                + "<|tool_call_argument_begin|>" + W + "<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>"
                + T + "<|tool_call_end|><|tool_calls_section_end|>"), "", "get_weather", W, "get_time", T);
        assertCalls(parse(ToolCallStyle.HARMONY, "<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>commentary"
                + "<|message|>Checking.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>" + W
                + "<|call|>"), "Checking.", "get_weather", W);
        assertCalls(parse(ToolCallStyle.HARMONY, " to=functions.get_time<|channel|>commentary <|constrain|>json<|message|>" + T),
                "", "get_time", T);
        // text only, and outputs cut short
        assertCalls(parse(ToolCallStyle.HARMONY, "<|channel|>final<|message|>It is sunny.<|return|>"), "It is sunny.");
        assertCalls(parse(ToolCallStyle.HARMONY, "<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>"
                + "{\"city\": \" to=functions.x\"}"), "", "get_weather", "{\"city\": \" to=functions.x\"}");
        assertCalls(parse(ToolCallStyle.HERMES, "It is sunny."), "It is sunny.");
        assertThat(parse(ToolCallStyle.HERMES, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"ci")).isNull();
        assertThat(parse(ToolCallStyle.MISTRAL, "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": " + W + "}")).isNull();
    }

    @Test
    void theTinyModelAnswersWithHermesToolCalls() throws Exception {
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":" + TinyServer.WEATHER_PARAMETERS + "}}]";
        for (String choice : List.of("\"required\"", "{\"type\":\"function\",\"function\":{\"name\":\"get_weather\"}}")) {
            HttpResponse<String> r = HttpApiTest.post(TinyServer.baseUrl(), "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\","
                    + "\"content\":\"Weather?\"}]," + tools + ",\"tool_choice\":" + choice + ",\"tool_call_style\":\"hermes\",\"parallel_tool_calls\":false,"
                    + "\"max_tokens\":400,\"seed\":3,\"n\":3}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            for (JsonNode c : TinyServer.parse(r.body()).get("choices")) {
                assertThat(c.get("finish_reason").asText()).as(r.body()).isEqualTo("tool_calls");
                JsonNode call = c.at("/message/tool_calls/0/function");
                assertThat(call.get("name").asText()).isEqualTo("get_weather");
                assertThat(TinyServer.validate(TinyServer.parse(TinyServer.WEATHER_PARAMETERS), TinyServer.parse(call.get("arguments").asText()))).isEmpty();
            }
        }
    }

    @Test
    void aStreamSendsTheStylesCallsWhenTheOutputEnds() throws Exception {
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":" + TinyServer.WEATHER_PARAMETERS + "}}]";
        HttpResponse<String> r = HttpApiTest.post(TinyServer.baseUrl(), "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Weather?\"}]," + tools + ",\"tool_choice\":\"required\",\"tool_call_style\":\"hermes\",\"stream\":true,"
                + "\"max_tokens\":400,\"seed\":4}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        StringBuilder arguments = new StringBuilder();
        String name = null, finish = null;
        for (String event : r.body().split("\n\n")) {
            if (!event.startsWith("data: ") || event.equals("data: [DONE]")) continue;
            JsonNode c = TinyServer.parse(event.substring("data: ".length())).path("choices").path(0);
            JsonNode call = c.at("/delta/tool_calls/0/function");
            if (call.has("name")) name = call.get("name").asText();
            if (call.has("arguments")) arguments.append(call.get("arguments").asText());
            if (c.hasNonNull("finish_reason")) finish = c.get("finish_reason").asText();
        }
        assertThat(name).as(r.body()).isEqualTo("get_weather");
        assertThat(finish).isEqualTo("tool_calls");
        assertThat(TinyServer.validate(TinyServer.parse(TinyServer.WEATHER_PARAMETERS), TinyServer.parse(arguments.toString()))).isEmpty();
    }

    @Test
    void whatTheServerCannotServeIsRefusedByName() throws Exception {
        String base = TinyServer.baseUrl();
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}}]";
        String messages = "\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]";
        for (String extra : List.of(tools + ",\"tool_call_style\":\"llama9\"", "\"tool_call_style\":\"hermes\"", tools + ",\"tool_call_style\":\"mistral\"")) {
            HttpResponse<String> r = HttpApiTest.post(base, "/chat/completions", "{" + messages + "," + extra + "}");
            assertThat(r.statusCode()).as(extra + ": " + r.body()).isEqualTo(400);
            assertThat(r.body()).as(extra).contains("tool_call_style");
        }
    }
}
