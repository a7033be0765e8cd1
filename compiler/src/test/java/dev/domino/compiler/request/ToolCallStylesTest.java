package dev.domino.compiler.request;

import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.domino.compiler.tokens.Llama3Fixture.*;
import static dev.domino.compiler.tokens.ToolStyleVocabularies.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tool calls in each model family's own format ({@link ToolCallStyle}), on vocabularies cut from the
 * families' real tokenizers ({@code ToolStyleVocabularies}): free text or a call with tool_choice auto, parallel calls, at
 * most one call without parallel_tool_calls, required, a named function, none (the trigger banned),
 * response_format beside tools. Llama 3, Hermes and DeepSeek masks are checked against the byte-level oracle.
 */
class ToolCallStylesTest {
    static final String TOOLS = "\"tools\": ["
            + "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\", "
            + "\"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"], \"additionalProperties\": false}}},"
            + "{\"type\": \"function\", \"function\": {\"name\": \"get_time\", \"parameters\": {\"type\": \"object\", "
            + "\"properties\": {\"zone\": {\"type\": \"string\"}}, \"required\": [\"zone\"], \"additionalProperties\": false}}}]";
    static final String W = "{\"city\": \"Paris\"}", T = "{\"zone\": \"UTC\"}";

    /** One family: its style, vocabulary, stop tokens, and outputs written as its template writes them. */
    record Family(ToolCallStyle style, Vocabulary v, int[] stops, Object[] text, Object[] weather, Object[] weatherThenTime, Object[] time,
                  int trigger) {
        int[] tokens(Object[] parts) { return sequence(v, parts); }
    }

    static Object[] parts(Object... p) { return p; }

    static Object[] concat(Object[]... pieces) {
        List<Object> out = new ArrayList<>();
        for (Object[] p : pieces) out.addAll(Arrays.asList(p));
        return out.toArray();
    }

    static Family llama3() {
        String w = "{\"name\": \"get_weather\", \"parameters\": " + W + "}", t = "{\"name\": \"get_time\", \"parameters\": " + T + "}";
        return new Family(ToolCallStyle.LLAMA3_JSON, vocabulary(), new int[] {END_OF_TEXT, EOT_ID}, parts("It is sunny in Paris."),
                parts(PYTHON_TAG, w, EOM_ID), parts(PYTHON_TAG, w + "; " + t, EOM_ID), parts(PYTHON_TAG, t, EOT_ID), PYTHON_TAG);
    }

    static Family hermes() {
        String w = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + W + "}\n</tool_call>";
        String t = "<tool_call>\n{\"name\": \"get_time\", \"arguments\": " + T + "}\n</tool_call>";
        return new Family(ToolCallStyle.HERMES, qwenVocabulary(), new int[] {QWEN_IM_END, QWEN_ENDOFTEXT}, parts("It is sunny in Paris."),
                parts(w), parts(w + "\n" + t), parts(t), QWEN_TOOL_CALL);
    }

    static Family qwen3Coder() {
        String w = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>";
        String t = "<tool_call>\n<function=get_time>\n<parameter=zone>\nUTC\n</parameter>\n</function>\n</tool_call>";
        return new Family(ToolCallStyle.QWEN3_CODER, qwen3Vocabulary(), new int[] {QWEN_IM_END, QWEN_ENDOFTEXT}, parts("It is sunny in Paris."),
                parts(w), parts(w + "\n" + t), parts(t), QWEN_TOOL_CALL);
    }

    static Family mistral() {
        String w = "{\"name\": \"get_weather\", \"arguments\": " + W + "}", t = "{\"name\": \"get_time\", \"arguments\": " + T + "}";
        return new Family(ToolCallStyle.MISTRAL, mistralVocabulary(), new int[] {MISTRAL_EOS}, parts("It is sunny in Paris."),
                parts(MISTRAL_TOOL_CALLS, "[" + w + "]"), parts(MISTRAL_TOOL_CALLS, "[" + w + ", " + t + "]"),
                parts(MISTRAL_TOOL_CALLS, "[" + t + "]"), MISTRAL_TOOL_CALLS);
    }

    static Family qwen3Think() {
        // Qwen 3's chat template: <think>\nREASONING\n</think>\n\n before the answer and the calls (<think> is text in its tokenizer)
        String think = "<think>\nThe user wants the weather.\n</think>\n\n";
        String w = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + W + "}\n</tool_call>";
        String t = "<tool_call>\n{\"name\": \"get_time\", \"arguments\": " + T + "}\n</tool_call>";
        return new Family(ToolCallStyle.QWEN3_THINK, qwen3Vocabulary(), new int[] {QWEN_IM_END, QWEN_ENDOFTEXT}, parts(think + "It is sunny in Paris."),
                parts(think + w), parts(think + w + "\n" + t), parts(t), QWEN_TOOL_CALL);
    }

    static Family mistralNemo() {
        String w = "{\"name\": \"get_weather\", \"arguments\": " + W + "}", t = "{\"name\": \"get_time\", \"arguments\": " + T + "}";
        return new Family(ToolCallStyle.MISTRAL, mistralNemoVocabulary(), new int[] {NEMO_EOS}, parts("It is sunny in Paris."),
                parts(NEMO_TOOL_CALLS, "[" + w + "]"), parts(NEMO_TOOL_CALLS, "[" + w + ", " + t + "]"),
                parts(NEMO_TOOL_CALLS, "[" + t + "]"), NEMO_TOOL_CALLS);
    }

    static Family mistralV11() {
        // mistral-common's v13 chat template: [TOOL_CALLS]NAME[ARGS]ARGS for each call ([ARGS]'s id is synthetic, see the vocabulary)
        return new Family(ToolCallStyle.MISTRAL_V11, mistralV11SyntheticVocabulary(), new int[] {NEMO_EOS}, parts("It is sunny in Paris."),
                parts(NEMO_TOOL_CALLS, "get_weather", SYNTHETIC_ARGS, W), parts(NEMO_TOOL_CALLS, "get_weather", SYNTHETIC_ARGS, W,
                        NEMO_TOOL_CALLS, "get_time", SYNTHETIC_ARGS, T), parts(NEMO_TOOL_CALLS, "get_time", SYNTHETIC_ARGS, T), NEMO_TOOL_CALLS);
    }

    static Object[] dsCall(String name, String args) {
        return parts(DS_CALL_BEGIN, "function", DS_SEP, name + "\n```json\n" + args + "\n```", DS_CALL_END);
    }

    static Family deepseek() {
        return new Family(ToolCallStyle.DEEPSEEK_V3, deepseekVocabulary(), new int[] {DEEPSEEK_EOS}, parts("It is sunny in Paris."),
                concat(parts(DS_CALLS_BEGIN), dsCall("get_weather", W), parts(DS_CALLS_END)),
                concat(parts(DS_CALLS_BEGIN), dsCall("get_weather", W), parts("\n"), dsCall("get_time", T), parts(DS_CALLS_END)),
                concat(parts(DS_CALLS_BEGIN), dsCall("get_time", T), parts(DS_CALLS_END)), DS_CALLS_BEGIN);
    }

    static Family deepseekR1() {
        // R1's template: the model writes <think>\nREASONING\n</think>\n\n (or the prompt opened <think>), then V3's layout
        Family v3 = deepseek();
        Object[] think = parts("<think>\nThe user wants the weather.\n</think>\n\n");
        return new Family(ToolCallStyle.DEEPSEEK_R1, v3.v(), v3.stops(), concat(think, v3.text()), concat(think, v3.weather()),
                concat(think, v3.weatherThenTime()), v3.time(), v3.trigger());
    }

    static Object[] dsV31Call(String name, String args) { return parts(DS_CALL_BEGIN, name, DS_SEP, args, DS_CALL_END); }

    static Family deepseekV31() {
        // vLLM's tool_chat_template_deepseekv31.jinja: NAME<｜tool▁sep｜>ARGS, calls chained with nothing between them
        return new Family(ToolCallStyle.DEEPSEEK_V31, deepseekVocabulary(), new int[] {DEEPSEEK_EOS}, parts("It is sunny in Paris."),
                concat(parts(DS_CALLS_BEGIN), dsV31Call("get_weather", W), parts(DS_CALLS_END)),
                concat(parts(DS_CALLS_BEGIN), dsV31Call("get_weather", W), dsV31Call("get_time", T), parts(DS_CALLS_END)),
                concat(parts(DS_CALLS_BEGIN), dsV31Call("get_time", T), parts(DS_CALLS_END)), DS_CALLS_BEGIN);
    }

    static Object[] kimiCall(String name, int index, String args) {
        return parts(KIMI_CALL_BEGIN, "functions." + name + ":" + index, KIMI_ARGUMENT_BEGIN, args, KIMI_CALL_END);
    }

    static Family kimi() {
        return new Family(ToolCallStyle.KIMI_K2, kimiVocabulary(), new int[] {KIMI_IM_END}, parts("It is sunny in Paris."),
                concat(parts(KIMI_SECTION_BEGIN), kimiCall("get_weather", 0, W), parts(KIMI_SECTION_END)),
                concat(parts(KIMI_SECTION_BEGIN), kimiCall("get_weather", 0, W), kimiCall("get_time", 1, T), parts(KIMI_SECTION_END)),
                concat(parts(KIMI_SECTION_BEGIN), kimiCall("get_time", 0, T), parts(KIMI_SECTION_END)), KIMI_SECTION_BEGIN);
    }

    static Object[] harmonyCall(String name, String args) {
        return parts(H_CHANNEL, "commentary to=functions." + name + " ", H_CONSTRAIN, "json", H_MESSAGE, args, H_CALL);
    }

    static Family harmony() {
        // one call per message: "two calls" is a second message after <|call|>, which the format does not allow in one turn
        return new Family(ToolCallStyle.HARMONY, harmonyVocabulary(), new int[] {H_RETURN, H_CALL, H_ENDOFTEXT},
                parts(H_CHANNEL, "analysis", H_MESSAGE, "The user wants the weather.", H_END, H_START, "assistant",
                        H_CHANNEL, "final", H_MESSAGE, "It is sunny in Paris.", H_RETURN),
                concat(parts(H_CHANNEL, "analysis", H_MESSAGE, "Call the tool.", H_END, H_START, "assistant"), harmonyCall("get_weather", W)),
                null, harmonyCall("get_time", T), H_CHANNEL);
    }

    static List<Family> families() {
        return List.of(llama3(), hermes(), qwen3Think(), qwen3Coder(), mistral(), mistralNemo(), mistralV11(), deepseek(), deepseekR1(), deepseekV31(), kimi(), harmony());
    }

    /** Styles that share their family's vocabulary with another style: used when named, never detected. */
    static boolean namedOnly(ToolCallStyle s) {
        return s == ToolCallStyle.QWEN3_CODER || s == ToolCallStyle.QWEN3_THINK || s == ToolCallStyle.DEEPSEEK_V31 || s == ToolCallStyle.DEEPSEEK_R1;
    }

    static String request(Family f, String more) {
        return "{" + TOOLS + ", \"tool_call_style\": \"" + f.style().id() + "\"" + (more.isEmpty() ? "" : ", " + more) + "}";
    }

    private static final java.util.Map<String, Artifact> COMPILED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The request compiled for the family's vocabulary, once per class run (the tests share the artifacts, never a matcher). */
    static Artifact compile(Family f, String more) {
        String req = request(f, more);
        return COMPILED.computeIfAbsent(f.v().name() + "\n" + req, k -> Constraints.compile(req, f.v()));
    }

    /** Feeds the tokens; true when all are accepted. */
    static boolean accepts(Artifact a, int[] stops, int[] tokens) { return !rejected(a, stops, tokens); }

    static boolean endsHere(Artifact a, Family f, int[] tokens) {
        Matcher m = a.newMatcher(f.stops());
        for (int t : tokens) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    @Test void autoAllowsTextOrACall() {
        for (Family f : families()) {
            Artifact a = compile(f, "\"tool_choice\": \"auto\"");
            int[] text = f.tokens(f.text());
            assertThat(endsHere(a, f, text)).as("%s: text", f.style()).isTrue();
            assertThat(endsHere(a, f, f.tokens(f.weather()))).as("%s: a call", f.style()).isTrue();
            assertThat(endsHere(a, f, f.tokens(f.time()))).as("%s: the other function", f.style()).isTrue();
            if (f.style() != ToolCallStyle.HARMONY) { // harmony's text before a call is the analysis message, in weather()
                assertThat(endsHere(a, f, f.tokens(concat(parts("Let me check. "), f.weather())))).as("%s: text then a call", f.style()).isTrue();
            }
            if (f.style() != ToolCallStyle.HARMONY) {
                Matcher m = a.newMatcher(f.stops());
                for (int t : text) assertThat(m.acceptToken(t)).isTrue();
                assertThat(m.acceptToken(f.stops()[0])).isTrue();
                assertThat(m.isTerminated()).as("%s: text then EOS", f.style()).isTrue();
            }
        }
    }

    @Test void callArgumentsFollowTheirFunctionsSchema() {
        for (Family f : families()) {
            Artifact a = compile(f, "\"tool_choice\": \"auto\"");
            Object[] wrong = Arrays.stream(f.weather()).map(p -> p instanceof String s ? s.replace("\"city\"", "\"zone\"") : p).toArray();
            if (f.style() == ToolCallStyle.QWEN3_CODER) {
                wrong = Arrays.stream(f.weather()).map(p -> p instanceof String s ? s.replace("parameter=city", "parameter=zone") : p).toArray();
            }
            assertThat(rejected(a, f.stops(), f.tokens(wrong))).as("%s: get_weather with get_time's argument", f.style()).isTrue();
        }
    }

    @Test void parallelCallsAndAtMostOneWithoutParallel() {
        for (Family f : families()) {
            if (f.weatherThenTime() == null) continue;
            Artifact parallel = compile(f, "\"tool_choice\": \"required\"");
            assertThat(endsHere(parallel, f, f.tokens(f.weatherThenTime()))).as("%s: two calls", f.style()).isTrue();
            Artifact single = compile(f, "\"tool_choice\": \"required\", \"parallel_tool_calls\": false");
            assertThat(endsHere(single, f, f.tokens(f.weather()))).as("%s: one call", f.style()).isTrue();
            assertThat(rejected(single, f.stops(), f.tokens(f.weatherThenTime()))).as("%s: two calls without parallel", f.style()).isTrue();
        }
        Family h = harmony(); // one call per turn
        Artifact a = compile(h, "\"tool_choice\": \"required\"");
        assertThat(rejected(a, h.stops(), h.tokens(concat(h.weather(), harmonyCall("get_time", T))))).isTrue();
    }

    @Test void requiredAllowsCallsOnlyAndNamedThatFunctionOnly() {
        for (Family f : families()) {
            Artifact required = compile(f, "\"tool_choice\": \"required\"");
            assertThat(rejected(required, f.stops(), f.tokens(f.style() == ToolCallStyle.HARMONY ? parts(H_CHANNEL, "final") : f.text())))
                    .as("%s: text under required", f.style()).isTrue();
            assertThat(endsHere(required, f, f.tokens(f.weather()))).as("%s: a call under required", f.style()).isTrue();
            Artifact named = compile(f, "\"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"get_time\"}}");
            assertThat(endsHere(named, f, f.tokens(f.time()))).as("%s: the named function", f.style()).isTrue();
            assertThat(rejected(named, f.stops(), f.tokens(f.weather()))).as("%s: another function", f.style()).isTrue();
        }
    }

    @Test void noneBansTheTrigger() {
        for (Family f : families()) {
            Artifact a = compile(f, "\"tool_choice\": \"none\"");
            assertThat(endsHere(a, f, f.tokens(f.text()))).as("%s: text", f.style()).isTrue();
            assertThat(rejected(a, f.stops(), f.tokens(f.weather()))).as("%s: a call", f.style()).isTrue();
            if (f.style() == ToolCallStyle.HARMONY) continue; // its trigger, <|channel|>, opens the final answer too
            Matcher m = a.newMatcher(f.stops());
            assertThat(m.isAllowed(f.trigger())).as("%s: trigger at the start", f.style()).isFalse();
            for (int t : f.tokens(parts("Hello"))) m.acceptToken(t);
            assertThat(m.isAllowed(f.trigger())).as("%s: trigger after text", f.style()).isFalse();
        }
        // a text trigger is banned however it is spelled
        Family h = hermes();
        Artifact a = compile(h, "\"tool_choice\": \"none\"");
        assertThat(rejected(a, h.stops(), h.tokens(parts("ok <tool", "_call>")))).isTrue();
        assertThat(accepts(a, h.stops(), h.tokens(parts("ok <tool", "_cal")))).isTrue();
    }

    @Test void responseFormatWithToolsAnswersByTheSchemaOrCalls() {
        String rf = "\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"a\", \"schema\": {\"type\": \"object\", "
                + "\"properties\": {\"answer\": {\"type\": \"string\"}}, \"required\": [\"answer\"], \"additionalProperties\": false}}}";
        for (Family f : families()) {
            Artifact a = compile(f, "\"tool_choice\": \"auto\", " + rf);
            Object[] answer = f.style() == ToolCallStyle.HARMONY ? parts(H_CHANNEL, "final", H_MESSAGE, "{\"answer\": \"sunny\"}", H_RETURN)
                    : parts("{\"answer\": \"sunny\"}");
            assertThat(endsHere(a, f, f.tokens(answer))).as("%s: the schema's answer", f.style()).isTrue();
            assertThat(endsHere(a, f, f.tokens(f.weather()))).as("%s: a call", f.style()).isTrue();
            Object[] freeText = switch (f.style()) {
                case HARMONY -> parts(H_CHANNEL, "final", H_MESSAGE, "It is");
                case DEEPSEEK_R1 -> parts("It is</think>\n\nIt is"); // text before </think> is reasoning (the prompt may have opened <think>)
                default -> parts("It is");
            };
            assertThat(rejected(a, f.stops(), f.tokens(freeText))).as("%s: free text", f.style()).isTrue();
            Artifact none = compile(f, "\"tool_choice\": \"none\", " + rf);
            assertThat(endsHere(none, f, f.tokens(answer))).isTrue();
            assertThat(rejected(none, f.stops(), f.tokens(f.weather()))).isTrue();
        }
    }

    @Test void masksMatchTheByteLevelOracle() {
        for (Family f : List.of(llama3(), hermes(), deepseek())) {
            String req = request(f, "\"tool_choice\": \"auto\"");
            RequestSpec spec = RequestSpec.parse(req).resolve(f.v(), null);
            ByteEarleyOracle oracle = new ByteEarleyOracle(spec.grammar(ConstraintOptions.defaults().jsonSchema()).grammar(), f.v());
            Artifact a = Constraints.compile(req, f.v());
            acceptChecked(a, oracle, f.stops(), f.tokens(f.weather()));
            acceptChecked(a, oracle, f.stops(), f.tokens(f.weatherThenTime()));
            acceptChecked(a, oracle, f.stops(), f.tokens(concat(f.text(), parts(f.stops()[0]))));
            randomWalks(a, oracle, f.stops(), 4, 20, 38);
        }
        // the newer layouts and the token-framed families: one call each, every mask against the oracle
        for (Family f : List.of(qwen3Think(), qwen3Coder(), mistral(), mistralNemo(), mistralV11(), deepseekR1(), deepseekV31(), kimi(), harmony())) {
            String req = request(f, "\"tool_choice\": \"auto\"");
            RequestSpec spec = RequestSpec.parse(req).resolve(f.v(), null);
            ByteEarleyOracle oracle = new ByteEarleyOracle(spec.grammar(ConstraintOptions.defaults().jsonSchema()).grammar(), f.v());
            acceptChecked(Constraints.compile(req, f.v()), oracle, f.stops(), f.tokens(f.weather()));
        }
    }

    @Test void theStyleIsDetectedFromTheVocabularysSpecialTokens() {
        for (Family f : families()) {
            if (namedOnly(f.style())) continue;
            RequestSpec spec = RequestSpec.parse("{" + TOOLS + ", \"tool_choice\": \"required\"}");
            assertThat(spec.resolve(f.v(), null).toolCallStyle()).as(f.v().name()).isEqualTo(f.style());
            Artifact a = Constraints.compile(spec, f.v(), ConstraintOptions.defaults());
            assertThat(endsHere(a, f, f.tokens(f.weather()))).as("%s detected", f.style()).isTrue();
            // the server's style wins over detection, and the request's over both
            assertThat(spec.resolve(f.v(), ToolCallStyle.DOMINO_JSON).kind()).isEqualTo(RequestSpec.Kind.TOOL_CALLS);
        }
        Family h = hermes();
        RequestSpec named = RequestSpec.parse("{" + TOOLS + ", \"tool_choice\": \"required\", \"tool_call_style\": \"qwen3_coder\"}");
        assertThat(named.resolve(h.v(), ToolCallStyle.HERMES).toolCallStyle()).isEqualTo(ToolCallStyle.QWEN3_CODER);
        // the request's key holds the tools when the vocabulary may choose the style
        assertThat(RequestSpec.parse("{" + TOOLS + "}").key()).contains("get_weather");
    }

    @Test void specialTokenFramesAreTokensNeverTheirTextInPieces() {
        Family l = llama3();
        Artifact a = compile(l, "\"tool_choice\": \"required\"");
        assertThat(rejected(a, l.stops(), l.tokens(parts("<|python_tag|>{\"name\"")))).isTrue();
        Matcher m = a.newMatcher(l.stops());
        assertThat(m.isAllowed(PYTHON_TAG)).isTrue(); // or a bare JSON call: nothing else
        m.nextTokenMask().stream().filter(t -> t != PYTHON_TAG)
                .forEach(t -> assertThat(l.v().bytes(t)[0]).as(l.v().display(t)).isEqualTo((byte) '{'));
        // <tool_call>: text in Qwen's tokenizer (the added token and its spelling in pieces both write it) ...
        Family q = hermes();
        Artifact text = compile(q, "\"tool_choice\": \"required\"");
        assertThat(accepts(text, q.stops(), q.tokens(parts("<tool", "_call>\n{\"name\"")))).isTrue();
        // ... the token only where the vocabulary marks it special
        Vocabulary special = qwenSpecialToolCallVocabulary();
        Artifact token = Constraints.compile(request(q, "\"tool_choice\": \"required\""), special);
        assertThat(rejected(token, q.stops(), sequence(special, "<tool", "_call>"))).isTrue();
        assertThat(accepts(token, q.stops(), sequence(special, QWEN_TOOL_CALL, "\n{\"name\": \"get_weather\", \"arguments\": " + W + "}\n",
                QWEN_TOOL_CALL_END))).isTrue();
    }

    @Test void theFixturesHoldEachFamilysRealTokens() {
        record Id(Vocabulary v, int id, String text, boolean special) {}
        for (Id t : List.of(new Id(qwenVocabulary(), QWEN_TOOL_CALL, "<tool_call>", false), new Id(qwenVocabulary(), QWEN_IM_END, "<|im_end|>", true),
                new Id(qwen3Vocabulary(), QWEN3_THINK, "<think>", false), new Id(qwen3Vocabulary(), QWEN_TOOL_CALL_END, "</tool_call>", false),
                new Id(mistralVocabulary(), MISTRAL_TOOL_CALLS, "[TOOL_CALLS]", true), new Id(mistralVocabulary(), MISTRAL_EOS, "</s>", true),
                new Id(mistralNemoVocabulary(), NEMO_TOOL_CALLS, "[TOOL_CALLS]", true),
                new Id(deepseekVocabulary(), DS_CALLS_BEGIN, "<｜tool▁calls▁begin｜>", false), new Id(deepseekVocabulary(), DS_SEP, "<｜tool▁sep｜>", false),
                new Id(deepseekVocabulary(), DEEPSEEK_EOS, "<｜end▁of▁sentence｜>", true),
                new Id(kimiVocabulary(), KIMI_SECTION_BEGIN, "<|tool_calls_section_begin|>", false), new Id(kimiVocabulary(), KIMI_IM_END, "<|im_end|>", true),
                new Id(harmonyVocabulary(), H_CHANNEL, "<|channel|>", true), new Id(harmonyVocabulary(), H_CALL, "<|call|>", true))) {
            assertThat(new String(t.v().bytes(t.id()), java.nio.charset.StandardCharsets.UTF_8)).as(t.v().name() + " " + t.id()).isEqualTo(t.text());
            assertThat(t.v().isSpecial(t.id())).as(t.v().name() + " " + t.text()).isEqualTo(t.special());
        }
    }

    @Test void toolTokensThatAreNotSpecialAreTextTheFreeTextExcludes() {
        // DeepSeek V3's and Kimi's tool tokens are added tokens, not special, in their real tokenizers: the frame
        // is their text (the added token or its spelling in pieces), and free text never holds the trigger
        for (Family f : List.of(deepseek(), kimi())) {
            String trigger = new String(f.v().bytes(f.trigger()), java.nio.charset.StandardCharsets.UTF_8);
            Artifact none = compile(f, "\"tool_choice\": \"none\"");
            assertThat(rejected(none, f.stops(), f.tokens(parts("ok " + trigger)))).as("%s: the trigger spelled in pieces", f.style()).isTrue();
            assertThat(rejected(none, f.stops(), f.tokens(parts("ok ", f.trigger())))).as("%s: the trigger token", f.style()).isTrue();
            Artifact auto = compile(f, "\"tool_choice\": \"auto\"");
            Object[] spelled = Arrays.stream(f.weather()).map(p -> p instanceof Integer id ? new String(f.v().bytes(id), java.nio.charset.StandardCharsets.UTF_8) : p)
                    .toArray();
            assertThat(endsHere(auto, f, f.tokens(spelled))).as("%s: a call spelled in pieces", f.style()).isTrue();
        }
        // where a vocabulary marks them special, they are tokens only
        Family d = deepseek();
        Vocabulary special = deepseekSpecialToolVocabulary();
        Artifact required = Constraints.compile(request(d, "\"tool_choice\": \"required\""), special);
        assertThat(endsHere(required, new Family(d.style(), special, d.stops(), d.text(), d.weather(), null, d.time(), d.trigger()),
                sequence(special, d.weather()))).isTrue();
        assertThat(rejected(required, d.stops(), sequence(special, "<｜tool▁calls▁begin｜>"))).isTrue();
        Artifact none = Constraints.compile(request(d, "\"tool_choice\": \"none\""), special);
        assertThat(none.newMatcher(d.stops()).isAllowed(DS_CALLS_BEGIN)).isFalse();
    }

    @Test void qwen3sThinkBlockIsOptionalBeforeCallsAndText() {
        Family f = qwen3Think();
        Artifact required = compile(f, "\"tool_choice\": \"required\"");
        assertThat(endsHere(required, f, f.tokens(f.weather()))).isTrue();
        assertThat(endsHere(required, f, f.tokens(f.time()))).as("no think block").isTrue();
        assertThat(rejected(required, f.stops(), f.tokens(parts("<think>\nok</think>\n\n</think>")))).as("one think block").isTrue();
        assertThat(rejected(required, f.stops(), f.tokens(parts("<think>\nok\n</think>\n\n\nx")))).as("calls right after it").isTrue();
        // the hermes style, on the same vocabulary, has no think block before required calls
        Family h = new Family(ToolCallStyle.HERMES, f.v(), f.stops(), f.text(), f.weather(), null, f.time(), f.trigger());
        assertThat(rejected(compile(h, "\"tool_choice\": \"required\""), h.stops(), h.tokens(f.weather()))).isTrue();
    }

    @Test void deepseekR1sReasoningMayBeOpenedByThePrompt() {
        Family f = deepseekR1();
        Artifact required = compile(f, "\"tool_choice\": \"required\"");
        Object[] call = deepseek().weather();
        assertThat(endsHere(required, f, f.tokens(concat(parts("Short.\n</think>\n\n"), call)))).as("the prompt opened <think>").isTrue();
        assertThat(endsHere(required, f, f.tokens(call))).as("no reasoning").isTrue();
        assertThat(rejected(required, f.stops(), f.tokens(parts("a</think>b</think>")))).isTrue();
        // the trigger is not reasoning text
        assertThat(rejected(required, f.stops(), f.tokens(parts("<think>\nmaybe <｜tool▁calls▁begin｜>")))).isTrue();
        // deepseek_v3 has no reasoning block before required calls
        Family v3 = deepseek();
        assertThat(rejected(compile(v3, "\"tool_choice\": \"required\""), v3.stops(), v3.tokens(f.weather()))).isTrue();
    }

    @Test void harmonyCallsWithTheRecipientInTheRoleHeaderOrAfterAPreamble() {
        Family h = harmony();
        Object[] roleHeader = parts(" to=functions.get_weather", H_CHANNEL, "commentary ", H_CONSTRAIN, "json", H_MESSAGE, W, H_CALL);
        Object[] preamble = parts(H_CHANNEL, "commentary", H_MESSAGE, "Checking the weather.", H_END, H_START, "assistant");
        for (String choice : new String[] {"\"auto\"", "\"required\""}) {
            Artifact a = compile(h, "\"tool_choice\": " + choice);
            assertThat(endsHere(a, h, h.tokens(roleHeader))).as(choice).isTrue();
            assertThat(endsHere(a, h, h.tokens(concat(h.weather(), new Object[0])))).as(choice).isTrue();
            assertThat(endsHere(a, h, h.tokens(concat(preamble, harmonyCall("get_weather", W))))).as(choice).isTrue();
            assertThat(endsHere(a, h, h.tokens(concat(parts(H_CHANNEL, "analysis", H_MESSAGE, "Plan.", H_END, H_START, "assistant"), preamble,
                    roleHeader)))).as(choice).isTrue();
            assertThat(rejected(a, h.stops(), h.tokens(parts(" to=functions.get_weather", H_CHANNEL, "commentary ", H_CONSTRAIN, "json", H_MESSAGE,
                    "{\"zone\"")))).as(choice).isTrue();
        }
        Artifact none = compile(h, "\"tool_choice\": \"none\"");
        assertThat(rejected(none, h.stops(), h.tokens(roleHeader))).isTrue();
        assertThat(rejected(none, h.stops(), h.tokens(preamble))).as("a preamble announces calls").isTrue();
    }

    @Test void llamaCallsAtTheStartMayLeaveOutThePythonTag() {
        Family l = llama3();
        Object[] bare = parts("{\"name\": \"get_weather\", \"parameters\": " + W + "}", EOT_ID);
        for (String choice : new String[] {"\"required\"", "\"auto\""}) {
            Artifact a = compile(l, "\"tool_choice\": " + choice);
            assertThat(endsHere(a, l, l.tokens(bare))).as(choice).isTrue();
            assertThat(rejected(a, l.stops(), l.tokens(parts("{\"name\": \"get_weather\", \"parameters\": {\"zone\"")))).as(choice).isTrue();
        }
        // with auto, an output that starts with '{' is a call (as vLLM's llama3_json reads it); with none it is text
        assertThat(rejected(compile(l, "\"tool_choice\": \"auto\""), l.stops(), l.tokens(parts("{hello")))).isTrue();
        assertThat(endsHere(compile(l, "\"tool_choice\": \"none\""), l, l.tokens(parts("{hello")))).isTrue();
    }

    @Test void domino_styleKeepsTheJsonArray() {
        Family f = llama3();
        Artifact a = Constraints.compile("{" + TOOLS + ", \"tool_choice\": \"required\", \"tool_call_style\": \"domino\"}", f.v());
        assertThat(endsHere(a, f, f.tokens(parts("[{\"name\": \"get_weather\", \"parameters\": " + W + "}]")))).isTrue();
        assertThat(rejected(a, f.stops(), f.tokens(f.weather()))).isTrue();
    }

    @Test void badStylesAreRefusedByName() {
        assertThatThrownBy(() -> RequestSpec.parse("{" + TOOLS + ", \"tool_call_style\": \"llama9\"}"))
                .isInstanceOf(RequestSpecException.class).hasMessageContaining("/tool_call_style").hasMessageContaining("llama3_json");
        assertThatThrownBy(() -> RequestSpec.parse("{\"regex\": \"a\", \"tool_call_style\": \"hermes\"}"))
                .hasMessageContaining("/tool_call_style").hasMessageContaining("needs tools");
        assertThatThrownBy(() -> Constraints.compile("{" + TOOLS + ", \"tool_call_style\": \"mistral\"}", vocabulary()))
                .isInstanceOf(RequestSpecException.class).hasMessageContaining("[TOOL_CALLS]").hasMessageContaining("mistral");
        // Nemo's real tokenizer predates [ARGS]: the v11 layout is refused by name there
        assertThatThrownBy(() -> Constraints.compile("{" + TOOLS + ", \"tool_call_style\": \"mistral_v11\"}", mistralNemoVocabulary()))
                .isInstanceOf(RequestSpecException.class).hasMessageContaining("[ARGS]");
        assertThatThrownBy(() -> RequestSpec.parse("{" + TOOLS + ", \"tool_call_style\": \"hermes\", \"regex\": \"a\"}"))
                .hasMessageContaining("more than one");
        assertThatThrownBy(() -> RequestSpec.parse("{" + TOOLS + ", \"tool_call_style\": \"hermes\", "
                + "\"response_format\": {\"type\": \"structural_tag\", \"format\": {\"type\": \"const_string\", \"value\": \"x\"}}}"))
                .hasMessageContaining("/response_format");
    }
}
