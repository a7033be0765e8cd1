package dev.domino.compiler.structural;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.FrontEndOptions;
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
 * … {@code </think>}) and a constrained answer after. Entry point: {@link #parse(JsonNode, FrontEndOptions)}.
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
    private final FrontEndOptions options;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final Map<String, String> recorded = new LinkedHashMap<>();
    private final List<String> ignoredKeywords = new ArrayList<>();
    private int subGrammars;

    private StructuralTags(FrontEndOptions options) { this.options = options; }

    /** The grammar of a structural-tag spec (start rule {@code root}). */
    public static GrammarSources.Parsed parse(JsonNode spec, FrontEndOptions options) {
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
            if (!spec.has("format")) throw error("missing 'format'", "");
            return format(spec.get("format"), "/format");
        }
        return format(spec, "");
    }

    /** XGrammar's first form: structures [{begin, schema, end}] and triggers. */
    private Expr legacy(JsonNode spec) {
        List<Expr> tags = new ArrayList<>();
        List<Tagged> tagged = new ArrayList<>();
        JsonNode structures = spec.get("structures");
        if (!structures.isArray() || structures.isEmpty()) throw error("'structures' must be a non-empty array", "/structures");
        for (int i = 0; i < structures.size(); i++) {
            JsonNode s = structures.get(i);
            String at = "/structures/" + i;
            Marker begin = marker(s.get("begin"), at + "/begin");
            Marker end = marker(s.get("end"), at + "/end");
            Expr content = jsonSchema(s.get("schema"), at + "/schema");
            tagged.add(new Tagged(begin, content, end, at));
        }
        return triggered(triggers(spec.get("triggers"), "/triggers"), tagged, false, false, "");
    }

    // ------------------------------------------------------------------ formats

    private Expr format(JsonNode f, String at) {
        if (f == null || !f.isObject()) throw error("expected a format object", at);
        String type = f.path("type").asText("");
        return switch (type) {
            case "const_string" -> new Expr.Literal(text(f, "value", at));
            case "json_schema" -> jsonSchema(f.get("json_schema"), at + "/json_schema");
            case "grammar" -> gbnf(text(f, "grammar", at), at + "/grammar");
            case "regex" -> regex(text(f, "pattern", at), at + "/pattern");
            case "token" -> marker(f, at).expr();
            case "any_text" -> {
                if (f.has("max_tokens")) throw error("'max_tokens' needs a tag whose end is a token ({\"token\": ...})", at);
                yield Expr.star(new Expr.Chars(CodePointSet.ANY));
            }
            case "sequence" -> new Expr.Seq(elements(f, at));
            case "or" -> new Expr.Alt(elements(f, at));
            case "tag" -> tag(f, at);
            case "triggered_tags" -> {
                List<Tagged> tags = new ArrayList<>();
                JsonNode list = f.get("tags");
                if (list == null || !list.isArray() || list.isEmpty()) throw error("'tags' must be a non-empty array", at + "/tags");
                for (int i = 0; i < list.size(); i++) {
                    JsonNode t = list.get(i);
                    String tat = at + "/tags/" + i;
                    if (!t.isObject()) throw error("expected a tag object", tat);
                    tags.add(new Tagged(marker(t.get("begin"), tat + "/begin"), null, marker(t.get("end"), tat + "/end"), tat, t.get("content")));
                }
                yield triggered(triggers(f.get("triggers"), at + "/triggers"), tags,
                        f.path("at_least_one").asBoolean(false), f.path("stop_after_first").asBoolean(false), at);
            }
            default -> throw error("unknown format type '" + type + "' (expected const_string, json_schema, grammar, regex, token, "
                    + "any_text, sequence, or, tag, triggered_tags)", at + "/type");
        };
    }

    private List<Expr> elements(JsonNode f, String at) {
        JsonNode list = f.get("elements");
        if (list == null || !list.isArray() || list.isEmpty()) throw error("'elements' must be a non-empty array", at + "/elements");
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(format(list.get(i), at + "/elements/" + i));
        return out;
    }

    /** begin, content, end: an any_text content is the text up to the end's first occurrence. */
    private Expr tag(JsonNode f, String at) {
        Marker begin = marker(f.get("begin"), at + "/begin");
        Marker end = marker(f.get("end"), at + "/end");
        return new Expr.Seq(List.of(begin.expr(), body(f.get("content"), end, at + "/content")));
    }

    /** A tag's content followed by its end. */
    private Expr body(JsonNode content, Marker end, String at) {
        if (content == null) throw error("missing 'content'", at);
        if (content.path("type").asText("").equals("any_text")) {
            if (content.has("max_tokens")) {
                JsonNode n = content.get("max_tokens");
                if (!n.canConvertToInt() || n.asInt() < 0) throw error("'max_tokens' must be a non-negative integer", at + "/max_tokens");
                if (end.token() == null) throw error("'max_tokens' needs an end that is a token ({\"token\": ...}); a text end cannot count tokens", at + "/max_tokens");
                Expr.TokenRef any = new Expr.TokenRef(end.token().text(), end.token().ranges(), true, 0, 0);
                return new Expr.Seq(List.of(new Expr.Repeat(any, 0, n.asInt()), end.expr()));
            }
            if (end.token() != null) return new Expr.Seq(List.of(Expr.star(new Expr.Chars(CodePointSet.ANY)), end.expr()));
            return Expr.Lazy.upTo(end.expr());
        }
        return new Expr.Seq(List.of(format(content, at), end.expr()));
    }

    // ------------------------------------------------------------------ triggers

    /** A tag of triggered_tags; content is parsed once its end is known. */
    private record Tagged(Marker begin, Expr content, Marker end, String at, JsonNode contentSpec) {
        Tagged(Marker begin, Expr content, Marker end, String at) { this(begin, content, end, at, null); }
    }

    private List<Marker> triggers(JsonNode list, String at) {
        if (list == null || !list.isArray() || list.isEmpty()) throw error("'triggers' must be a non-empty array", at);
        List<Marker> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(marker(list.get(i), at + "/" + i));
        return out;
    }

    private Expr triggered(List<Marker> triggers, List<Tagged> tags, boolean atLeastOne, boolean stopAfterFirst, String at) {
        List<Expr> textTriggers = new ArrayList<>();
        for (Marker t : triggers) {
            if (t.text() != null) {
                if (t.text().isEmpty()) throw error("a trigger must not be empty", at + "/triggers");
                textTriggers.add(new Expr.Literal(t.text()));
            }
        }
        // text in which no text trigger occurs
        Expr freeText = textTriggers.isEmpty() ? Expr.star(new Expr.Chars(CodePointSet.ANY))
                : Expr.Lazy.without(Expr.alt(textTriggers.toArray(new Expr[0])));
        List<Expr> segments = new ArrayList<>();
        boolean[] used = new boolean[tags.size()];
        for (Marker trigger : triggers) {
            List<Expr> rests = new ArrayList<>();
            for (int i = 0; i < tags.size(); i++) {
                Tagged tag = tags.get(i);
                Expr rest = remainder(trigger, tag.begin());
                if (rest == null) continue;
                used[i] = true;
                Expr content = tag.content() != null ? new Expr.Seq(List.of(tag.content(), tag.end().expr()))
                        : body(tag.contentSpec(), tag.end(), tag.at() + "/content");
                rests.add(new Expr.Seq(List.of(rest, content)));
            }
            if (rests.isEmpty()) continue;
            // the free text ends at the trigger's first occurrence: one text trigger, a lazy match;
            // several, text without any of them then this one (exact when no trigger overlaps another)
            Expr upToTrigger = trigger.text() != null && textTriggers.size() == 1 ? Expr.Lazy.upTo(new Expr.Literal(trigger.text()))
                    : new Expr.Seq(List.of(freeText, trigger.expr()));
            segments.add(new Expr.Seq(List.of(upToTrigger, Expr.alt(rests.toArray(new Expr[0])))));
        }
        for (int i = 0; i < tags.size(); i++) {
            if (!used[i]) throw error("the tag's begin starts with none of the triggers", tags.get(i).at() + "/begin");
        }
        Expr segment = segments.size() == 1 ? segments.get(0) : new Expr.Alt(segments);
        String name = "tags" + (subGrammars++);
        rules.put(name, segment);
        Expr one = new Expr.Ref(name, 0, 0);
        if (stopAfterFirst) return atLeastOne ? one : Expr.alt(freeText, one);
        return new Expr.Seq(List.of(new Expr.Repeat(one, atLeastOne ? 1 : 0, Expr.Repeat.UNBOUNDED), freeText));
    }

    /** What a tag's begin adds after the trigger, or null when it does not start with it. */
    private static Expr remainder(Marker trigger, Marker begin) {
        if (trigger.token() != null || begin.token() != null) {
            return trigger.equals(begin) ? Expr.EMPTY : null;
        }
        return begin.text().startsWith(trigger.text()) ? new Expr.Literal(begin.text().substring(trigger.text().length())) : null;
    }

    // ------------------------------------------------------------------ markers and sub-grammars

    /** A begin, end or trigger: text, or one special token (by text or id). */
    private record Marker(String text, Expr.TokenRef token) {
        Expr expr() { return token != null ? token : new Expr.Literal(text); }
    }

    private Marker marker(JsonNode n, String at) {
        if (n == null) throw error("missing", at);
        if (n.isTextual()) return new Marker(n.asText(), null);
        if (n.isObject() && n.has("token")) {
            String t = n.get("token").asText("");
            if (t.isEmpty()) throw error("'token' must be a token's text, e.g. \"<|eom_id|>\"", at);
            return new Marker(null, new Expr.TokenRef(t, null, false, 0, 0));
        }
        if (n.isObject() && n.has("token_id")) {
            JsonNode id = n.get("token_id");
            if (!id.canConvertToInt() || id.asInt() < 0) throw error("'token_id' must be a non-negative integer", at);
            return new Marker(null, new Expr.TokenRef(null, List.of(new int[] {id.asInt(), id.asInt()}), false, 0, 0));
        }
        throw error("expected a string or {\"token\": \"...\"} / {\"token_id\": N}", at);
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

    private Expr gbnf(String text, String at) {
        try {
            return embed(GbnfParser.parse(text));
        } catch (GrammarException e) {
            throw error("in the grammar: " + e.getMessage(), at);
        }
    }

    private Expr regex(String pattern, String at) {
        try {
            return RegexParser.parse(pattern, RegexParser.Flavor.PYTHON);
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
