package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.refs.Dialects;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Conditional keywords rewritten into the conjunction/union/complement the compiler already has, each
 * an exact equivalence:
 * <ul>
 *   <li>{@code dependentRequired {a: [b, c]}} (and draft-04/07 array-form {@code dependencies}):
 *       {@code anyOf [{properties: {a: false}}, {required: [b, c]}]}: "a absent, or b and c present"
 *       (both branches hold for non-objects, as the keyword does); when a is itself required, just
 *       {@code required: [b, c]}.</li>
 *   <li>{@code dependentSchemas {a: S}} (and schema-form {@code dependencies}):
 *       {@code anyOf [{properties: {a: false}}, S]}; S alone when a is required.</li>
 *   <li>{@code if/then/else}: {@code (if and then) or (not if and else)}; without {@code else} that is
 *       {@code anyOf [not if, then]}, without {@code then} {@code anyOf [if, else]}; {@code then}/{@code else}
 *       without {@code if} assert nothing.</li>
 * </ul>
 * The results are appended to the schema's {@code allOf}.
 */
public final class ConditionalSchemas {
    public static final Set<String> KEYWORDS = Set.of("dependencies", "dependentRequired", "dependentSchemas", "if", "then", "else");

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;

    private ConditionalSchemas() {}

    /**
     * Whether the draft declared by {@code $schema} defines the keyword: {@code if/then/else} from draft-07,
     * {@code dependentRequired/dependentSchemas} from 2019-09 (earlier drafts: unknown keywords, which
     * assert nothing); {@code dependencies} in every draft (2019-09 split it, validators still apply it).
     */
    public static boolean defined(String keyword, String draft) {
        return switch (keyword) {
            case "if", "then", "else" -> !Dialects.draft6OrEarlier(draft);
            case "dependentRequired", "dependentSchemas" -> !Dialects.draft7OrEarlier(draft);
            default -> true;
        };
    }

    /** The conjuncts equivalent to the conditional keywords of {@code node} (empty when it has none). */
    public static ArrayNode conjuncts(JsonNode node, String draft) {
        ArrayNode out = NF.arrayNode();
        Set<String> required = new HashSet<>();
        node.path("required").forEach(r -> required.add(r.asText()));
        for (String kw : new String[] {"dependencies", "dependentRequired", "dependentSchemas"}) {
            JsonNode deps = node.get(kw);
            if (deps == null || !deps.isObject() || !defined(kw, draft)) continue;
            for (Iterator<Map.Entry<String, JsonNode>> it = deps.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> d = it.next();
                String key = d.getKey();
                JsonNode then;
                if (d.getValue().isArray()) {
                    if (d.getValue().isEmpty()) continue;
                    then = NF.objectNode().set("required", d.getValue());
                } else {
                    if (SchemaNormalizer.isTrivial(d.getValue())) continue;
                    then = d.getValue();
                }
                if (required.contains(key)) { out.add(then); continue; }
                JsonNode absent = NF.objectNode().set("properties", NF.objectNode().set(key, BooleanNode.FALSE));
                out.add(anyOf(absent, then));
            }
        }
        JsonNode cond = node.get("if");
        if (cond != null && defined("if", draft)) {
            JsonNode then = node.get("then"), otherwise = node.get("else");
            JsonNode notCond = NF.objectNode().set("not", cond);
            if (then != null && otherwise != null) {
                out.add(anyOf(NF.objectNode().set("allOf", NF.arrayNode().add(cond).add(then)),
                              NF.objectNode().set("allOf", NF.arrayNode().add(notCond).add(otherwise))));
            } else if (then != null) {
                out.add(anyOf(notCond, then));
            } else if (otherwise != null) {
                out.add(anyOf(cond, otherwise));
            }
        }
        return out;
    }

    private static JsonNode anyOf(JsonNode a, JsonNode b) {
        return NF.objectNode().set("anyOf", NF.arrayNode().add(a).add(b));
    }
}
