package dev.domino.compiler.jsonschema.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.SchemaCompiler;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * 2020-12's {@code $dynamicRef} resolved statically, per dynamic scope, into {@code $ref}s.
 *
 * <p>First, a {@code $dynamicRef} whose target the dynamic scope cannot change is the {@code $ref} it then is: its
 * fragment is a JSON pointer, or its statically resolved target has no {@code $dynamicAnchor} of the fragment's
 * name ("bookending"), or exactly one schema of the document (the registry's documents included) declares that
 * {@code $dynamicAnchor}.
 *
 * <p>The others depend on the dynamic scope, the schema resources evaluation entered on its way (in-place
 * subschemas with an {@code $id}, and the resource of every {@code $ref} target). Such a reference resolves to the
 * {@code $dynamicAnchor} of its name in the outermost resource of the scope that declares one, so what matters of a
 * scope is, per anchor name, that first declaration: a finite context. The applicators are walked from the root with
 * their context; a {@code $ref} whose target reaches a scope-dependent reference gets a copy of its target for the
 * context there (one per distinct target and context, under {@link #KEYWORD}, at most {@link #MAX_DYNAMIC_SCOPES}),
 * in which every reference is resolved for that context. Past the limit a reference stays a {@code $dynamicRef},
 * refused by name when it is compiled.
 *
 * <p>2019-09's {@code $recursiveRef} is the same mechanism with one anonymous anchor: {@code $recursiveAnchor: true}
 * at the root of a schema resource declares it, and a {@code $recursiveRef} (its value {@code "#"}) whose static
 * target declares it resolves to the outermost resource of the dynamic scope that declares it too.
 */
public final class DynamicRefs {
    /** The member of the root holding the copies of schemas specialized to a dynamic scope (an annotation). */
    public static final String KEYWORD = "$domino:scopes";
    /** The most copies of schemas specialized to a dynamic scope one document may need. */
    public static final int MAX_DYNAMIC_SCOPES = 256;

    /** The anchor name {@code $recursiveAnchor: true} stands for (no {@code $dynamicAnchor} name can clash: 2019-09 has none). */
    private static final String RECURSIVE = "";

    private static final Set<String> NOT_APPLICATORS = Set.of("$defs", "definitions", RemoteSchemas.KEYWORD, KEYWORD);

    private final ObjectNode root;
    private final RefResolver refs;
    /** The keyword of the references resolved: {@code $dynamicRef} (2020-12) or {@code $recursiveRef} (2019-09). */
    private final String keyword;
    private final Set<String> resources;
    /** Anchor names several schemas declare (only those make a $dynamicRef depend on the scope). */
    private final Map<String, List<String>> dynamic = new HashMap<>();
    private final Map<String, Boolean> reachesDynamic = new HashMap<>();
    private final Map<String, String> copies = new HashMap<>(); // target pointer + context -> copy pointer
    private ObjectNode scopes;

    private DynamicRefs(ObjectNode root, RefResolver refs, String keyword) {
        this.root = root;
        this.refs = refs;
        this.keyword = keyword;
        this.resources = refs.resourcePointers();
        anchors(refs, keyword).forEach((name, declaring) -> { if (declaring.size() > 1) dynamic.put(name, declaring); });
    }

    /** The keyword of the dialect's scope-dependent references, null if it has none. */
    private static String keywordOf(String draft) {
        return switch (Dialects.of(draft)) {
            case DRAFT_2020_12 -> "$dynamicRef";
            case DRAFT_2019_09 -> "$recursiveRef";
            default -> null;
        };
    }

    /** Each anchor name -> the schemas declaring it: {@code $dynamicAnchor}s, or the resources with {@code $recursiveAnchor: true}. */
    private static Map<String, List<String>> anchors(RefResolver refs, String keyword) {
        if (keyword.equals("$dynamicRef")) return refs.dynamicAnchors();
        List<String> declaring = new java.util.ArrayList<>();
        for (String r : new java.util.TreeSet<>(refs.resourcePointers())) {
            if (refs.staticNode(r).path("$recursiveAnchor").asBoolean(false)) declaring.add(r);
        }
        return declaring.isEmpty() ? Map.of() : Map.of(RECURSIVE, declaring);
    }

    /** The document with every {@code $dynamicRef} it can resolve rewritten (a copy; the same node if there is none). */
    public static JsonNode rewrite(JsonNode root, String draft, Map<String, String> remotes) {
        String keyword = keywordOf(draft);
        if (keyword == null || !mentions(root, keyword, 0)) return root;
        JsonNode copy = root.deepCopy();
        RefResolver refs = new RefResolver(copy, draft, remotes);
        staticPass(copy, "", refs, keyword, anchors(refs, keyword), 0);
        if (!copy.isObject() || !mentions(copy, keyword, 0)) return copy;
        DynamicRefs d = new DynamicRefs((ObjectNode) copy, refs, keyword);
        d.walk(copy, "", d.enter(new TreeMap<>(), ""), 0);
        if (d.scopes != null) ((ObjectNode) copy).set(KEYWORD, d.scopes); // after the walk, which iterates the root's members
        return copy;
    }

    private static boolean mentions(JsonNode n, String keyword, int depth) {
        if (depth > 200) return false;
        if (n.isObject() && n.has(keyword)) return true;
        for (JsonNode c : n) if (mentions(c, keyword, depth + 1)) return true;
        return false;
    }

    /** Children in schema positions: (child node, its pointer). */
    private static void children(JsonNode node, String pointer, boolean applicatorsOnly, java.util.function.BiConsumer<JsonNode, String> visit) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (applicatorsOnly && NOT_APPLICATORS.contains(f.getKey())) continue;
            String child = SchemaCompiler.child(pointer, f.getKey());
            JsonNode v = f.getValue();
            if (RefResolver.SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = m.next();
                    visit.accept(e.getValue(), SchemaCompiler.child(child, e.getKey()));
                }
            } else if (RefResolver.SCHEMA_VALUES.contains(f.getKey())) {
                if (v.isArray()) for (int i = 0; i < v.size(); i++) visit.accept(v.get(i), SchemaCompiler.child(child, String.valueOf(i)));
                else visit.accept(v, child);
            }
        }
    }

    private static void staticPass(JsonNode node, String pointer, RefResolver refs, String keyword, Map<String, List<String>> anchors, int depth) {
        if (!node.isObject() || depth > 200) return;
        ObjectNode o = (ObjectNode) node;
        if (o.path(keyword).isTextual()) {
            String ref = o.get(keyword).asText();
            String target = refs.staticPointer(ref, pointer);
            String name = target == null ? null : anchorName(ref, target, refs, keyword);
            if (target != null && (name == null || anchors.getOrDefault(name, List.of()).size() == 1)) replace(o, keyword, refs.absolute(target));
        }
        children(o, pointer, false, (c, p) -> staticPass(c, p, refs, keyword, anchors, depth + 1));
    }

    /** The scope-dependent reference as a $ref (beside an existing $ref: one more allOf part). */
    private static void replace(ObjectNode o, String keyword, String asRef) {
        o.remove(keyword);
        if (!o.has("$ref")) o.put("$ref", asRef);
        else {
            ArrayNode all = o.has("allOf") && o.get("allOf").isArray() ? (ArrayNode) o.get("allOf") : o.putArray("allOf");
            all.addObject().put("$ref", asRef);
        }
    }

    /** The anchor name through which the dynamic scope may change what {@code ref} (statically {@code target}) names, or null. */
    private static String anchorName(String ref, String target, RefResolver refs, String keyword) {
        if (keyword.equals("$recursiveRef")) {
            // only "#" is defined; the initial target must itself be a resource declaring the anchor
            return ref.equals("#") && refs.resourcePointers().contains(target)
                && refs.staticNode(target).path("$recursiveAnchor").asBoolean(false) ? RECURSIVE : null;
        }
        int hash = ref.indexOf('#');
        String fragment = hash < 0 ? "" : ref.substring(hash + 1);
        if (fragment.isEmpty() || fragment.startsWith("/")) return null;
        JsonNode t = refs.staticNode(target);
        return t.isObject() && t.path("$dynamicAnchor").asText("").equals(fragment) ? fragment : null;
    }

    /** The resource (its pointer) holding a pointer: the longest resource pointer on its way down. */
    private String resourceOf(String pointer) {
        String best = "";
        for (String r : resources) {
            if ((pointer.equals(r) || pointer.startsWith(r + "/")) && r.length() > best.length()) best = r;
        }
        return best;
    }

    /** The context after entering a resource: its dynamic anchors, where no outer resource declared the name. */
    private TreeMap<String, String> enter(TreeMap<String, String> context, String resource) {
        TreeMap<String, String> out = null;
        for (Map.Entry<String, List<String>> d : dynamic.entrySet()) {
            if (context.containsKey(d.getKey())) continue;
            for (String declaring : d.getValue()) {
                if (resourceOf(declaring).equals(resource)) {
                    if (out == null) out = new TreeMap<>(context);
                    out.put(d.getKey(), declaring);
                    break;
                }
            }
        }
        return out == null ? context : out;
    }

    private void walk(JsonNode node, String pointer, TreeMap<String, String> context, int depth) {
        if (!node.isObject() || depth > 200) return;
        ObjectNode o = (ObjectNode) node;
        if (!pointer.isEmpty() && resources.contains(pointer)) context = enter(context, pointer);
        if (o.path(keyword).isTextual()) {
            String ref = o.get(keyword).asText();
            String target = refs.staticPointer(ref, pointer);
            String name = target == null ? null : anchorName(ref, target, refs, keyword);
            if (target != null) {
                String chosen = name != null && context.containsKey(name) ? context.get(name) : target;
                String at = refTo(chosen, context);
                if (at != null) replace(o, keyword, refs.absolute(at));
            }
        }
        if (o.path("$ref").isTextual()) {
            String target = refs.staticPointer(o.get("$ref").asText(), pointer);
            if (target != null) {
                String at = refTo(target, context);
                if (at != null) o.put("$ref", refs.absolute(at));
            }
        }
        TreeMap<String, String> c = context;
        children(o, pointer, true, (child, p) -> walk(child, p, c, depth + 1));
    }

    /** Where a reference to {@code target} goes in {@code context}: the target, or its copy for the scope; null past the limit. */
    private String refTo(String target, TreeMap<String, String> context) {
        TreeMap<String, String> entered = enter(context, resourceOf(target));
        if (!reachesDynamic(target)) return target;
        String key = target + "\u0000" + entered;
        String existing = copies.get(key);
        if (existing != null) return existing;
        if (copies.size() >= MAX_DYNAMIC_SCOPES) return null;
        if (scopes == null) scopes = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        String name = Integer.toString(copies.size());
        String at = "/" + KEYWORD + "/" + name;
        copies.put(key, at);
        JsonNode copy = refs.staticNode(target).deepCopy();
        if (copy.isObject()) {
            ((ObjectNode) copy).remove(RemoteSchemas.KEYWORD);
            ((ObjectNode) copy).remove(KEYWORD);
        }
        scopes.set(name, copy);
        // resolve the copy's references as they are at the original, in the entered context
        walkCopy(copy, target, entered, 0);
        return at;
    }

    /** As {@link #walk}, for a copy whose original is at {@code pointer} (its references resolved there). */
    private void walkCopy(JsonNode node, String pointer, TreeMap<String, String> context, int depth) {
        if (!node.isObject() || depth > 200) return;
        ObjectNode o = (ObjectNode) node;
        if (depth > 0 && resources.contains(pointer)) context = enter(context, pointer);
        // its references are resolved for the original's place: the copy names no resource and no anchor
        o.remove("$id");
        o.remove("$anchor");
        o.remove("$dynamicAnchor");
        o.remove("$recursiveAnchor");
        if (o.path(keyword).isTextual()) {
            String ref = o.get(keyword).asText();
            String target = refs.staticPointer(ref, pointer);
            String name = target == null ? null : anchorName(ref, target, refs, keyword);
            if (target != null) {
                String chosen = name != null && context.containsKey(name) ? context.get(name) : target;
                String at = refTo(chosen, context);
                if (at != null) replace(o, keyword, refs.absolute(at));
            }
        }
        if (o.path("$ref").isTextual()) {
            String target = refs.staticPointer(o.get("$ref").asText(), pointer);
            if (target != null) {
                String at = refTo(target, context);
                if (at != null) o.put("$ref", refs.absolute(at));
            }
        }
        TreeMap<String, String> c = context;
        children(o, pointer, true, (child, p) -> walkCopy(child, p, c, depth + 1));
    }

    /** Whether a scope-dependent $dynamicRef is reachable from a schema (through applicators and references). */
    private boolean reachesDynamic(String start) {
        Boolean known = reachesDynamic.get(start);
        if (known != null) return known;
        Set<String> seen = new HashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>();
        todo.add(start);
        boolean found = false;
        while (!todo.isEmpty() && !found && seen.size() < 100_000) {
            String p = todo.poll();
            if (!seen.add(p)) continue;
            found = scan(refs.staticNode(p), p, todo, 0);
        }
        reachesDynamic.put(start, found);
        return found;
    }

    /** Scans the applicators under one schema; queues reference targets; true on a scope-dependent $dynamicRef. */
    private boolean scan(JsonNode node, String pointer, ArrayDeque<String> todo, int depth) {
        if (!node.isObject() || depth > 200) return false;
        if (node.path(keyword).isTextual()) {
            String ref = node.get(keyword).asText();
            String target = refs.staticPointer(ref, pointer);
            String name = target == null ? null : anchorName(ref, target, refs, keyword);
            if (name != null && dynamic.containsKey(name)) return true;
            if (target != null) todo.add(target);
        }
        if (node.path("$ref").isTextual()) {
            String target = refs.staticPointer(node.get("$ref").asText(), pointer);
            if (target != null) todo.add(target);
        }
        boolean[] found = {false};
        children(node, pointer, true, (c, p) -> { if (!found[0] && scan(c, p, todo, depth + 1)) found[0] = true; });
        return found[0];
    }
}
