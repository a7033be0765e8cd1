package dev.domino.compiler.structural;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Structural tags: a JSON spec (after XGrammar's {@code structural_tag}) compiled into one grammar.
 * Free text runs until a trigger (a string or a special token), then a tagged body constrained by
 * a JSON Schema or a grammar, then an end tag, once or repeated; or reasoning first ({@code <think>}
 * … {@code </think>}) and a constrained answer after. Entry point: {@link #parse(JsonNode, JsonSchemaOptions)}.
 *
 * <p>Formats ({@code "type"}):
 * <ul>
 *   <li>{@code const_string} {@code {"value": "..."}}: exactly that text;</li>
 *   <li>{@code json_schema} {@code {"json_schema": {...}}}: a JSON value valid under the schema;</li>
 *   <li>{@code grammar} {@code {"grammar": "GBNF text"}}, {@code regex} {@code {"pattern": "..."}};</li>
 *   <li>{@code token} {@code {"token": "<|eom_id|>"}} or {@code {"token_id": 128008}}: one special token;</li>
 *   <li>{@code any_text}: any text; inside a {@code tag} it is the text up to the first occurrence of
 *   the end (lazy). {@code "max_tokens": N} bounds it in tokens, for an end that is a token;</li>
 *   <li>{@code sequence} / {@code or} {@code {"elements": [...]}};</li>
 *   <li>{@code tag} {@code {"begin": B, "content": FORMAT, "end": E}}: B and E are strings (text) or
 *   {@code {"token": ...}} / {@code {"token_id": N}} objects (whole special tokens);</li>
 *   <li>{@code triggered_tags} {@code {"triggers": [...], "tags": [...], "at_least_one": false,
 *   "stop_after_first": false}}: free text until a trigger (the first occurrence of a text trigger; a
 *   token trigger is the token), then a tag whose begin starts with that trigger; repeated, with free
 *   text after the last tag.</li>
 * </ul>
 * The whole spec may be {@code {"type": "structural_tag", "format": FORMAT}} or a bare format; the
 * older XGrammar form {@code {"structures": [{"begin", "schema", "end"}], "triggers": [...]}} is read
 * as {@code triggered_tags}. Free text is text (no special tokens) and its masks OR one precomputed
 * set per automaton state (see {@link Expr.Lazy}).
 */
public final class StructuralTags {
    private final JsonSchemaOptions options;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final Map<String, String> recorded = new LinkedHashMap<>();
    private final List<String> ignoredKeywords = new ArrayList<>();
    private int subGrammars;

    private StructuralTags(JsonSchemaOptions options) { this.options = options; }

    /** The grammar of a structural-tag spec (start rule {@code root}). */
    public static GrammarSources.Parsed parse(JsonNode spec, JsonSchemaOptions options) {
        StructuralTags c = new StructuralTags(options);
        c.rules.put("root", Expr.EMPTY); // first, so that it is the start rule
        c.rules.put("root", c.top(spec));
        c.recorded.put("structural_tag", "1");
        return new GrammarSources.Parsed(Grammar.of("root", c.rules), c.recorded, c.ignoredKeywords, true);
    }

    private Expr top(JsonNode spec) {
        if (!spec.isObject()) throw error("a structural tag spec must be a JSON object", "");
        if (spec.has("structures")) return legacy(spec);
        if (spec.path("type").asText("").equals("structural_tag")) {
            Fields.check(spec, "", "structural_tag", "type", "format");
            if (!spec.has("format")) throw error("missing 'format'", "");
            return format(spec.get("format"), "/format", List.of());
        }
        return format(spec, "", List.of());
    }

    /** XGrammar's first form: structures [{begin, schema, end}] and triggers. */
    private Expr legacy(JsonNode spec) {
        Fields.check(spec, "", "structural_tag", "type", "structures", "triggers");
        List<Tagged> tagged = new ArrayList<>();
        JsonNode structures = spec.get("structures");
        if (!structures.isArray() || structures.isEmpty()) throw error("'structures' must be a non-empty array", "/structures");
        for (int i = 0; i < structures.size(); i++) {
            JsonNode s = structures.get(i);
            String at = "/structures/" + i;
            if (!s.isObject()) throw error("expected a structure object", at);
            Fields.check(s, at, "structure", "begin", "schema", "end");
            Marker begin = marker(s.get("begin"), at + "/begin");
            List<Marker> end = List.of(marker(s.get("end"), at + "/end"));
            Expr content = jsonSchema(s.get("schema"), at + "/schema");
            tagged.add(new Tagged(begin, content, end, at, null));
        }
        return triggered(triggers(spec.get("triggers"), "/triggers"), tagged, List.of(), false, false, "");
    }

    // ------------------------------------------------------------------ formats

    /**
     * A format. {@code ends}: the end markers of the tag whose content this format directly is
     * (empty elsewhere): an unlimited format (any_text, triggered_tags, dispatch, their token
     * versions) stops at them, as XGrammar's end detection does.
     */
    private Expr format(JsonNode f, String at, List<Marker> ends) {
        if (f == null || !f.isObject()) throw error("expected a format object", at);
        String type = f.path("type").asText("");
        Fields.checkFormat(f, at, type);
        return switch (type) {
            case "const_string" -> new Expr.Literal(text(f, "value", at));
            case "json_schema" -> jsonSchemaFormat(f, at);
            case "qwen_xml_parameter" -> qwenXml(f.get("json_schema"), at + "/json_schema");
            case "grammar" -> gbnf(text(f, "grammar", at), at + "/grammar");
            case "regex" -> regex(text(f, "pattern", at), at + "/pattern");
            case "token" -> tokenMarker(f.get("token"), at + "/token").expr();
            case "exclude_token" -> anyTokenBut(optionalTokenList(f, "exclude_tokens", at), tokenLevel(ends));
            case "any_tokens" -> anyTokens(f, at, ends);
            case "any_text" -> anyText(f, at, ends);
            case "sequence" -> new Expr.Seq(elements(f, at));
            case "or" -> new Expr.Alt(elements(f, at));
            case "optional" -> Expr.optional(format(required(f, "content", at), at + "/content", List.of()));
            case "star" -> Expr.star(format(required(f, "content", at), at + "/content", List.of()));
            case "plus" -> Expr.plus(format(required(f, "content", at), at + "/content", List.of()));
            case "repeat" -> repeat(f, at);
            case "tag" -> tag(f, at);
            case "triggered_tags" -> triggered(triggers(f.get("triggers"), at + "/triggers"), tagList(f.get("tags"), at + "/tags"),
                    plus(excludes(f.get("excludes"), at + "/excludes"), textual(ends)),
                    flag(f, "at_least_one", at), flag(f, "stop_after_first", at), at);
            case "token_triggered_tags" -> triggered(tokenList(f.get("trigger_tokens"), at + "/trigger_tokens"),
                    tagList(f.get("tags"), at + "/tags"), plus(optionalTokenList(f, "exclude_tokens", at), tokenLevel(ends)),
                    flag(f, "at_least_one", at), flag(f, "stop_after_first", at), at);
            case "tags_with_separator" -> tagsWithSeparator(f, at);
            case "dispatch" -> dispatch(f, at, plus(excludes(f.get("excludes"), at + "/excludes"), textual(ends)), false);
            case "token_dispatch" -> dispatch(f, at, plus(optionalTokenList(f, "exclude_tokens", at), tokenLevel(ends)), true);
            default -> throw error("unknown format type '" + type + "' (expected one of " + String.join(", ", Fields.TYPES) + ")",
                    at + "/type");
        };
    }

    private List<Expr> elements(JsonNode f, String at) {
        JsonNode list = f.get("elements");
        if (list == null || !list.isArray() || list.isEmpty()) throw error("'elements' must be a non-empty array", at + "/elements");
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(format(list.get(i), at + "/elements/" + i, List.of()));
        return out;
    }

    private Expr repeat(JsonNode f, String at) {
        int min = integer(f, "min", at, 0);
        JsonNode maxNode = required(f, "max", at);
        int max = maxNode.canConvertToInt() && maxNode.asInt() == -1 ? Expr.Repeat.UNBOUNDED : integer(f, "max", at, min);
        return new Expr.Repeat(format(required(f, "content", at), at + "/content", List.of()), min, max);
    }

    private Expr jsonSchemaFormat(JsonNode f, String at) {
        if (f.path("any_order").asBoolean(false)) {
            throw error("'any_order': true (XGrammar's order-free objects that drop the required check) is not supported", at + "/any_order");
        }
        if (f.has("any_order") && !f.get("any_order").isBoolean()) throw error("'any_order' must be a boolean", at + "/any_order");
        String style = f.has("style") ? text(f, "style", at) : "json";
        return switch (style) {
            case "json" -> jsonSchema(f.get("json_schema"), at + "/json_schema");
            case "qwen_xml" -> qwenXml(f.get("json_schema"), at + "/json_schema");
            default -> throw error("style '" + style + "' is not supported (supported: json, qwen_xml)", at + "/style");
        };
    }

    /** Text, up to the enclosing tag's end when there is one, without the excluded strings. */
    private Expr anyText(JsonNode f, String at, List<Marker> ends) {
        List<Marker> excludes = excludes(f.get("excludes"), at + "/excludes");
        if (f.has("max_chars")) {
            int max = integer(f, "max_chars", at, 0);
            if (f.has("max_tokens")) throw error("'max_chars' together with 'max_tokens' is not supported", at + "/max_chars");
            Expr bounded = new Expr.Repeat(new Expr.Chars(CodePointSet.ANY), 0, max);
            if (excludes.isEmpty() && ends.isEmpty()) return bounded;
            return BoundedText.of(bounded, texts(excludes), texts(ends), tokenLevel(ends).isEmpty() ? null : alt(tokenLevel(ends)), at + "/max_chars");
        }
        List<Expr> textEnds = texts(ends);
        Expr end = ends.isEmpty() ? null : alt(ends);
        if (f.has("max_tokens")) {
            int n = integer(f, "max_tokens", at, 0);
            if (ends.isEmpty() || !textEnds.isEmpty()) {
                throw error("'max_tokens' needs to be the content of a tag whose end is a token ({\"token\": ...}); a text end cannot count tokens", at + "/max_tokens");
            }
            if (!excludes.isEmpty()) throw error("'max_tokens' together with 'excludes' is not supported", at + "/max_tokens");
            return new Expr.Seq(List.of(new Expr.Repeat(anyTokenBut(ends, List.of()), 0, n), end));
        }
        List<Expr> stops = new ArrayList<>(texts(excludes));
        if (ends.isEmpty()) return stops.isEmpty() ? Expr.star(new Expr.Chars(CodePointSet.ANY)) : Expr.Lazy.without(alt(stops));
        if (textEnds.isEmpty()) {
            // a token end: the text cannot contain it (it is a token, not text)
            Expr text = stops.isEmpty() ? Expr.star(new Expr.Chars(CodePointSet.ANY)) : Expr.Lazy.without(alt(stops));
            return new Expr.Seq(List.of(text, end));
        }
        if (stops.isEmpty() && textEnds.size() == ends.size()) return Expr.Lazy.upTo(end);
        stops.addAll(textEnds);
        return new Expr.Seq(List.of(Expr.Lazy.without(alt(stops)), end));
    }

    /** Tokens but the excluded ones (and the enclosing tag's end tokens), at most max_tokens of them. */
    private Expr anyTokens(JsonNode f, String at, List<Marker> ends) {
        List<Marker> excluded = plus(optionalTokenList(f, "exclude_tokens", at), tokenLevel(ends));
        Expr one = anyTokenBut(excluded, List.of());
        Expr body = f.has("max_tokens") ? new Expr.Repeat(one, 0, integer(f, "max_tokens", at, 0)) : Expr.star(one);
        return body;
    }

    /** One token that is none of {@code excluded} nor a token of {@code alsoExcluded}. */
    private static Expr.TokenRef anyTokenBut(List<Marker> excluded, List<Marker> alsoExcluded) {
        List<String> texts = new ArrayList<>();
        List<int[]> ids = new ArrayList<>();
        for (Marker m : plus(excluded, alsoExcluded)) {
            if (m.token() == null) continue;
            texts.addAll(m.token().texts());
            ids.addAll(m.token().ranges());
        }
        return new Expr.TokenRef(texts, ids, true, 0, 0);
    }

    /** begin, content, end: an unlimited content stops at the end. */
    private Expr tag(JsonNode f, String at) {
        Marker begin = marker(f.get("begin"), at + "/begin");
        List<Marker> ends = endMarkers(f.get("end"), at + "/end");
        return new Expr.Seq(List.of(begin.expr(), body(f.get("content"), ends, at + "/content")));
    }

    /** A tag's content followed by its end. */
    private Expr body(JsonNode content, List<Marker> ends, String at) {
        if (content == null) throw error("missing 'content'", at);
        Expr c = format(content, at, ends);
        // any_text places the end itself (its lazy match ends at it)
        if (content.path("type").asText("").equals("any_text")) return c;
        return new Expr.Seq(List.of(c, alt(ends)));
    }

    private List<Marker> endMarkers(JsonNode end, String at) {
        if (end != null && end.isArray()) {
            if (end.isEmpty()) throw error("'end' must not be an empty array", at);
            List<Marker> out = new ArrayList<>();
            for (int i = 0; i < end.size(); i++) {
                if (!end.get(i).isTextual()) throw error("an 'end' array holds strings", at + "/" + i);
                out.add(marker(end.get(i), at + "/" + i));
            }
            return out;
        }
        return List.of(marker(end, at));
    }

    // ------------------------------------------------------------------ triggers, separators, dispatch

    /** A tag of triggered_tags or tags_with_separator; content is parsed once its ends are known. */
    private record Tagged(Marker begin, Expr content, List<Marker> ends, String at, JsonNode contentSpec) {}

    private List<Tagged> tagList(JsonNode list, String at) {
        if (list == null || !list.isArray() || list.isEmpty()) throw error("'tags' must be a non-empty array", at);
        List<Tagged> tags = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode t = list.get(i);
            String tat = at + "/" + i;
            if (!t.isObject()) throw error("expected a tag object", tat);
            if (t.has("type") && !t.path("type").asText("").equals("tag")) throw error("expected a tag (\"type\": \"tag\")", tat + "/type");
            Fields.checkFormat(t, tat, "tag");
            tags.add(new Tagged(marker(t.get("begin"), tat + "/begin"), null, endMarkers(t.get("end"), tat + "/end"), tat, t.get("content")));
        }
        return tags;
    }

    private Expr tagExpr(Tagged tag) {
        return tag.content() != null ? new Expr.Seq(List.of(tag.content(), alt(tag.ends())))
                : body(tag.contentSpec(), tag.ends(), tag.at() + "/content");
    }

    private List<Marker> triggers(JsonNode list, String at) {
        if (list == null || !list.isArray() || list.isEmpty()) throw error("'triggers' must be a non-empty array", at);
        List<Marker> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(marker(list.get(i), at + "/" + i));
        return out;
    }

    /**
     * Free text (or free tokens) until a trigger, then a tag whose begin starts with it; repeated,
     * free text after the last. The free part never holds a trigger nor an excluded string or token.
     * at_least_one: the first tag starts the output (no leading free text); stop_after_first: the
     * structure ends with the first tag.
     */
    private Expr triggered(List<Marker> triggers, List<Tagged> tags, List<Marker> excludes, boolean atLeastOne,
                           boolean stopAfterFirst, String at) {
        for (Marker t : triggers) if (t.text() != null && t.text().isEmpty()) throw error("a trigger must not be empty", at + "/triggers");
        Expr freeText = free(plus(triggers, excludes));
        List<Expr> segments = new ArrayList<>();
        List<Expr> whole = new ArrayList<>();
        boolean[] used = new boolean[tags.size()];
        List<Expr> textTriggers = texts(triggers);
        for (Marker trigger : triggers) {
            List<Expr> rests = new ArrayList<>();
            for (int i = 0; i < tags.size(); i++) {
                Tagged tag = tags.get(i);
                Expr rest = remainder(trigger, tag.begin());
                if (rest == null) continue;
                used[i] = true;
                rests.add(new Expr.Seq(List.of(rest, tagExpr(tag))));
            }
            if (rests.isEmpty()) continue;
            Expr afterTrigger = Expr.alt(rests.toArray(new Expr[0]));
            whole.add(new Expr.Seq(List.of(trigger.expr(), afterTrigger)));
            // the free text ends at the trigger's first occurrence: one text trigger and no excludes, a
            // lazy match; otherwise free text then this trigger (exact when no trigger or exclude overlaps another)
            Expr upToTrigger = trigger.text() != null && textTriggers.size() == 1 && texts(excludes).isEmpty()
                    ? Expr.Lazy.upTo(new Expr.Literal(trigger.text()))
                    : new Expr.Seq(List.of(freeText, trigger.expr()));
            segments.add(new Expr.Seq(List.of(upToTrigger, afterTrigger)));
        }
        for (int i = 0; i < tags.size(); i++) {
            if (!used[i]) throw error("the tag's begin starts with none of the triggers", tags.get(i).at() + "/begin");
        }
        Expr one = rule(Expr.alt(segments.toArray(new Expr[0])));
        Expr first = atLeastOne ? rule(Expr.alt(whole.toArray(new Expr[0]))) : one;
        if (stopAfterFirst) return atLeastOne ? first : Expr.alt(freeText, one);
        if (atLeastOne) return new Expr.Seq(List.of(first, Expr.star(one), freeText));
        return new Expr.Seq(List.of(Expr.star(one), freeText));
    }

    /** Text without any of the text markers and tokens without any of the token markers. */
    private static Expr free(List<Marker> stops) {
        List<Expr> texts = texts(stops);
        boolean tokens = stops.stream().anyMatch(m -> m.token() != null);
        if (tokens) {
            if (!texts.isEmpty()) throw new GrammarException("structural tag: free text cannot stop at both strings and tokens");
            return Expr.star(anyTokenBut(stops, List.of()));
        }
        return texts.isEmpty() ? Expr.star(new Expr.Chars(CodePointSet.ANY)) : Expr.Lazy.without(alt(texts));
    }

    private Expr tagsWithSeparator(JsonNode f, String at) {
        List<Tagged> tags = tagList(f.get("tags"), at + "/tags");
        Expr separator = new Expr.Literal(text(f, "separator", at));
        List<Expr> each = new ArrayList<>();
        for (Tagged t : tags) each.add(new Expr.Seq(List.of(t.begin().expr(), tagExpr(t))));
        Expr one = rule(Expr.alt(each.toArray(new Expr[0])));
        boolean atLeastOne = flag(f, "at_least_one", at);
        Expr some = flag(f, "stop_after_first", at) ? one : new Expr.Seq(List.of(one, Expr.star(new Expr.Seq(List.of(separator, one)))));
        return atLeastOne ? some : Expr.optional(some);
    }

    /** Free text until a rule's pattern, then its format; again when loop (the default), else the end. */
    private Expr dispatch(JsonNode f, String at, List<Marker> excludes, boolean tokens) {
        JsonNode rulesNode = f.get("rules");
        if (rulesNode == null || !rulesNode.isArray() || rulesNode.isEmpty()) throw error("'rules' must be a non-empty array", at + "/rules");
        List<Marker> triggers = new ArrayList<>();
        List<Tagged> tags = new ArrayList<>();
        for (int i = 0; i < rulesNode.size(); i++) {
            JsonNode r = rulesNode.get(i);
            String rat = at + "/rules/" + i;
            if (!r.isArray() || r.size() != 2) throw error("a rule is a pair [pattern, format]", rat);
            Marker pattern = tokens ? tokenMarker(r.get(0), rat + "/0") : marker(r.get(0), rat + "/0");
            if (!tokens && pattern.text() == null) throw error("a dispatch pattern is a string (token_dispatch takes tokens)", rat + "/0");
            triggers.add(pattern);
            tags.add(new Tagged(pattern, format(r.get(1), rat + "/1", List.of()), List.of(new Marker("", null)), rat, null));
        }
        boolean loop = !f.has("loop") || flag(f, "loop", at);
        return triggered(triggers, tags, excludes, false, !loop, at);
    }

    /** What a tag's begin adds after the trigger, or null when it does not start with it. */
    private static Expr remainder(Marker trigger, Marker begin) {
        if (trigger.token() != null || begin.token() != null) {
            return trigger.token() != null && begin.token() != null && trigger.token().display().equals(begin.token().display()) ? Expr.EMPTY : null;
        }
        return begin.text().startsWith(trigger.text()) ? new Expr.Literal(begin.text().substring(trigger.text().length())) : null;
    }

    private Expr rule(Expr body) {
        String name = "tags" + (subGrammars++);
        rules.put(name, body);
        return new Expr.Ref(name, 0, 0);
    }

    // ------------------------------------------------------------------ small readers

    private static JsonNode required(JsonNode f, String field, String at) {
        JsonNode v = f.get(field);
        if (v == null) throw error("missing '" + field + "'", at);
        return v;
    }

    private static int integer(JsonNode f, String field, String at, int min) {
        JsonNode v = required(f, field, at);
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < min) throw error("'" + field + "' must be an integer >= " + min, at + "/" + field);
        return v.asInt();
    }

    private static boolean flag(JsonNode f, String field, String at) {
        JsonNode v = f.get(field);
        if (v == null) return false;
        if (!v.isBoolean()) throw error("'" + field + "' must be a boolean", at + "/" + field);
        return v.asBoolean();
    }

    private List<Marker> excludes(JsonNode list, String at) {
        if (list == null) return List.of();
        if (!list.isArray()) throw error("'excludes' must be an array of strings", at);
        List<Marker> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!list.get(i).isTextual() || list.get(i).asText().isEmpty()) throw error("an excluded string must be a non-empty string", at + "/" + i);
            out.add(new Marker(list.get(i).asText(), null));
        }
        return out;
    }

    private List<Marker> tokenList(JsonNode list, String at) {
        if (list == null || !list.isArray()) throw error("expected an array of tokens (ids or token texts)", at);
        List<Marker> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(tokenMarker(list.get(i), at + "/" + i));
        return out;
    }

    private List<Marker> optionalTokenList(JsonNode f, String field, String at) {
        return f.has(field) ? tokenList(f.get(field), at + "/" + field) : List.of();
    }

    private static List<Expr> texts(List<Marker> markers) {
        List<Expr> out = new ArrayList<>();
        for (Marker m : markers) if (m.text() != null && !m.text().isEmpty()) out.add(new Expr.Literal(m.text()));
        return out;
    }

    private static Expr alt(List<?> items) {
        List<Expr> out = new ArrayList<>();
        for (Object o : items) out.add(o instanceof Marker m ? m.expr() : (Expr) o);
        return out.size() == 1 ? out.get(0) : new Expr.Alt(out);
    }

    /** The text markers of a list (the stops of a text-level format). */
    private static List<Marker> textual(List<Marker> markers) { return markers.stream().filter(m -> m.text() != null).toList(); }

    /** The token markers of a list (the stops of a token-level format). */
    private static List<Marker> tokenLevel(List<Marker> markers) { return markers.stream().filter(m -> m.token() != null).toList(); }

    private static <T> List<T> plus(List<T> a, List<T> b) {
        if (b.isEmpty()) return a;
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    // ------------------------------------------------------------------ markers and sub-grammars

    /** A begin, end, trigger or excluded string: text, or one special token (by text or id). */
    private record Marker(String text, Expr.TokenRef token) {
        Expr expr() { return token != null ? token : new Expr.Literal(text); }
    }

    private Marker marker(JsonNode n, String at) {
        if (n == null) throw error("missing", at);
        if (n.isTextual()) return new Marker(n.asText(), null);
        if (n.isObject()) {
            if (n.has("type") && !n.path("type").asText("").equals("token")) {
                throw error("a begin or end is a string or a token ({\"type\": \"token\", \"token\": ...})", at + "/type");
            }
            Fields.check(n, at, "token", "type", "token", "token_id");
            if (n.has("token")) return tokenMarker(n.get("token"), at + "/token");
            if (n.has("token_id")) return tokenMarker(n.get("token_id"), at + "/token_id");
        }
        throw error("expected a string or {\"token\": \"...\"} / {\"token_id\": N}", at);
    }

    /** A token by its text ("<|eom_id|>") or its id (128008). */
    private static Marker tokenMarker(JsonNode n, String at) {
        if (n == null) throw error("missing token", at);
        if (n.isObject()) {
            if (n.has("token")) return tokenMarker(n.get("token"), at + "/token");
            if (n.has("token_id")) return tokenMarker(n.get("token_id"), at + "/token_id");
        }
        if (n.isTextual()) {
            if (n.asText().isEmpty()) throw error("a token must be a token's text, e.g. \"<|eom_id|>\"", at);
            return new Marker(null, new Expr.TokenRef(n.asText(), null, false, 0, 0));
        }
        if (n.isIntegralNumber() && n.canConvertToInt() && n.asInt() >= 0) {
            return new Marker(null, new Expr.TokenRef((String) null, List.of(new int[] {n.asInt(), n.asInt()}), false, 0, 0));
        }
        throw error("a token is a non-negative id or a token's text", at);
    }

    private static String text(JsonNode f, String field, String at) {
        JsonNode v = f.get(field);
        if (v == null || !v.isTextual()) throw error("'" + field + "' must be a string", at + "/" + field);
        return v.asText();
    }

    private Expr jsonSchema(JsonNode schema, String at) {
        if (schema == null) throw error("missing JSON schema", at);
        GrammarSources.Parsed parsed;
        try {
            parsed = GrammarSources.parse(schema.toString(), SourceFormat.JSON_SCHEMA, options);
        } catch (GrammarException e) {
            throw error(e.getMessage(), at);
        }
        recorded.putAll(parsed.options());
        ignoredKeywords.addAll(parsed.ignoredKeywords());
        return embed(parsed.grammar());
    }

    private Expr qwenXml(JsonNode schema, String at) {
        return QwenXmlParameters.of(schema, at, this::jsonSchema);
    }

    private Expr gbnf(String text, String at) {
        try {
            return embed(GbnfParser.parse(text));
        } catch (GrammarException e) {
            throw error("in the grammar: " + e.getMessage(), at);
        }
    }

    private Expr regex(String pattern, String at) {
        try {
            return RegexParser.parse(pattern, RegexParser.Flavor.COMMON);
        } catch (GrammarException e) {
            throw error("in the regex: " + e.getMessage(), at);
        }
    }

    /** Adds a sub-grammar's rules under a fresh prefix; returns a reference to its start. */
    private Expr embed(Grammar g) {
        if (!g.lexicalRules().isEmpty() || !g.ignored().isEmpty()) throw new GrammarException("grammars with terminals or %ignore cannot be embedded");
        String prefix = "g" + (subGrammars++) + "_";
        Renamer r = new Renamer(prefix);
        for (Map.Entry<String, Expr> e : g.rules().entrySet()) rules.put(prefix + e.getKey(), r.rename(e.getValue()));
        return new Expr.Ref(prefix + g.start(), 0, 0);
    }

    /** Prefixes rule references (memoized by identity: generated grammars are DAGs). */
    private static final class Renamer {
        private final String prefix;
        private final IdentityHashMap<Expr, Expr> done = new IdentityHashMap<>();

        Renamer(String prefix) { this.prefix = prefix; }

        Expr rename(Expr e) {
            Expr cached = done.get(e);
            if (cached != null) return cached;
            Expr out;
            if (e instanceof Expr.Ref r) out = new Expr.Ref(prefix + r.name(), r.line(), r.column());
            else if (e instanceof Expr.Seq s) out = new Expr.Seq(s.items().stream().map(this::rename).toList());
            else if (e instanceof Expr.Alt a) out = new Expr.Alt(a.options().stream().map(this::rename).toList());
            else if (e instanceof Expr.Repeat rep) out = new Expr.Repeat(rename(rep.body()), rep.min(), rep.max());
            else if (e instanceof Expr.Lazy u) out = new Expr.Lazy(rename(u.body()), u.consume());
            else if (e instanceof Expr.Perm p) {
                out = new Expr.Perm(p.members().stream().map(m -> new Expr.Perm.Member(rename(m.body()), m.required())).toList(),
                        rename(p.other()), rename(p.separator()), p.minCount(), p.maxCount());
            }
            else if (e instanceof Expr.UniqueArray u) {
                out = new Expr.UniqueArray(rename(u.open()), u.prefix().stream().map(this::rename).toList(), rename(u.item()), rename(u.separator()), rename(u.close()), u.minItems(), u.maxItems());
            }
            else out = e; // literals, classes, token references
            done.put(e, out);
            return out;
        }
    }

    private static GrammarException error(String message, String pointer) {
        return new GrammarException("structural tag" + (pointer.isEmpty() ? "" : " at " + pointer) + ": " + message);
    }
}
