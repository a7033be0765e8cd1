package dev.domino.compiler.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.StrictJson;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.structural.StructuralTags;
import dev.domino.runtime.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The output constraint of an OpenAI-style request, and its grammar. Accepted shapes (the
 * request may hold other fields, such as {@code model} and {@code messages}; they are ignored):
 * <ul>
 *   <li>{@code response_format}: {@code {"type": "json_schema", "json_schema": {"name": ..., "schema": {...}}}},
 *       {@code {"type": "json_object"}} (any JSON object), {@code {"type": "text"}} (any text);</li>
 *   <li>{@code tools} with {@code tool_choice} (OpenAI's default {@code "auto"}) and {@code parallel_tool_calls}
 *       ({@code false}: one call), in a model family's own format ({@link ToolCallStyle}, {@link ToolCallFormats}:
 *       named by {@code tool_call_style}, else the server's, else detected from the vocabulary by
 *       {@link #resolve}), together with a {@code response_format} for the answer; else in Domino's own shape
 *       ({@link ToolCallSchemas}): {@code "required"} and a named function constrain the output, {@code "auto"}
 *       and {@code "none"} leave it free (as vLLM does without a tool parser);</li>
 *   <li>vendor extensions (vLLM's {@code structured_outputs} object or top level): {@code "regex"}
 *       (whole output), {@code "choice"} (one of the strings), {@code "grammar"}
 *       ({@code {"gbnf": TEXT}}, {@code {"lark": TEXT}}, or a GBNF string), {@code "json"} (a schema),
 *       {@code "json_object": true}, {@code "structural_tag"} (see {@link StructuralTags}; also as
 *       {@code response_format} {@code {"type": "structural_tag", ...}}).</li>
 * </ul>
 * Exactly one constraint per request; two (say a {@code regex} and a {@code response_format}) is an error
 * ({@code tools} in a model's format and a {@code response_format} are one constraint).
 */
public final class RequestSpec {
    /** What the request constrains the output to. */
    public enum Kind { JSON_SCHEMA, JSON_OBJECT, TEXT, TOOL_CALLS, NAMED_TOOL, REGEX, CHOICE, GBNF, LARK, STRUCTURAL_TAG,
        /** Tool calls in a model family's own format ({@link ToolCallStyle}), see {@link ToolCallFormats}. */
        MODEL_TOOL_CALLS }

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Kind kind;
    private final ObjectNode constraint;
    private String key;
    /** Grammar format for kinds compiled by a front-end; null for IR-built kinds. */
    private final SourceFormat format;
    /**
     * The grammar or schema text, made only when the grammar is needed: a cache hit needs the key
     * alone (building and printing the schema of {@code tools} would double the cost of a hit).
     */
    private final java.util.function.Supplier<String> sourceMaker;
    private String source;
    private final List<String> choices;
    /** vLLM's {@code disable_any_whitespace}: JSON without any whitespace (compact), whatever the server's setting. */
    private boolean compactJson;
    /**
     * The request's tools, when they may decide the grammar: a {@link Kind#MODEL_TOOL_CALLS} spec's
     * own, or (no style named) those {@link #resolve} writes in the detected or the server's style.
     */
    private ToolRequest tools;
    /** The vocabulary that decides text-or-token frame pieces of a {@link Kind#MODEL_TOOL_CALLS} spec (null: text). */
    private Vocabulary toolVocabulary;

    /** Request-level switches of the JSON constraint (vLLM). */
    private record Flags(boolean compact, boolean closedObjects) {
        JsonNode schema(JsonNode schema, String at) { return closedObjects ? ClosedObjects.apply(schema, at) : schema; }
    }

    private RequestSpec(Kind kind, ObjectNode constraint, SourceFormat format, java.util.function.Supplier<String> source, List<String> choices) {
        this.kind = kind;
        this.constraint = constraint;
        this.format = format;
        this.sourceMaker = source;
        this.choices = choices;
        this.key = keyOf(constraint);
    }

    private static String keyOf(ObjectNode constraint) {
        try {
            return MAPPER.writeValueAsString(constraint);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses request JSON text strictly ({@link StrictJson}), then as {@link #of(JsonNode)}. */
    public static RequestSpec parse(String requestJson) {
        JsonNode n;
        try {
            n = StrictJson.parse(requestJson, false);
        } catch (StrictJson.Invalid e) {
            throw new RequestSpecException(e.pointer(), "not valid JSON: " + e.reason());
        }
        return of(n);
    }

    /**
     * The constraint of a parsed request. The tree is checked as text is: nesting within the limit
     * {@code nesting-depth}, and no lone surrogate in the fields that constrain the output.
     */
    public static RequestSpec of(JsonNode request) {
        if (request == null || !request.isObject()) throw new RequestSpecException("", "expected a JSON object");
        strict(request, "", false);
        for (java.util.Iterator<Map.Entry<String, JsonNode>> it = request.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (RequestFields.constrains(f.getKey())) strict(f.getValue(), "/" + f.getKey(), true);
        }
        RequestFields.check(request);
        request = AllowedTools.normalize(request);
        Flags flags = new Flags(RequestFields.flag(request, "disable_any_whitespace"), RequestFields.flag(request, "disable_additional_properties"));
        List<RequestSpec> found = new ArrayList<>();
        JsonNode rf = request.get("response_format");
        RequestSpec answer = rf != null && !rf.isNull() ? responseFormat(rf, flags) : null;
        if (answer != null) found.add(answer);
        JsonNode tools = request.get("tools");
        ToolCallStyle style = toolCallStyle(request);
        ToolRequest toolRequest = null;
        RequestSpec toolSpec = null;
        if (tools != null && !tools.isNull()) {
            toolSpec = tools(request, flags); // checks tool_choice and parallel_tool_calls
            toolRequest = toolRequest(request, flags, style, answer);
            if (toolSpec != null) {
                // required or a named function: the output is calls, whatever answer response_format describes
                // (vLLM lets the tools' schema replace it); the answer stays in toolRequest for a model's format
                if (answer != null && (answer.kind == Kind.JSON_SCHEMA || answer.kind == Kind.JSON_OBJECT || answer.kind == Kind.TEXT)) found.remove(answer);
                found.add(toolSpec);
            }
        } else if (style != null) {
            throw new RequestSpecException("/tool_call_style", "a tool-call style needs tools");
        }
        if (toolRequest != null && style != null && style != ToolCallStyle.DOMINO_JSON) { // the model's format: tools and answer in one grammar
            found.remove(answer);
            found.remove(toolSpec);
            found.add(modelToolCalls(request, toolRequest, style));
        }
        vendor(request, "", found, flags);
        JsonNode llamaSchema = request.get("json_schema"); // llama.cpp server
        if (RequestFields.present(llamaSchema)) found.add(jsonSchema(schemaValue(llamaSchema, "/json_schema"), "/json_schema", flags));
        JsonNode so = request.get("structured_outputs");
        if (so != null && !so.isNull()) {
            if (!so.isObject()) throw new RequestSpecException("/structured_outputs", "expected an object");
            vendor(so, "/structured_outputs", found, flags);
        }
        RequestSpec defaultText = null;
        if (found.isEmpty() && tools != null && !tools.isNull()) found.add(defaultText = text()); // tool_choice auto or none: free text
        if (found.isEmpty()) {
            throw new RequestSpecException("", "no output constraint: expected response_format, tools with tool_choice, "
                    + "regex, choice, grammar, json or structural_tag");
        }
        if (found.size() > 1) {
            throw new RequestSpecException("", "more than one output constraint (" + found.get(0).kind + " and " + found.get(1).kind
                    + "): a request takes one");
        }
        RequestSpec spec = found.get(0);
        if (flags.compact() && (spec.format == SourceFormat.JSON_SCHEMA || spec.kind == Kind.STRUCTURAL_TAG || spec.kind == Kind.MODEL_TOOL_CALLS)) {
            spec.compactJson = true;
            spec.constraint.put("disable_any_whitespace", true);
            spec.key = keyOf(spec.constraint);
        }
        boolean answerFits = answer == null || answer.kind == Kind.JSON_SCHEMA || answer.kind == Kind.JSON_OBJECT || answer.kind == Kind.TEXT;
        if (style == null && toolRequest != null && answerFits && (spec == answer || spec == toolSpec || spec == defaultText)) {
            // no style named: the vocabulary or the server may choose one (resolve), so the tools are part of the key
            spec.tools = toolRequest;
            spec.compactJson |= flags.compact();
            spec.constraint.set("tools_request", toolsConstraint(request));
            spec.key = keyOf(spec.constraint);
        }
        return spec;
    }

    /** {@code tool_call_style}: a style's name, or null when absent. */
    private static ToolCallStyle toolCallStyle(JsonNode request) {
        JsonNode n = request.get("tool_call_style");
        if (!RequestFields.present(n)) return null;
        if (!n.isTextual()) throw new RequestSpecException("/tool_call_style", "expected a string (" + ToolCallStyle.names() + ")");
        ToolCallStyle s = ToolCallStyle.byName(n.asText());
        if (s == null) throw new RequestSpecException("/tool_call_style", "unknown tool-call style '" + n.asText() + "' (expected one of " + ToolCallStyle.names() + ")");
        return s;
    }

    /** The tools, tool_choice and parallel_tool_calls of a request, with the response_format's answer schema. */
    private static ToolRequest toolRequest(JsonNode request, Flags flags, ToolCallStyle style, RequestSpec answer) {
        Map<String, JsonNode> functions = new java.util.LinkedHashMap<>(ToolCallSchemas.functions(request.get("tools")));
        if (flags.closedObjects()) functions.replaceAll((name, params) -> flags.schema(params, "/tools"));
        JsonNode choice = request.get("tool_choice");
        JsonNode parallelNode = request.get("parallel_tool_calls");
        boolean parallel = parallelNode == null || parallelNode.isNull() || parallelNode.asBoolean();
        ToolRequest.Choice c;
        String named = null;
        if (choice == null || choice.isNull() || choice.isTextual() && choice.asText().equals("auto")) c = ToolRequest.Choice.AUTO;
        else if (choice.isTextual() && choice.asText().equals("none")) c = ToolRequest.Choice.NONE;
        else if (choice.isTextual() && choice.asText().equals("required")) c = ToolRequest.Choice.REQUIRED;
        else {
            c = ToolRequest.Choice.NAMED;
            JsonNode name = choice.path("function").path("name");
            if (!name.isTextual()) name = choice.path("name");
            named = name.asText(); // tools() checks the shape and the name
            if (!functions.containsKey(named)) ToolCallSchemas.named(functions, named);
        }
        JsonNode answerSchema = null;
        if (answer != null) {
            switch (answer.kind) {
                case JSON_SCHEMA -> answerSchema = answer.constraint.get("json_schema");
                case JSON_OBJECT -> answerSchema = F.objectNode().put("type", "object");
                case TEXT -> answerSchema = null;
                default -> {
                    if (style != null && style != ToolCallStyle.DOMINO_JSON) {
                        throw new RequestSpecException("/response_format", "a " + answer.sourceFormat() + " response_format together with tools "
                                + "in a model's tool-call style is not supported (use a json_schema)");
                    }
                }
            }
        }
        return new ToolRequest(functions, c, named, parallel, style, answerSchema);
    }

    private static RequestSpec modelToolCalls(JsonNode request, ToolRequest tools, ToolCallStyle style) {
        ObjectNode c = toolsConstraint(request);
        c.put("tool_call_style", style.id());
        if (tools.answer() != null) c.set("answer", tools.answer());
        RequestSpec spec = new RequestSpec(Kind.MODEL_TOOL_CALLS, c, null, null, null);
        spec.tools = tools;
        return spec;
    }

    /**
     * This spec for a vocabulary: when the request's tools may be written in a model's format (no
     * style named in the request), the style of {@code serverStyle} (null: none), else the one
     * {@link ToolCallFormats#detect detected} from the vocabulary's special tokens; Domino's own shape
     * when neither names one. A {@link Kind#MODEL_TOOL_CALLS} spec takes the vocabulary for its
     * text-or-token frame pieces. The resolved spec's {@link #key()} names the style; callers keep the
     * request's key for caching (it, the vocabulary and the server option determine the result).
     */
    public RequestSpec resolve(Vocabulary vocabulary, ToolCallStyle serverStyle) {
        if (tools == null) return this;
        ToolCallStyle style = tools.style();
        if (style == null) style = serverStyle != null ? serverStyle : ToolCallFormats.detect(vocabulary);
        if (style == null || style == ToolCallStyle.DOMINO_JSON) return this;
        ObjectNode c = constraint.deepCopy();
        c.remove("tools_request");
        if (kind != Kind.MODEL_TOOL_CALLS) {
            ObjectNode t = (ObjectNode) constraint.get("tools_request");
            c = t.deepCopy();
            c.put("tool_call_style", style.id());
            if (tools.answer() != null) c.set("answer", tools.answer());
            if (compactJson) c.put("disable_any_whitespace", true);
        }
        RequestSpec r = new RequestSpec(Kind.MODEL_TOOL_CALLS, c, null, null, null);
        r.tools = new ToolRequest(tools.functions(), tools.choice(), tools.named(), tools.parallel(), style, tools.answer());
        r.compactJson = compactJson;
        r.toolVocabulary = vocabulary;
        ToolCallFormats.requireTokens(style, vocabulary);
        return r;
    }

    /** A schema given as an object, a boolean or JSON text. */
    private static JsonNode schemaValue(JsonNode v, String at) {
        if (v.isTextual()) v = embeddedJson(v.asText(), at);
        if (!(v.isObject() || v.isBoolean())) throw new RequestSpecException(at, "expected a JSON Schema");
        return v;
    }

    /** Checks nesting depth (and with {@code text}, lone surrogates) below {@code at}. */
    private static void strict(JsonNode n, String at, boolean text) {
        try {
            if (text) StrictJson.checkTree(n);
            else StrictJson.checkDepth(n);
        } catch (StrictJson.Invalid e) {
            throw new RequestSpecException(at + e.pointer(), e.reason());
        }
    }

    /** JSON carried as a string field ({@code json}, {@code structural_tag}), read strictly. */
    private static JsonNode embeddedJson(String text, String at) {
        try {
            return StrictJson.parse(text);
        } catch (StrictJson.Invalid e) {
            throw new RequestSpecException(at + e.pointer(), "not valid JSON: " + e.reason());
        }
    }

    private static RequestSpec responseFormat(JsonNode rf, Flags flags) {
        if (!rf.isObject() || !rf.path("type").isTextual()) {
            throw new RequestSpecException("/response_format", "expected {\"type\": \"json_schema\" | \"json_object\" | \"text\", ...}");
        }
        String type = rf.get("type").asText();
        switch (type) {
            case "text": KnownFields.check(rf, "/response_format", List.of("type")); return text();
            case "json_object": { // llama.cpp: {"type": "json_object", "schema": {...}}
                KnownFields.check(rf, "/response_format", List.of("type", "schema"));
                JsonNode schema = rf.get("schema");
                return RequestFields.present(schema) ? jsonSchema(schemaValue(schema, "/response_format/schema"), "/response_format/schema", flags)
                        : jsonObject();
            }
            case "structural_tag": return structuralTag(rf, "/response_format", flags); // {"type": "structural_tag", "format": ...} or {"structures", "triggers"}
            case "json_schema": {
                KnownFields.check(rf, "/response_format", List.of("type", "json_schema", "schema"));
                JsonNode js = rf.get("json_schema");
                if (js == null && RequestFields.present(rf.get("schema"))) { // llama.cpp: {"type": "json_schema", "schema": {...}}
                    return jsonSchema(schemaValue(rf.get("schema"), "/response_format/schema"), "/response_format/schema", flags);
                }
                if (js == null || !js.isObject()) throw new RequestSpecException("/response_format/json_schema", "expected an object {\"name\": ..., \"schema\": {...}}");
                KnownFields.check(js, "/response_format/json_schema", List.of("name", "description", "schema", "strict"));
                JsonNode strict = js.get("strict");
                if (strict != null && !strict.isNull() && !strict.isBoolean()) throw new RequestSpecException("/response_format/json_schema/strict", "expected true or false");
                JsonNode schema = js.get("schema");
                if (schema == null || !(schema.isObject() || schema.isBoolean())) {
                    throw new RequestSpecException("/response_format/json_schema/schema", "expected a JSON Schema");
                }
                return jsonSchema(schema, "/response_format/json_schema/schema", flags);
            }
            default:
                throw new RequestSpecException("/response_format/type", "unknown type '" + type + "': expected json_schema, json_object, structural_tag or text");
        }
    }

    private static RequestSpec tools(JsonNode request, Flags flags) {
        Map<String, JsonNode> functions = new java.util.LinkedHashMap<>(ToolCallSchemas.functions(request.get("tools")));
        if (flags.closedObjects()) functions.replaceAll((name, params) -> flags.schema(params, "/tools"));
        JsonNode choice = request.get("tool_choice");
        JsonNode parallelNode = request.get("parallel_tool_calls");
        if (parallelNode != null && !parallelNode.isNull() && !parallelNode.isBoolean()) {
            throw new RequestSpecException("/parallel_tool_calls", "expected true or false");
        }
        boolean parallel = parallelNode == null || parallelNode.isNull() || parallelNode.asBoolean();
        if (choice == null || choice.isNull() || choice.isTextual() && (choice.asText().equals("auto") || choice.asText().equals("none"))) {
            return null; // the output is free; response_format (if any) applies
        }
        if (choice.isTextual()) {
            if (!choice.asText().equals("required")) {
                throw new RequestSpecException("/tool_choice", "unknown value '" + choice.asText() + "': expected auto, required, none or {\"type\": \"function\", \"function\": {\"name\": ...}}");
            }
            return new RequestSpec(Kind.TOOL_CALLS, toolsConstraint(request), SourceFormat.JSON_SCHEMA,
                    () -> ToolCallSchemas.required(functions, parallel).toString(), null);
        }
        JsonNode name = choice.path("function").path("name");
        if (!name.isTextual()) name = choice.path("name"); // the Responses API: {"type": "function", "name": ...}
        if (!choice.isObject() || !name.isTextual()) {
            throw new RequestSpecException("/tool_choice", "expected auto, required, none or {\"type\": \"function\", \"function\": {\"name\": ...}}");
        }
        JsonNode schema = ToolCallSchemas.named(functions, name.asText());
        if (flags.closedObjects()) schema = schema.deepCopy(); // the key holds what is enforced
        return new RequestSpec(Kind.NAMED_TOOL, wrapped("json_schema", schema), SourceFormat.JSON_SCHEMA, schema::toString, null);
    }

    /** The fields of a tools request the grammar depends on. */
    private static ObjectNode toolsConstraint(JsonNode request) {
        ObjectNode o = F.objectNode();
        o.set("tools", request.get("tools"));
        if (RequestFields.flag(request, "disable_additional_properties")) o.put("disable_additional_properties", true);
        o.set("tool_choice", request.get("tool_choice"));
        JsonNode parallel = request.get("parallel_tool_calls");
        if (parallel != null && !parallel.isNull()) o.set("parallel_tool_calls", parallel);
        return o;
    }

    private static void vendor(JsonNode o, String at, List<RequestSpec> found, Flags flags) {
        vendorFields(o, at, "", found, flags);
        if (at.isEmpty()) vendorFields(o, at, "guided_", found, flags); // vLLM's older names: guided_json, guided_regex, ...
    }

    private static void vendorFields(JsonNode o, String at, String prefix, List<RequestSpec> found, Flags flags) {
        JsonNode regex = o.get(prefix + "regex");
        if (regex != null && !regex.isNull()) {
            if (!regex.isTextual()) throw new RequestSpecException(at + "/" + prefix + "regex", "expected a string");
            found.add(new RequestSpec(Kind.REGEX, wrapped("regex", regex), SourceFormat.REGEX, regex::asText, null));
        }
        JsonNode choice = o.get(prefix + "choice");
        if (choice != null && !choice.isNull()) {
            if (!choice.isArray() || choice.isEmpty()) throw new RequestSpecException(at + "/" + prefix + "choice", "expected a non-empty array of strings");
            List<String> options = new ArrayList<>();
            for (int i = 0; i < choice.size(); i++) {
                if (!choice.get(i).isTextual()) throw new RequestSpecException(at + "/" + prefix + "choice/" + i, "expected a string");
                options.add(choice.get(i).asText());
            }
            found.add(new RequestSpec(Kind.CHOICE, wrapped("choice", choice), null, null, List.copyOf(options)));
        }
        JsonNode grammar = o.get(prefix + "grammar");
        if (grammar != null && !grammar.isNull()) {
            if (grammar.isTextual()) {
                found.add(new RequestSpec(Kind.GBNF, wrapped("gbnf", grammar), SourceFormat.GBNF, grammar::asText, null));
            } else if (grammar.isObject() && grammar.size() == 1 && (grammar.path("gbnf").isTextual() || grammar.path("lark").isTextual())) {
                boolean gbnf = grammar.has("gbnf");
                JsonNode text = grammar.get(gbnf ? "gbnf" : "lark");
                found.add(new RequestSpec(gbnf ? Kind.GBNF : Kind.LARK, wrapped(gbnf ? "gbnf" : "lark", text),
                        gbnf ? SourceFormat.GBNF : SourceFormat.LARK, text::asText, null));
            } else {
                throw new RequestSpecException(at + "/" + prefix + "grammar", "expected {\"gbnf\": TEXT}, {\"lark\": TEXT} or a GBNF string");
            }
        }
        JsonNode json = o.get(prefix + "json");
        if (json != null && !json.isNull()) {
            if (json.isTextual()) {
                json = embeddedJson(json.asText(), at + "/" + prefix + "json");
            }
            if (!(json.isObject() || json.isBoolean())) throw new RequestSpecException(at + "/" + prefix + "json", "expected a JSON Schema");
            found.add(jsonSchema(json, at + "/" + prefix + "json", flags));
        }
        if (!prefix.isEmpty()) return;
        JsonNode jsonObject = o.get("json_object");
        if (jsonObject != null && jsonObject.asBoolean(false)) found.add(jsonObject());
        JsonNode tag = o.get("structural_tag");
        if (tag != null && !tag.isNull()) {
            if (tag.isTextual()) { // vLLM passes it as a JSON string
                tag = embeddedJson(tag.asText(), at + "/structural_tag");
            }
            if (!tag.isObject()) throw new RequestSpecException(at + "/structural_tag", "expected an object (see StructuralTags)");
            found.add(structuralTag(tag, at + "/structural_tag", flags));
        }
    }

    private static ObjectNode wrapped(String field, JsonNode value) {
        ObjectNode o = F.objectNode();
        o.set(field, value);
        return o;
    }

    private static RequestSpec jsonSchema(JsonNode schema, String at, Flags flags) {
        JsonNode enforced = flags.schema(schema, at);
        if (enforced != schema) return new RequestSpec(Kind.JSON_SCHEMA, wrapped("json_schema", enforced), SourceFormat.JSON_SCHEMA, enforced::toString, null);
        return new RequestSpec(Kind.JSON_SCHEMA, wrapped("json_schema", schema), SourceFormat.JSON_SCHEMA, schema::toString, null);
    }

    private static RequestSpec structuralTag(JsonNode tag, String at, Flags flags) {
        if (flags.closedObjects()) tag = ClosedObjects.inStructuralTag(tag, at);
        return new RequestSpec(Kind.STRUCTURAL_TAG, wrapped("structural_tag", tag), null, null, null);
    }

    private static RequestSpec jsonObject() {
        String schema = "{\"type\":\"object\"}";
        return new RequestSpec(Kind.JSON_OBJECT, wrapped("json_schema", F.objectNode().put("type", "object")), SourceFormat.JSON_SCHEMA, () -> schema, null);
    }

    private static RequestSpec text() {
        return new RequestSpec(Kind.TEXT, wrapped("text", F.booleanNode(true)), null, null, null);
    }

    public Kind kind() { return kind; }

    /** The tool-call style of a {@link Kind#MODEL_TOOL_CALLS} spec, else null. */
    public ToolCallStyle toolCallStyle() { return kind == Kind.MODEL_TOOL_CALLS ? tools.style() : null; }

    /** A {@link Kind#MODEL_TOOL_CALLS} spec as the structural tag it compiles to (XGrammar's format). */
    public ObjectNode toolCallTag() {
        if (kind != Kind.MODEL_TOOL_CALLS) throw new IllegalStateException("not a tool-call spec: " + kind);
        return ToolCallFormats.structuralTag(tools, tools.style(), toolVocabulary);
    }

    /** The constraint alone (no messages, no sampling settings): what the grammar depends on. */
    public ObjectNode constraint() { return constraint.deepCopy(); }

    /** The constraint as compact JSON: the cache key's spec part (equal keys, equal grammars). */
    public String key() { return key; }

    /** Format name recorded in the artifact: json-schema, regex, gbnf, lark, choice, structural-tag, tool-calls or text. */
    public String sourceFormat() {
        if (format != null) return format.id();
        return switch (kind) {
            case CHOICE -> "choice";
            case STRUCTURAL_TAG -> "structural-tag";
            case MODEL_TOOL_CALLS -> "tool-calls";
            default -> "text";
        };
    }

    /** Text recorded (hashed) in the artifact: the grammar or schema text, else the constraint's JSON. */
    public synchronized String sourceText() {
        if (sourceMaker == null) return key;
        if (source == null) source = sourceMaker.get();
        return source;
    }

    /** The grammar of the constraint (JSON Schemas through their front-end with {@code options}). */
    public GrammarSources.Parsed grammar(JsonSchemaOptions options) {
        if (compactJson) options = options.withWhitespace(JsonSchemaOptions.Whitespace.COMPACT);
        if (format != null) return GrammarSources.parse(sourceText(), format, options);
        if (kind == Kind.STRUCTURAL_TAG) return StructuralTags.parse(constraint.get("structural_tag"), options);
        if (kind == Kind.MODEL_TOOL_CALLS) return StructuralTags.parse(toolCallTag(), options);
        Expr root;
        if (kind == Kind.CHOICE) {
            List<Expr> alternatives = new ArrayList<>();
            for (String c : choices) alternatives.add(c.isEmpty() ? Expr.seq() : Expr.literal(c));
            root = alternatives.size() == 1 ? alternatives.get(0) : new Expr.Alt(alternatives);
        } else {
            root = Expr.star(Expr.chars(CodePointSet.ANY)); // any text
        }
        return new GrammarSources.Parsed(Grammar.of("root", Map.of("root", root)), Map.of(), List.of(), false);
    }
}
