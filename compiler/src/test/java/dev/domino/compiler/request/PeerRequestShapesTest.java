package dev.domino.compiler.request;

import dev.domino.compiler.tokens.Llama3Fixture;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.request.RequestStrictnessTest.refused;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests as OpenAI, vLLM and llama.cpp users write them, tried as a new user would: shapes the
 * peers accept are honoured as they read them, and a field Domino would otherwise read past is
 * refused by name.
 */
class PeerRequestShapesTest {
    private static final String TOOLS = "\"tools\": ["
            + "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\", "
            + "\"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"], \"additionalProperties\": false}}},"
            + "{\"type\": \"function\", \"function\": {\"name\": \"get_time\", \"parameters\": {\"type\": \"object\", "
            + "\"properties\": {\"tz\": {\"type\": \"string\"}}, \"required\": [\"tz\"], \"additionalProperties\": false}}}]";
    private static final String ANSWER = "\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"a\", "
            + "\"schema\": {\"type\": \"object\", \"properties\": {\"answer\": {\"type\": \"string\"}}, \"required\": [\"answer\"]}}}";

    private static boolean accepts(Artifact a, Object... parts) {
        Vocabulary v = a.vocabulary();
        Matcher m = a.newMatcher();
        for (int t : Llama3Fixture.sequence(v, parts)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    /**
     * vLLM: with tool_choice required or a named function, the tools' schema replaces the
     * response_format's; the output is calls. Before, this was refused as two constraints unless a
     * model style was named, although the same request with a named style compiled.
     */
    @Test void requiredOrNamedToolsBesideAResponseFormatMeanCalls() {
        Vocabulary llama = Llama3Fixture.vocabulary(); // detects llama3_json
        Artifact detected = Constraints.compile("{" + TOOLS + ", \"tool_choice\": \"required\", " + ANSWER + "}", llama);
        assertThat(accepts(detected, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}", Llama3Fixture.EOM_ID)).isTrue();
        assertThat(accepts(detected, "{\"answer\": \"x\"}")).isFalse();
        String domino = "{" + TOOLS + ", \"tool_call_style\": \"domino\", " + ANSWER;
        Artifact required = Constraints.compile(domino + ", \"tool_choice\": \"required\"}", llama);
        assertThat(accepts(required, "[{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}]")).isTrue();
        assertThat(accepts(required, "{\"answer\": \"x\"}")).isFalse();
        Artifact named = Constraints.compile(domino + ", \"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"get_time\"}}}", llama);
        assertThat(accepts(named, "{\"tz\": \"UTC\"}")).isTrue();
        assertThat(accepts(named, "{\"answer\": \"x\"}")).isFalse();
        Artifact jsonObject = Constraints.compile(domino.replace(ANSWER, "\"response_format\": {\"type\": \"json_object\"}") + ", \"tool_choice\": \"required\"}", llama);
        assertThat(accepts(jsonObject, "[{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}]")).isTrue();
        // auto keeps the answer beside the calls; a structural tag beside required tools is still two constraints
        Artifact auto = Constraints.compile(domino + ", \"tool_choice\": \"auto\"}", llama);
        assertThat(accepts(auto, "{\"answer\": \"x\"}")).isTrue();
        refused("{" + TOOLS + ", \"tool_choice\": \"required\", \"response_format\": {\"type\": \"structural_tag\", "
                + "\"format\": {\"type\": \"const_string\", \"value\": \"x\"}}}", "");
    }

    /** A misspelt field inside a tool or a response format would leave the output unconstrained: refused by name. */
    @Test void unknownFieldsInsideToolsAndResponseFormatsAreRefusedByName() {
        String params = "\"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}, \"required\": [\"a\"]}";
        assertThat(refused("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameter\": {\"type\": \"object\"}}}], \"tool_choice\": \"required\"}",
                "/tools/0/function/parameter").getMessage()).contains("unknown field 'parameter'").contains("parameters");
        refused("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", " + params + "}, \"arguments\": {}}], \"tool_choice\": \"required\"}",
                "/tools/0/arguments");
        refused("{\"tools\": [{\"type\": \"function\", \"name\": \"f\", \"paramters\": {}}], \"tool_choice\": \"required\"}", "/tools/0/paramters");
        refused("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"strict\": \"yes\", " + params + "}}], \"tool_choice\": \"required\"}",
                "/tools/0/function/strict");
        refused("{\"response_format\": {\"type\": \"json_object\", \"shema\": {\"type\": \"integer\"}}}", "/response_format/shema");
        refused("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"schema\": {\"type\": \"object\"}}, \"strict\": true}}",
                "/response_format/strict");
        refused("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"schema\": {\"type\": \"object\"}, \"schemas\": {}}}}",
                "/response_format/json_schema/schemas");
        refused("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"schema\": {}, \"strict\": \"true\"}}}",
                "/response_format/json_schema/strict");
        refused("{\"response_format\": {\"type\": \"text\", \"schema\": {}}}", "/response_format/schema");
        // the fields the peers define still compile: description, strict (true or false: the schema is enforced), the Responses API shape
        RequestStrictnessTest.grammar("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"strict\": false, "
                + params + "}}], \"tool_choice\": \"required\"}");
        RequestStrictnessTest.grammar("{\"tools\": [{\"type\": \"function\", \"name\": \"f\", \"description\": \"d\", \"strict\": true, " + params + "}], "
                + "\"tool_choice\": {\"type\": \"function\", \"name\": \"f\"}}");
        RequestStrictnessTest.grammar("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"description\": \"d\", "
                + "\"strict\": true, \"schema\": {}}}}");
        RequestStrictnessTest.grammar("{\"response_format\": {\"type\": \"json_schema\", \"schema\": {\"type\": \"integer\"}}}");
    }

    /** OpenAI's allowed_tools: only the listed functions, in the mode's meaning; each part checked by name. */
    @Test void allowedToolsLimitTheFunctionsUnderItsMode() {
        Vocabulary llama = Llama3Fixture.vocabulary();
        String only = "\"tool_choice\": {\"type\": \"allowed_tools\", \"allowed_tools\": {\"mode\": \"%s\", "
                + "\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"get_time\"}}]}}";
        Artifact required = Constraints.compile("{" + TOOLS + ", " + only.formatted("required") + "}", llama);
        assertThat(accepts(required, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}", Llama3Fixture.EOM_ID)).isTrue();
        assertThat(accepts(required, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}", Llama3Fixture.EOM_ID)).isFalse();
        assertThat(accepts(required, "It is noon.")).isFalse();
        Artifact auto = Constraints.compile("{" + TOOLS + ", " + only.formatted("auto") + "}", llama);
        assertThat(accepts(auto, "It is noon.")).isTrue();
        assertThat(accepts(auto, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}", Llama3Fixture.EOM_ID)).isTrue();
        assertThat(accepts(auto, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}", Llama3Fixture.EOM_ID)).isFalse();
        Artifact domino = Constraints.compile("{" + TOOLS + ", \"tool_call_style\": \"domino\", " + only.formatted("required") + "}", llama);
        assertThat(accepts(domino, "[{\"name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}]")).isTrue();
        assertThat(accepts(domino, "[{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}]")).isFalse();
        refused("{" + TOOLS + ", " + only.formatted("none") + "}", "/tool_choice/allowed_tools/mode");
        refused("{" + TOOLS + ", " + only.formatted("auto").replace("get_time", "get_date") + "}", "/tool_choice/allowed_tools/tools/0");
        refused("{" + TOOLS + ", \"tool_choice\": {\"type\": \"allowed_tools\", \"allowed_tools\": {\"mode\": \"auto\", \"tools\": []}}}",
                "/tool_choice/allowed_tools/tools");
        refused("{" + TOOLS + ", \"tool_choice\": {\"type\": \"allowed_tools\", \"allowed_tools\": {\"mode\": \"auto\", \"tools\": "
                + "[{\"type\": \"function\", \"function\": {\"name\": \"get_time\"}}], \"filter\": 1}}}", "/tool_choice/allowed_tools/filter");
    }

    /**
     * XGrammar's structural-tag json_schema takes the declared property order; Domino takes any order by
     * default (the compile's JSON Schema options decide, as for every schema) and XGrammar's with
     * PropertyOrder.SCHEMA ({@code --json-property-order schema}). A documented difference.
     */
    @Test void structuralTagSchemasFollowTheCompilesPropertyOrder() {
        String r = "{\"response_format\": {\"type\": \"structural_tag\", \"format\": {\"type\": \"json_schema\", \"json_schema\": "
                + "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}, \"age\": {\"type\": \"integer\"}}, \"required\": [\"name\", \"age\"]}}}}";
        Vocabulary v = Llama3Fixture.vocabulary();
        Artifact any = Constraints.compile(r, v);
        assertThat(accepts(any, "{\"age\": 1, \"name\": \"a\"}")).isTrue();
        dev.domino.constraints.ConstraintOptions schemaOrder = dev.domino.constraints.ConstraintOptions.defaults().withJsonSchema(
                dev.domino.constraints.ConstraintOptions.defaults().jsonSchema().withPropertyOrder(dev.domino.compiler.jsonschema.JsonSchemaOptions.PropertyOrder.SCHEMA));
        Artifact declared = Constraints.compile(r, v, schemaOrder);
        assertThat(accepts(declared, "{\"name\": \"a\", \"age\": 1}")).isTrue();
        assertThat(accepts(declared, "{\"age\": 1, \"name\": \"a\"}")).isFalse();
    }

    /**
     * vLLM's and llama.cpp's token-level sampling fields (allowed_token_ids, bad_words, min_tokens,
     * stop_token_ids, ignore_eos, logit_bias) are the sampler's: applied after the mask they only narrow
     * it. The compiler accepts them with the grammar's mask; domino serve refuses them by name.
     */
    @Test void samplerTokenFieldsAreLeftToTheSampler() {
        Vocabulary v = Llama3Fixture.vocabulary();
        Artifact plain = Constraints.compile("{\"regex\": \"[a-z]+\"}", v);
        Artifact with = Constraints.compile("{\"regex\": \"[a-z]+\", \"allowed_token_ids\": [1, 2], \"bad_words\": [\"ab\"], \"min_tokens\": 3, "
                + "\"stop_token_ids\": [5], \"ignore_eos\": true, \"logit_bias\": {\"15\": -100}}", v);
        assertThat(with.newMatcher().nextTokenMask()).isEqualTo(plain.newMatcher().nextTokenMask());
    }

    /**
     * llama.cpp's schema converter closes objects that say nothing of additional properties; Domino
     * follows JSON Schema (other keys allowed), and disable_additional_properties gives llama.cpp's reading.
     */
    @Test void llamaCppSchemasAreOpenUnlessAdditionalPropertiesAreDisabled() {
        Vocabulary v = Llama3Fixture.vocabulary();
        String schema = "\"json_schema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}, \"required\": [\"a\"]}";
        assertThat(accepts(Constraints.compile("{" + schema + "}", v), "{\"a\": 1, \"b\": 2}")).isTrue();
        Artifact closed = Constraints.compile("{" + schema + ", \"disable_additional_properties\": true}", v);
        assertThat(accepts(closed, "{\"a\": 1}")).isTrue();
        assertThat(accepts(closed, "{\"a\": 1, \"b\": 2}")).isFalse();
    }
}
