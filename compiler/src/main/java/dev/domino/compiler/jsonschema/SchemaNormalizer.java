package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar.KeywordLocation;
import dev.domino.compiler.jsonschema.algebra.ConditionalSchemas;
import dev.domino.compiler.jsonschema.algebra.SchemaAlgebra;
import dev.domino.compiler.jsonschema.algebra.SchemaComplement;
import dev.domino.compiler.jsonschema.algebra.UnevaluatedKeywords;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.objects.KeyConstraint;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.objects.ObjectSchemas;
import dev.domino.compiler.jsonschema.refs.Dialects;
import dev.domino.compiler.jsonschema.refs.DynamicRefs;
import dev.domino.compiler.jsonschema.refs.RemoteSchemas;
import dev.domino.compiler.jsonschema.strings.PatternLookaheads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cleans a schema object before it is compiled: annotations are dropped, keywords without assertion
 * semantics that no JSON Schema vocabulary defines are reported as unknown, unsupported keywords raise
 * "unsupported keyword 'k' at /pointer" (or are skipped when the options list them), keyword values are
 * validated ({@link KeywordValues}), draft-04 boolean {@code exclusiveMinimum/Maximum} become the numeric
 * form and {@code const} becomes a one-value {@code enum}.
 *
 * <p>Also the set of JSON types a schema admits: {@code type} minus the types of a {@code not} that only
 * constrains the type. OpenAPI 3.0's {@code nullable: true} does not add null: no JSON Schema dialect defines
 * it, so it is an annotation (the dev set's own labels agree: an instance with null under a nullable string
 * is invalid in Github_medium---o58623 and o67675).
 */
public final class SchemaNormalizer {
    static final Set<String> ANNOTATIONS = Set.of(
        "title", "description", "examples", "example", "$schema", "$id", "id", "default", "$comment",
        "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema",
        "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$defs", "definitions",
        "discriminator", "xml", "externalDocs", "markdownDescription", "enumDescriptions",
        "markdownEnumDescriptions", "errorMessage", RemoteSchemas.KEYWORD, DynamicRefs.KEYWORD);
    static final Set<String> HANDLED = Set.of(
        "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
        "items", "prefixItems", "additionalItems", "minItems", "maxItems", "minLength", "maxLength",
        "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf",
        "allOf", "$ref", "nullable", "minProperties", "maxProperties", "multipleOf", "not", "uniqueItems",
        "propertyNames", SchemaComplement.NOT_STRINGS, "contains", "minContains", "maxContains", ArraySchemas.CONTAINS_ALL,
        SchemaComplement.NOT_PATTERNS, SchemaComplement.NOT_FORMATS, SchemaComplement.ALL_PATTERNS,
        NumberMultiples.NOT_MULTIPLES, KeyQuantifiers.EXISTS, KeyQuantifiers.FORALL,
        dev.domino.compiler.jsonschema.algebra.StringLanguages.KEYWORD);
    static final Set<String> UNSUPPORTED = Set.of("$dynamicRef", "$recursiveRef");

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private final SchemaCompiler sc;

    SchemaNormalizer(SchemaCompiler sc) { this.sc = sc; }

    private final Set<JsonNode> checked = Collections.newSetFromMap(new IdentityHashMap<>());


    /** Appends strings to the array keyword {@code kw} of {@code out} (made when absent). */
    private static void appendAll(ObjectNode out, String kw, java.util.List<String> values) {
        if (values.isEmpty()) return;
        ArrayNode a = out.has(kw) ? (ArrayNode) out.get(kw) : out.putArray(kw);
        for (String x : values) a.add(x);
    }

    public static boolean isTrivial(JsonNode n) {
        return (n.isBoolean() && n.asBoolean()) || (n.isObject() && n.isEmpty());
    }

