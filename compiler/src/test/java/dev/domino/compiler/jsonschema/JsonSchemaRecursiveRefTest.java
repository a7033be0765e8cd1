package dev.domino.compiler.jsonschema;

import dev.domino.compiler.jsonschema.refs.DynamicRefs;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.check;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.l;

/** 2019-09's {@code $recursiveRef}/{@code $recursiveAnchor}, resolved statically per dynamic scope ({@link DynamicRefs}). */
class JsonSchemaRecursiveRefTest {
    static final String D = "'$schema':'https://json-schema.org/draft/2019-09/schema',";

    /** Without $recursiveAnchor (or with false) at the target, $recursiveRef is $ref to its resource's root. */
    @Test void withoutAnchorItIsRef() {
        check("{" + D + "'type':['object','integer'],'additionalProperties':{'$recursiveRef':'#'}}", l("1", "{'a':1}", "{'a':{'b':2}}"), l("'x'", "{'a':'x'}"));
        check("{" + D + "'$recursiveAnchor':false,'type':['object','integer'],'additionalProperties':{'$recursiveRef':'#'}}", l("{'a':{'b':2}}"), l("{'a':'x'}"));
    }

    /** The outermost resource of the scope with $recursiveAnchor true wins: a tree extended by its caller. */
    @Test void outermostAnchoredResourceInScope() {
        String schema = "{" + D + "'$id':'https://example.com/strict','$recursiveAnchor':true,'$ref':'tree','unevaluatedProperties':false,"
            + "'$defs':{'tree':{'$id':'tree','$recursiveAnchor':true,'type':'object',"
            + "'properties':{'data':true,'children':{'type':'array','items':{'$recursiveRef':'#'}}}}}}";
        check(schema, l("{'children':[{'data':1}]}", "{'data':1}"), l("{'children':[{'daat':1}]}", "{'x':1}"));
    }

    /** An outer resource without $recursiveAnchor does not take part: the recursion stays in the inner one. */
    @Test void outerWithoutAnchorDoesNotCount() {
        String schema = "{" + D + "'$id':'https://example.com/outer','type':'object','properties':{'t':{'$ref':'inner'}},"
            + "'additionalProperties':false,'$defs':{'inner':{'$id':'inner','$recursiveAnchor':true,"
            + "'type':['object','integer'],'additionalProperties':{'$recursiveRef':'#'}}}}";
        check(schema, l("{'t':{'a':{'b':1}}}", "{'t':1}"), l("{'t':{'a':'x'}}", "{'u':1}"));
    }

    /** The same generic resource reached from two anchored callers: one copy per scope. */
    @Test void onePathPerScope() {
        String schema = "{" + D + "'$id':'https://example.com/main','properties':{'i':{'$ref':'ints'},'s':{'$ref':'strs'}},'$defs':{"
            + "'node':{'$id':'node','$recursiveAnchor':true,'type':['object','integer','string'],'additionalProperties':{'$recursiveRef':'#'}},"
            + "'ints':{'$id':'ints','$recursiveAnchor':true,'anyOf':[{'type':'integer'},{'$ref':'node','type':'object'}]},"
            + "'strs':{'$id':'strs','$recursiveAnchor':true,'anyOf':[{'type':'string'},{'$ref':'node','type':'object'}]}}}";
        check(schema, l("{'i':{'a':{'b':1}},'s':{'a':'x'}}", "{'i':1}"), l("{'i':{'a':'x'}}", "{'s':{'a':1}}"));
    }
}
