package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.EmptyLanguageWitness;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names the part of a schema that no value satisfies when the whole schema admits none. The compiler
 * records which schema (JSON pointer) each compiled expression came from; when the grammar's start rule
 * derives nothing, the walk down to the innermost empty part ({@link EmptyLanguageWitness}) is mapped
 * back to pointers: the last one is the schema to blame (a required property, an item, a branch whose
 * every alternative is empty, a {@code $ref} cycle without a base case), the earlier ones need it. The
 * reason comes from that schema's own keywords where one shows it (crossed bounds, {@code false}, an
 * allOf whose parts conflict).
 */
final class EmptySchemaDiagnosis {
    /** Start of the error (the test-suite runner reads it as "rejects every instance"). */
    static final String PREFIX = "the grammar's language is empty: ";

    /** Compiled expression -> pointer of the innermost schema it was compiled from (by identity). */
    private final Map<Expr, String> origins = new IdentityHashMap<>();

    /**
     * Records that {@code e} is the language of the schema at {@code ptr}; returns it, or for the shared
     * empty choice a fresh one, so that every empty schema keeps a place of its own.
     */
    Expr record(Expr e, String ptr) {
        if (e instanceof Expr.Alt a && a.options().isEmpty()) e = new Expr.Alt(List.of());
        origins.putIfAbsent(e, ptr);
        // a sequence is spliced into the sequences around it (JsonSyntax.seq): its items keep the place
        if (e instanceof Expr.Seq s) for (Expr item : s.items()) if (item != Expr.NOTHING) origins.putIfAbsent(item, ptr);
        return e;
    }

    /** The error for a schema whose grammar (start rule "root") derives nothing. */
    GrammarException error(Map<String, Expr> rules, Set<String> productive, JsonNode root) {
        EmptyLanguageWitness w = EmptyLanguageWitness.find(rules.get("root"), rules, productive);
        if (w == null) return new GrammarException(PREFIX + "no JSON value satisfies the schema");
        List<String> pointers = new ArrayList<>();
        for (Expr e : w.path()) {
            String p = origins.get(e);
            if (p != null && (pointers.isEmpty() || !pointers.get(pointers.size() - 1).equals(p))) pointers.add(p);
        }
        if (pointers.isEmpty()) pointers.add("");
        String culprit = pointers.get(pointers.size() - 1);
        List<String> needers = pointers.subList(0, pointers.size() - 1);
        String reason;
        if (w.kind() == EmptyLanguageWitness.Kind.CYCLE) {
            // the schema entered again is the referenced rule's; the culprit pointer is the $ref that re-enters it
            String again = origins.getOrDefault(rules.get(w.rules().get(w.rules().size() - 1)), culprit);
            reason = "it needs itself again at " + SchemaCompiler.showPointer(culprit) + ", with no base case";
            int first = needers.indexOf(again);
            needers = first >= 0 ? needers.subList(0, first) : needers;
            culprit = again;
        } else {
            reason = reason(root, culprit, w.kind());
        }
        StringBuilder m = new StringBuilder(PREFIX).append("no JSON value satisfies the schema at ").append(SchemaCompiler.showPointer(culprit));
        if (!needers.isEmpty()) {
            m.append(" (needed by ");
            for (int i = needers.size() - 1, shown = 0; i >= 0 && shown < 3; i--, shown++) {
                m.append(shown > 0 ? ", " : "").append(SchemaCompiler.showPointer(needers.get(i)));
            }
            m.append(needers.size() > 3 ? ", ...)" : ")");
        }
        if (reason != null) m.append(": ").append(reason);
        return new GrammarException(m.toString());
    }

    private static final String[][] BOUNDS = {
        {"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minProperties", "maxProperties"},
        {"minimum", "maximum"}, {"minContains", "maxContains"}};

    /** Why the schema at {@code ptr} admits no value, where its keywords show it; null when they do not. */
    static String reason(JsonNode root, String ptr, EmptyLanguageWitness.Kind kind) {
        JsonNode s;
        try {
            s = root.at(JsonPointer.compile(ptr));
        } catch (IllegalArgumentException e) {
            s = null;
        }
        if (s == null || s.isMissingNode()) return null;
        if (s.isBoolean()) return s.asBoolean() ? null : "it is false";
        if (!s.isObject()) return null;
        JsonNode not = s.get("not");
        if (not != null && ((not.isBoolean() && not.asBoolean()) || (not.isObject() && not.isEmpty()))) return "its 'not' excludes every value";
        if (s.path("enum").isArray() && s.get("enum").isEmpty()) return "its enum is empty";
        if (s.path("type").isArray() && s.get("type").isEmpty()) return "its type list is empty";
        for (String[] b : BOUNDS) {
            JsonNode lo = s.get(b[0]), hi = s.get(b[1]);
            if (lo != null && hi != null && lo.isNumber() && hi.isNumber() && lo.decimalValue().compareTo(hi.decimalValue()) > 0) {
                return b[0] + " " + lo + " is above " + b[1] + " " + hi;
            }
        }
        if (s.path("required").isArray() && s.path("maxProperties").isNumber()
                && s.get("required").size() > s.get("maxProperties").asDouble()) {
            return s.get("required").size() + " required properties are more than maxProperties " + s.get("maxProperties");
        }
        if (s.has("allOf")) return "its allOf parts (with its other keywords) admit no common value";
        if (s.has("$ref") && s.size() > 1) return "its $ref target and its other keywords admit no common value";
        if (s.has("enum") || s.has("const")) return "no value of its " + (s.has("enum") ? "enum" : "const") + " satisfies its other keywords";
        if (s.has("oneOf")) return "no value satisfies exactly one of its oneOf branches";
        if (s.has("anyOf")) return "none of its anyOf branches admits a value";
        if (s.has("not")) return "its 'not' excludes every value its other keywords admit";
        if (kind == EmptyLanguageWitness.Kind.COUNTS) return "its property or item counts cannot be met";
        List<String> assertions = new ArrayList<>();
        s.fieldNames().forEachRemaining(k -> { if (!NOT_ASSERTIONS.contains(k)) assertions.add(k); });
        return assertions.size() < 2 ? null : "its keywords " + String.join(", ", assertions) + " admit no common value";
    }

    /** Keywords that assert nothing about the instance here (annotations, identifiers, definitions). */
    private static final Set<String> NOT_ASSERTIONS = Set.of("$schema", "$id", "id", "$anchor", "$dynamicAnchor", "$comment",
        "$defs", "definitions", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly");
}
