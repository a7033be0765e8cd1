package dev.domino.compiler.jsonschema.objects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.KeywordValues;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.strings.Formats;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code propertyNames} schema as a Boolean formula over key languages: {@code pattern},
 * {@code minLength}/{@code maxLength}, {@code enum}/{@code const} become languages (expressions over code
 * points, appended to a shared list so that {@link KeyAutomaton} runs them side by side), and {@code not},
 * {@code allOf}, {@code anyOf}, {@code oneOf}, {@code $ref} and {@code type} combine them. A key is allowed
 * iff {@link #test} holds for the set of languages accepting it. Keywords of other types (numbers, arrays,
 * objects) do not apply to keys; any other assertion ({@code format}, ...) is an unsupported
 * {@code propertyNames}.
 */
public interface KeyConstraint {
    /** Whether a key accepted by exactly the languages in {@code bits} satisfies the constraint. */
    boolean test(long bits);

    KeyConstraint TRUE = bits -> true;
    KeyConstraint FALSE = bits -> false;

    /** Keywords that only constrain non-string values, or only annotate: no effect on keys. */
    Set<String> NO_EFFECT = Set.of("title", "description", "$comment", "examples", "default", "deprecated", "readOnly",
        "writeOnly", "$schema", "$id", "id", "$defs", "definitions", "nullable", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems",
        "contains", "minContains", "maxContains", "properties", "patternProperties", "additionalProperties", "required",
        "minProperties", "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies");

    /** The constraint of a propertyNames schema; new languages are appended to {@code languages}. */
    static KeyConstraint of(JsonNode schema, String ptr, List<Expr> languages, SchemaCompiler sc) {
        return translate(schema, ptr, languages, sc, 0);
    }

    private static KeyConstraint translate(JsonNode s, String ptr, List<Expr> languages, SchemaCompiler sc, int depth) {
        if (depth > 32) throw new GrammarException("propertyNames nests too deeply at " + SchemaCompiler.showPointer(ptr));
        if (s.isBoolean()) return s.asBoolean() ? TRUE : FALSE;
        if (!s.isObject()) throw new GrammarException("schema at " + SchemaCompiler.showPointer(ptr) + " is not an object or boolean");
        List<KeyConstraint> all = new ArrayList<>();
        int minLength = 0, maxLength = -1;
        for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            String at = SchemaCompiler.child(ptr, k);
            switch (k) {
                case "type" -> {
                    boolean string = v.isArray() ? containsText(v, "string") : v.asText().equals("string");
                    if (!string) return FALSE;
                }
                case "pattern" -> {
                    Expr e;
                    try {
                        e = RegexParser.parseSearch(v.asText(), RegexParser.Flavor.ECMA).expr();
                    } catch (GrammarException x) {
                        sc.unsupported(ptr, "propertyNames", "pattern: " + x.getMessage());
                        return TRUE;
                    }
                    all.add(atom(languages, e));
                }
                case "minLength" -> minLength = KeywordValues.countOr(s, k, 0, ptr);
                case "maxLength" -> maxLength = KeywordValues.countOr(s, k, -1, ptr);
                case "enum", "const" -> {
                    List<Expr> names = new ArrayList<>();
                    if (k.equals("const")) { if (v.isTextual()) names.add(Expr.literal(v.asText())); }
                    else for (JsonNode x : v) if (x.isTextual()) names.add(Expr.literal(x.asText()));
                    if (names.isEmpty()) return FALSE;
                    all.add(atom(languages, names.size() == 1 ? names.get(0) : new Expr.Alt(names)));
                }
                case "not" -> {
                    KeyConstraint inner = translate(v, at, languages, sc, depth + 1);
                    all.add(bits -> !inner.test(bits));
                }
                case "allOf", "anyOf", "oneOf" -> {
                    List<KeyConstraint> parts = new ArrayList<>();
                    int i = 0;
                    for (JsonNode b : v) parts.add(translate(b, SchemaCompiler.child(at, String.valueOf(i++)), languages, sc, depth + 1));
                    all.add(switch (k) {
                        case "allOf" -> bits -> parts.stream().allMatch(p -> p.test(bits));
                        case "anyOf" -> bits -> parts.stream().anyMatch(p -> p.test(bits));
                        default -> bits -> parts.stream().filter(p -> p.test(bits)).count() == 1;
                    });
                }
                case "format" -> {
                    // keys are strings: the format's language (an annotation under FormatMode.ANNOTATION)
                    if (!sc.formatsAsserted() || !v.isTextual() || Formats.isAnyString(v.asText())) break;
                    Expr language = Formats.format(v.asText());
                    if (language == null) { sc.unsupported(at, "format", Formats.refusal(v.asText())); break; }
                    all.add(atom(languages, language));
                    int formatMax = Formats.maxLength(v.asText());
                    if (formatMax >= 0) all.add(atom(languages, new Expr.Repeat(Expr.chars(CodePointSet.ANY), 0, formatMax)));
                }
                case "$ref" -> {
                    JsonNode target = sc.refs.resolve(v.asText(), ptr);
                    if (target != null) all.add(translate(target, v.asText(), languages, sc, depth + 1));
                }
                default -> {
                    if (!NO_EFFECT.contains(k)) sc.unsupported(ptr, "propertyNames", "keyword '" + k + "' on keys");
                }
            }
        }
        if (minLength > 0 || maxLength >= 0) {
            int max = maxLength < 0 ? Expr.Repeat.UNBOUNDED : maxLength;
            if (max != Expr.Repeat.UNBOUNDED && max < minLength) return FALSE;
            all.add(atom(languages, new Expr.Repeat(Expr.chars(CodePointSet.ANY), minLength, max)));
        }
        if (all.isEmpty()) return TRUE;
        if (all.size() == 1) return all.get(0);
        return bits -> { for (KeyConstraint c : all) if (!c.test(bits)) return false; return true; };
    }

    private static KeyConstraint atom(List<Expr> languages, Expr e) {
        if (languages.size() >= KeyAutomaton.MAX_LANGUAGES) throw new GrammarException("more than " + KeyAutomaton.MAX_LANGUAGES + " key languages");
        int j = languages.size();
        languages.add(e);
        long bit = 1L << j;
        return bits -> (bits & bit) != 0;
    }

    private static boolean containsText(JsonNode array, String text) {
        for (JsonNode x : array) if (x.asText().equals(text)) return true;
        return false;
    }
}
