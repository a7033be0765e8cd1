package dev.domino.compiler.jsonschema;

import dev.domino.compiler.jsonschema.refs.DynamicRefs;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.check;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.l;

/** 2020-12's {@code $dynamicRef} resolved statically per dynamic scope ({@link DynamicRefs}). */
class JsonSchemaDynamicRefTest {
    static final String D = "'$schema':'https://json-schema.org/draft/2020-12/schema',";

    /** Without another declaration of its anchor, a $dynamicRef is the $ref to its static target. */
    @Test void staticWhereTheScopeCannotChangeIt() {
        check("{" + D + "'type':'array','items':{'$dynamicRef':'#items'},'$defs':{'foo':{'$dynamicAnchor':'items','type':'string'}}}",
            l("['a']", "[]"), l("[1]"));
        check("{" + D + "'properties':{'t':{'$dynamicRef':'#/$defs/t'}},'$defs':{'t':{'type':'integer'}}}", l("{'t':1}"), l("{'t':'x'}"));
    }

    /** The outermost resource of the scope that declares the anchor wins: a generic list's items from the caller. */
    @Test void outermostDeclarationInScope() {
        String schema = "{" + D + "'$id':'https://example.com/root','$ref':'list','$defs':{"
            + "'foo':{'$dynamicAnchor':'items','type':'string'},"
            + "'list':{'$id':'list','type':'array','items':{'$dynamicRef':'#items'},'$defs':{'items':{'$dynamicAnchor':'items'}}}}}";
        check(schema, l("['a','b']", "[]"), l("[1]", "['a',2]"));
    }

    /** The same generic schema reached through two scopes: one copy per scope. */
    @Test void onePathPerScope() {
        String schema = "{" + D + "'$id':'https://example.com/main',"
            + "'properties':{'n':{'$ref':'numbers'},'s':{'$ref':'strings'}},'$defs':{"
            + "'generic':{'$id':'generic','type':'array','items':{'$dynamicRef':'#t'},'$defs':{'d':{'$dynamicAnchor':'t'}}},"
            + "'numbers':{'$id':'numbers','$ref':'generic','$defs':{'t':{'$dynamicAnchor':'t','type':'number'}}},"
            + "'strings':{'$id':'strings','$ref':'generic','$defs':{'t':{'$dynamicAnchor':'t','type':'string'}}}}}";
        check(schema, l("{'n':[1,2],'s':['a']}", "{}"), l("{'n':['a']}", "{'s':[1]}"));
    }

    /** A recursive schema extended through its dynamic anchor (the suite's strict-tree): the recursion goes to the extension. */
    @Test void recursiveExtension() {
        String schema = "{" + D + "'$id':'https://example.com/strict','$dynamicAnchor':'node','$ref':'tree','unevaluatedProperties':false,"
            + "'$defs':{'tree':{'$id':'tree','$dynamicAnchor':'node','type':'object',"
            + "'properties':{'data':true,'children':{'type':'array','items':{'$dynamicRef':'#node'}}}}}}";
        check(schema, l("{'children':[{'data':1}]}", "{'data':1}"), l("{'children':[{'daat':1}]}", "{'x':1}"));
    }
}
