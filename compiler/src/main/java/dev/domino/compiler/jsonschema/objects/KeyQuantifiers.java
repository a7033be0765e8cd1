package dev.domino.compiler.jsonschema.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Quantifiers over an object's members with an arbitrary key language, as two internal keywords (never in
 * user schemas: their names start with U+0000). Each holds a list of entries
 * {@code {keys: K, value: V, kw: keyword}}, K a key schema read like {@code propertyNames} ({@link KeyConstraint}),
 * {@code kw} the user keyword that produced the entry (named by errors):
 * <ul>
 * <li>{@link #EXISTS}: for every entry, the object has at least one member whose key is in K and whose value
 * matches V. Produced by complements: {@code not {patternProperties: {p: S}}} is "some key matching p has a
 * value outside S", {@code not {additionalProperties: A}} "some key neither declared nor matching a pattern of
 * that schema has a value outside A", {@code not {propertyNames: S}} "some key outside S".</li>
 * <li>{@link #FORALL}: for every entry, every member whose key is in K has a value matching V: a
 * {@code patternProperties} with any key language. Produced by the complement of EXISTS and by allOf, where one
 * part's {@code additionalProperties} meets another part's {@code patternProperties} (the keys additional for
 * that part alone: not its declared names, matching none of its patterns).</li>
 * </ul>
 * Merged by allOf as lists (conjunction: concatenation); the complement of one turns into the other
 * ({@code not forall K: V} = {@code exists K: not V}). Compiled by {@link ObjectSchemas}: a FORALL entry is
 * one more value constraint on the keys of its language; EXISTS entries become required witness members.
 */
public final class KeyQuantifiers {
    public static final String EXISTS = "\u0000exists";
    public static final String FORALL = "\u0000forall";

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;

    private KeyQuantifiers() {}

    /** One entry: keys in K, values V, produced by keyword {@code kw}. */
    public static ObjectNode entry(JsonNode keys, JsonNode value, String kw) {
        ObjectNode e = NF.objectNode();
        e.set("keys", keys);
        e.set("value", value);
        e.put("kw", kw);
        return e;
    }

    /** An object schema with one quantifier entry. */
    public static ObjectNode object(String quantifier, JsonNode keys, JsonNode value, String kw) {
        ObjectNode o = NF.objectNode().put("type", "object");
        o.set(quantifier, NF.arrayNode().add(entry(keys, value, kw)));
        return o;
    }

    /** The key schema of a pattern's keys. */
    public static JsonNode patternKeys(String pattern) { return NF.objectNode().put("pattern", pattern); }

    /**
     * The key schema of the keys that are additional for schema object n: not in its {@code properties}, matching
     * none of its {@code patternProperties}.
     */
    public static JsonNode additionalKeys(JsonNode n) {
        ArrayNode known = NF.arrayNode();
        ArrayNode names = NF.arrayNode();
        n.path("properties").fieldNames().forEachRemaining(names::add);
        if (!names.isEmpty()) known.add(NF.objectNode().set("enum", names));
        for (Iterator<String> it = n.path("patternProperties").fieldNames(); it.hasNext(); ) known.add(patternKeys(it.next()));
        if (known.isEmpty()) return BooleanNode.TRUE;
        return NF.objectNode().set("not", known.size() == 1 ? known.get(0) : NF.objectNode().set("anyOf", known));
    }

    /** "Not V", simplified for booleans. */
    public static JsonNode not(JsonNode v) {
        if (v.isBoolean()) return BooleanNode.valueOf(!v.asBoolean());
        if (v.isObject() && v.isEmpty()) return BooleanNode.FALSE;
        return NF.objectNode().set("not", v);
    }

    /** The complement of one quantifier list: some entry fails (one alternative per entry, each the dual quantifier). */
    public static List<JsonNode> complement(String quantifier, JsonNode entries) {
        String dual = quantifier.equals(EXISTS) ? FORALL : EXISTS;
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : entries) out.add(object(dual, e.get("keys"), not(e.get("value")), e.path("kw").asText("not")));
        return out;
    }

    /** The entries of a quantifier keyword of n (empty when absent). */
    static List<JsonNode> entries(JsonNode n, String quantifier) {
        List<JsonNode> out = new ArrayList<>();
        n.path(quantifier).forEach(out::add);
        return out;
    }
}
