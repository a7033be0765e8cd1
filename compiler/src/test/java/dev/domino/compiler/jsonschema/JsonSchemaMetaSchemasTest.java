package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.refs.MetaSchemas;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.accepts;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.l;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bundled meta-schemas ({@link MetaSchemas}): a {@code $ref} to a draft's meta-schema is the grammar of that draft's schemas. */
class JsonSchemaMetaSchemasTest {
    static final JsonSchemaOptions ANNOTATED = JsonSchemaOptions.defaults().withFormatMode(JsonSchemaOptions.FormatMode.ANNOTATION);

    static void check(String schema, JsonSchemaOptions options, List<String> valid, List<String> invalid) {
        Grammar g = JsonSchemaGrammar.from(j(schema), options).grammar();
        for (String v : valid) assertThat(accepts(g, j(v))).as("valid %s under %s", v, schema).isTrue();
        for (String v : invalid) assertThat(accepts(g, j(v))).as("invalid %s under %s", v, schema).isFalse();
    }

    @Test void everyDraftIsBundled() {
        assertThat(MetaSchemas.uris()).contains("https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/meta/core",
            "https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
            "http://json-schema.org/draft-04/schema");
    }

    /** 2020-12: the vocabularies' meta-schemas joined through $dynamicRef to the root; $defs values are schemas. */
    @Test void draft2020() {
        check("{'$ref':'https://json-schema.org/draft/2020-12/schema'}", ANNOTATED,
            l("{}", "true", "{'type':'string','minLength':1}", "{'$defs':{'a':{'type':'integer'}}}", "{'required':['a','b'],'x-extra':[1]}",
              "{'properties':{'a':{'items':{'const':1}}}}"),
            l("1", "{'type':'strin'}", "{'minLength':-1}", "{'$defs':{'a':{'type':1}}}", "{'required':['a','a']}", "{'items':[{'type':'string'}]}",
              "{'properties':{'a':{'anyOf':[]}}}"));
    }

    /** 2019-09: $recursiveRef to the root; array-form items is a schema there. */
    @Test void draft2019() {
        check("{'$schema':'https://json-schema.org/draft/2019-09/schema','$ref':'https://json-schema.org/draft/2019-09/schema'}", ANNOTATED,
            l("{'items':[{'type':'string'}],'additionalItems':false}", "{'$defs':{'a':{'$recursiveAnchor':true}}}"),
            l("{'$defs':{'a':{'type':1}}}", "{'items':[{'minItems':'x'}]}", "{'$recursiveAnchor':1}"));
    }

    @Test void drafts7And6And4() {
        check("{'$schema':'http://json-schema.org/draft-07/schema#','$ref':'http://json-schema.org/draft-07/schema#'}", ANNOTATED,
            l("{'if':{'type':'string'},'then':{'minLength':1}}", "true"), l("{'definitions':{'a':{'type':1}}}", "{'if':1}"));
        check("{'$schema':'http://json-schema.org/draft-06/schema#','$ref':'http://json-schema.org/draft-06/schema#'}", ANNOTATED,
            l("{'contains':{'type':'string'}}"), l("{'contains':1}"));
        check("{'$schema':'http://json-schema.org/draft-04/schema#','$ref':'http://json-schema.org/draft-04/schema#'}", ANNOTATED,
            l("{'exclusiveMinimum':true,'minimum':1}"), l("true", "{'exclusiveMinimum':1}", "{'exclusiveMinimum':true}"));
    }

    /** A document of the caller's registry under the same URI wins over the bundled one. */
    @Test void registryFirst() {
        SchemaRegistry r = SchemaRegistry.builder().add("http://json-schema.org/draft-07/schema", "{\"type\":\"integer\"}").build();
        check("{'$schema':'http://json-schema.org/draft-07/schema#','$ref':'http://json-schema.org/draft-07/schema#'}", ANNOTATED.withSchemaRegistry(r),
            l("1"), l("{}"));
    }

    /** Asserted formats: the meta-schemas' format 'regex' (pattern, patternProperties) is refused in one line naming it. */
    @Test void assertedRegexFormatRefusedByName() {
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j("{'$schema':'http://json-schema.org/draft-07/schema#','$ref':'http://json-schema.org/draft-07/schema#'}")))
            .isInstanceOf(GrammarException.class).hasMessageContaining("format 'regex'").hasMessageNotContaining("\n")
            .hasMessageContaining("at http://json-schema.org/draft-07/schema#/properties/pattern"); // the registry document's own pointer
    }

    /** A URI of json-schema.org that is no bundled meta-schema stays an unresolved remote reference. */
    @Test void otherUrisStayRemote() {
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j("{'$ref':'https://json-schema.org/draft/2020-12/links'}")))
            .isInstanceOf(GrammarException.class).hasMessageContaining("https://json-schema.org/draft/2020-12/links");
    }
}
