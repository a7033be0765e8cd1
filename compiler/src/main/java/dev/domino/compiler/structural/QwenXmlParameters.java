package dev.domino.compiler.structural;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * XGrammar's {@code qwen_xml} style (Qwen3-Coder's tool arguments): an object schema written as
 * {@code <parameter=NAME>VALUE</parameter>} per property, whitespace between them, in the order
 * {@code properties} lists them (optional ones may be left out). A string value is raw text up to
 * the first {@code </parameter>} (no JSON quotes or escapes), an enum of strings one of its raw
 * values; any other value is JSON under the property's schema, whitespace around it. Anything the
 * style cannot carry (additional properties, string constraints such as {@code pattern}) is refused
 * by keyword.
 */
final class QwenXmlParameters {
    private QwenXmlParameters() {}

    private static final Set<String> OBJECT_KEYWORDS = Set.of("type", "properties", "required", "additionalProperties",
            "title", "description", "$schema", "$defs", "definitions");
    private static final Set<String> STRING_KEYWORDS = Set.of("type", "title", "description", "enum", "const", "default", "examples");
    private static final String CLOSE = "</parameter>";

    /** {@code json} compiles a JSON Schema (with its pointer for errors) into a JSON-value expression. */
    static Expr of(JsonNode schema, String at, BiFunction<JsonNode, String, Expr> json) {
        if (schema == null || !schema.isObject()) throw error("'json_schema' must be an object schema", at);
        for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!OBJECT_KEYWORDS.contains(k)) throw error("keyword '" + k + "' is not supported by the qwen_xml style", at + "/" + k);
        }
        if (schema.has("type") && !schema.get("type").asText("").equals("object")) throw error("the qwen_xml style needs \"type\": \"object\"", at + "/type");
        JsonNode additional = schema.get("additionalProperties");
        if (additional == null || !(additional.isBoolean() && !additional.asBoolean())) {
            throw error("the qwen_xml style needs \"additionalProperties\": false (additional parameters are not supported)", at);
        }
        Set<String> required = new HashSet<>();
        for (JsonNode r : schema.path("required")) required.add(r.asText());
        JsonNode props = schema.path("properties");
        for (String r : required) if (!props.has(r)) throw error("required property '" + r + "' is not in 'properties'", at + "/required");
        Expr ws = Expr.star(new Expr.Chars(CodePointSet.fromRanges(new int[] {'\t', '\n', '\r', '\r', ' ', ' '})));
        List<Expr> items = new ArrayList<>();
        items.add(ws);
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            String pat = at + "/properties/" + p.getKey();
            if (!p.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) throw error("a qwen_xml parameter name is an identifier", pat);
            Expr param = new Expr.Seq(List.of(new Expr.Literal("<parameter=" + p.getKey() + ">"), value(schema, p.getValue(), pat, ws, json), ws));
            items.add(required.contains(p.getKey()) ? param : Expr.optional(param));
        }
        return new Expr.Seq(items);
    }

    /** A parameter's value and the closing tag. */
    private static Expr value(JsonNode root, JsonNode s, String at, Expr ws, BiFunction<JsonNode, String, Expr> json) {
        if (s.isObject() && s.path("type").asText("").equals("string")) {
            for (Iterator<String> it = s.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!STRING_KEYWORDS.contains(k)) throw error("string keyword '" + k + "' is not supported by the qwen_xml style (values are raw text)", at + "/" + k);
            }
            List<Expr> values = new ArrayList<>();
            if (s.has("const")) values.add(rawString(s.get("const"), at + "/const"));
            for (JsonNode v : s.path("enum")) values.add(rawString(v, at + "/enum"));
            if (values.isEmpty()) return Expr.Lazy.upTo(new Expr.Literal(CLOSE));
            return new Expr.Seq(List.of(Expr.alt(values.toArray(new Expr[0])), new Expr.Literal(CLOSE)));
        }
        JsonNode own = s;
        if (s.isObject() && (root.has("$defs") || root.has("definitions"))) {
            ObjectNode copy = ((ObjectNode) s).deepCopy();
            if (root.has("$defs") && !copy.has("$defs")) copy.set("$defs", root.get("$defs"));
            if (root.has("definitions") && !copy.has("definitions")) copy.set("definitions", root.get("definitions"));
            own = copy;
        }
        return new Expr.Seq(List.of(ws, json.apply(own, at), ws, new Expr.Literal(CLOSE)));
    }

    private static Expr rawString(JsonNode v, String at) {
        if (!v.isTextual()) throw error("a string's enum/const value must be a string", at);
        if (v.asText().contains(CLOSE)) throw error("a value must not contain " + CLOSE, at);
        return new Expr.Literal(v.asText());
    }

    private static GrammarException error(String message, String at) {
        return new GrammarException("structural tag at " + at + ": " + message);
    }
}