    /** Keeps only the keywords with assertion semantics we handle; reports/throws for the rest. */
    public JsonNode clean(JsonNode node, String ptr) {
        if (node.isBoolean()) return node;
        if (!node.isObject()) throw new GrammarException("schema at " + SchemaCompiler.showPointer(ptr) + " is not an object or boolean");
        checkValues(node, ptr);
        ObjectNode out = NF.objectNode();
        boolean written = sc.writtenInDialect(node);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            if (ANNOTATIONS.contains(k)) continue;
            if (written && !Dialects.defines(k, sc.draft)) {
                sc.unknown.add(new KeywordLocation(ptr, k));
                continue;
            }
            if (ConditionalSchemas.KEYWORDS.contains(k)) {
                if (written && !ConditionalSchemas.defined(k, sc.draft)) sc.unknown.add(new KeywordLocation(ptr, k));
                continue;
            }
            if (UnevaluatedKeywords.KEYWORDS.contains(k)) {
                if (written && !UnevaluatedKeywords.defined(sc.draft)) sc.unknown.add(new KeywordLocation(ptr, k));
                continue; // rewritten below
            }
            if (k.equals("format") && !sc.formatsAsserted()) continue; // an annotation (FormatMode.ANNOTATION)
            if (HANDLED.contains(k)) {
                if (k.equals("uniqueItems")) { if (v.asBoolean(false)) out.set(k, v); continue; } // ArraySchemas.uniqueExpr
                if (k.equals("propertyNames")) {
                    JsonNode pn = clean(v, SchemaCompiler.child(ptr, k));
                    if (isTrivial(pn) || (pn.size() == 1 && pn.path("type").asText("").equals("string"))) continue;
                    out.set(k, v); // the object's key languages (ObjectSchemas, KeyConstraint)
                    continue;
                }
                if (k.equals("nullable")) continue; // OpenAPI 3.0's keyword, an annotation here (class comment)
                if (k.equals("pattern") && v.isTextual() && (v.asText().contains("(?=") || v.asText().contains("(?!"))) {
                    PatternLookaheads.Split split = PatternLookaheads.split(v.asText());
                    if (split != null) {
                        appendAll(out, SchemaComplement.ALL_PATTERNS, split.all());
                        appendAll(out, SchemaComplement.NOT_PATTERNS, split.none());
                        continue;
                    }
                }
                if ((k.equals(SchemaComplement.ALL_PATTERNS) || k.equals(SchemaComplement.NOT_PATTERNS)) && v.isArray() && out.has(k)) {
                    // a pattern with lookaheads before it already added parts here
                    java.util.List<String> values = new ArrayList<>();
                    v.forEach(x -> values.add(x.asText()));
                    appendAll(out, k, values);
                    continue;
                }
                out.set(k, v);
            } else if (UNSUPPORTED.contains(k)) {
                boolean scoped = k.equals("$dynamicRef") && Dialects.of(sc.draft) == JsonSchemaOptions.Dialect.DRAFT_2020_12
                    || k.equals("$recursiveRef") && Dialects.of(sc.draft) == JsonSchemaOptions.Dialect.DRAFT_2019_09;
                sc.unsupported(ptr, k, scoped
                    ? "'" + v.asText() + "' resolves by the dynamic scope and was not resolved statically: its target is missing or it needs more than "
                      + "MAX_DYNAMIC_SCOPES " + DynamicRefs.MAX_DYNAMIC_SCOPES + " scopes" : null);
            } else {
                sc.unknown.add(new KeywordLocation(ptr, k));
            }
        }
        ArrayNode conditions = ConditionalSchemas.conjuncts(node, sc.draft);
        if (UnevaluatedKeywords.defined(sc.draft)) conditions.addAll(sc.unevaluated.conjuncts((ObjectNode) node, ptr));
        if (!conditions.isEmpty()) {
            ArrayNode all = out.has("allOf") ? ((ArrayNode) out.get("allOf")).deepCopy() : NF.arrayNode();
            all.addAll(conditions);
            out.set("allOf", all);
        }
        // draft-04 boolean exclusiveMinimum/Maximum -> numeric form
        for (String[] p : new String[][] {{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}}) {
            JsonNode ex = out.get(p[0]);
            if (ex != null && ex.isBoolean()) {
                out.remove(p[0]);
                if (ex.asBoolean() && out.has(p[1])) out.set(p[0], out.remove(p[1]));
            }
        }
        if (out.has("const")) {
            ArrayNode e = NF.arrayNode().add(out.remove("const"));
            if (out.has("enum")) e = SchemaAlgebra.intersectEnums(e, (ArrayNode) out.get("enum"));
            out.set("enum", e);
        }
        return out;
    }

    /** {@link KeywordValues#check} once per schema object. */
    void checkValues(JsonNode node, String ptr) {
        if (node.isObject() && checked.add(node)) KeywordValues.check(node, ptr);
    }

    public static EnumSet<JsonType> parseTypes(JsonNode type, String ptr) {
        EnumSet<JsonType> out = EnumSet.noneOf(JsonType.class);
        List<JsonNode> list = new ArrayList<>();
        if (type.isArray()) type.forEach(list::add); else list.add(type);
        for (JsonNode t : list) {
            switch (t.asText()) {
                case "null" -> out.add(JsonType.NULL);
                case "boolean" -> out.add(JsonType.BOOLEAN);
                case "object" -> out.add(JsonType.OBJECT);
                case "array" -> out.add(JsonType.ARRAY);
                case "string" -> out.add(JsonType.STRING);
                case "integer" -> out.add(JsonType.INTEGER);
                case "number" -> { out.add(JsonType.NUMBER); out.add(JsonType.INTEGER); }
                default -> throw new GrammarException("unknown type '" + t.asText() + "' at " + SchemaCompiler.showPointer(ptr));
            }
        }
        return out;
    }

    public EnumSet<JsonType> types(ObjectNode n, String ptr) {
        EnumSet<JsonType> types = n.has("type") ? parseTypes(n.get("type"), ptr) : EnumSet.allOf(JsonType.class);
        if (n.has("not")) {
            JsonNode not = clean(n.get("not"), SchemaCompiler.child(ptr, "not"));
            if (not.isBoolean()) {
                if (not.asBoolean()) types.clear();
            } else if (not.isEmpty()) {
                types.clear();
            } else if (typeOnly(not, ptr) != null) {
                EnumSet<JsonType> neg = typeOnly(not, ptr);
                // not integer on numbers: NUMBER stays without INTEGER, "numbers whose value is not an integer"
                types.removeAll(neg);
            } else {
                sc.unsupported(ptr, "not", null);
            }
        }
        return types;
    }

    /** If the schema means exactly "the type is one of T", returns T; otherwise null. */
    public EnumSet<JsonType> typeOnly(JsonNode raw, String ptr) {
        // unevaluated keywords may need their branches expanded first (SchemaComplement does): not a type alone
        if (raw.isObject() && (raw.has("unevaluatedProperties") || raw.has("unevaluatedItems")) && UnevaluatedKeywords.defined(sc.draft)) return null;
        JsonNode s = clean(raw, ptr);
        if (s.isBoolean()) return s.asBoolean() ? EnumSet.allOf(JsonType.class) : EnumSet.noneOf(JsonType.class);
        if (s.isEmpty()) return EnumSet.allOf(JsonType.class);
        if (s.size() == 1 && s.has("type")) return parseTypes(s.get("type"), ptr);
        if (s.size() == 1 && s.has("$ref")) {
            JsonNode t = sc.refs.resolve(s.get("$ref").asText(), ptr);
            return t == null || ++sc.depth > 100 ? null : typeOnlyAndPop(t, ptr);
        }
        if (s.size() == 1 && s.has("anyOf")) {
            EnumSet<JsonType> out = EnumSet.noneOf(JsonType.class);
            for (JsonNode b : s.get("anyOf")) {
                EnumSet<JsonType> t = typeOnly(b, ptr);
                if (t == null) return null;
                out.addAll(t);
            }
            return out;
        }
        return null;
    }

    EnumSet<JsonType> typeOnlyAndPop(JsonNode t, String ptr) {
        try { return typeOnly(t, ptr); } finally { sc.depth--; }
    }
}
