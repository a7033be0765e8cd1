package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Objects: which keys exist and what value each gets. Declared properties ({@code properties} plus names
 * only listed in {@code required}) get their schema (merged with {@code additionalProperties} for
 * required-only names); every other key ("any key but the declared ones", a key-language difference
 * built as a trie over the declared names) gets {@code additionalProperties}, or the
 * {@code patternProperties} schema under {@code additionalProperties: false}. The member list itself
 * (order, counts) is emitted by {@link ObjectMembers}.
 */
final class ObjectSchemas {
    private final SchemaCompiler sc;
    private int objCounter;

    ObjectSchemas(SchemaCompiler sc) { this.sc = sc; }

    Expr objectExpr(ObjectNode n, String ptr) {
        Map<String, JsonNode> props = new LinkedHashMap<>();
        if (n.has("properties")) n.get("properties").fields().forEachRemaining(e -> props.put(e.getKey(), e.getValue()));
        Set<String> required = new LinkedHashSet<>();
        if (n.has("required")) n.get("required").forEach(r -> required.add(r.asText()));
        JsonNode additional = n.has("additionalProperties") ? n.get("additionalProperties") : BooleanNode.TRUE;
        Map<String, JsonNode> patterns = new LinkedHashMap<>();
        if (n.has("patternProperties")) n.get("patternProperties").fields().forEachRemaining(e -> patterns.put(e.getKey(), e.getValue()));
        Map<String, Expr> patternExprs = new LinkedHashMap<>();
        for (String p : patterns.keySet()) {
            try {
                patternExprs.put(p, RegexParser.parseSearch(p, RegexParser.Flavor.ECMA).expr());
            } catch (GrammarException e) {
                sc.unsupported(ptr, "patternProperties", e.getMessage());
                return sc.syn.anyObjectFallback();
            }
        }
        int minP = KeywordValues.countOr(n, "minProperties", 0, ptr);
        int maxP = KeywordValues.countOr(n, "maxProperties", -1, ptr);

        String name = sc.syn.newName("obj_" + (++objCounter));
        sc.syn.rules.put(name, Expr.EMPTY);

        // declared (and required-only) properties with their effective schemas
        Map<String, List<JsonNode>> schemas = new LinkedHashMap<>();
        Map<String, String> ptrs = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : props.entrySet()) {
            schemas.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            ptrs.put(e.getKey(), SchemaCompiler.child(SchemaCompiler.child(ptr, "properties"), e.getKey()));
        }
        boolean impossible = false;
        for (String r : required) {
            if (schemas.containsKey(r)) continue;
            schemas.put(r, new ArrayList<>());
            ptrs.put(r, ptr);
        }
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            boolean matchedPattern = false;
            for (Map.Entry<String, Expr> p : patternExprs.entrySet()) {
                if (ExprLanguage.matches(p.getValue(), key)) {
                    sc.unsupported(ptr, "patternProperties", "pattern '" + p.getKey() + "' matches declared property '" + key + "'");
                    matchedPattern = true;
                }
            }
            if (!props.containsKey(key) && !matchedPattern) e.getValue().add(additional);
        }
        List<ObjectMembers.Slot> slots = new ArrayList<>();
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            List<JsonNode> parts = e.getValue();
            JsonNode schema = parts.size() == 1 ? parts.get(0) : sc.algebra.merge(parts, ptrs.get(key));
            Expr value = sc.compile(schema, ptrs.get(key));
            boolean req = required.contains(key);
            if (sc.syn.isNothing(value)) {
                if (req) impossible = true;
                continue;
            }
            slots.add(new ObjectMembers.Slot(JsonSyntax.seq(sc.syn.key(key), sc.syn.colon(), value), req));
        }
        // extra members
        Expr extra = null;
        Set<String> names = schemas.keySet();
        if (!patterns.isEmpty()) {
            boolean addFalse = additional.isBoolean() && !additional.asBoolean();
            boolean addTrue = SchemaNormalizer.isTrivial(sc.norm.clean(additional, ptr));
            List<JsonNode> ps = new ArrayList<>(patterns.values());
            boolean allTrivial = ps.stream().allMatch(x -> SchemaNormalizer.isTrivial(sc.norm.clean(x, ptr)));
            if (addTrue && allTrivial) {
                extra = JsonSyntax.seq(keyExcept(names), sc.syn.colon(), sc.syn.anyValue());
            } else if (addFalse) {
                boolean same = ps.stream().allMatch(p -> p.equals(ps.get(0)));
                if (!same && ps.size() > 1) sc.unsupported(ptr, "patternProperties", "several patterns with different schemas");
                List<Expr> keys = new ArrayList<>();
                for (Expr p : patternExprs.values()) keys.add(p);
                Expr key = sc.syn.keyLanguage(JsonSyntax.alt(keys));
                extra = JsonSyntax.seq(key, sc.syn.colon(), sc.compile(ps.get(0), SchemaCompiler.child(SchemaCompiler.child(ptr, "patternProperties"), patterns.keySet().iterator().next())));
            } else {
                sc.unsupported(ptr, "patternProperties", "non-trivial pattern schemas need additionalProperties: false");
                if (!addFalse) extra = JsonSyntax.seq(keyExcept(names), sc.syn.colon(), sc.compile(additional, SchemaCompiler.child(ptr, "additionalProperties")));
            }
        } else if (!(additional.isBoolean() && !additional.asBoolean())) {
            Expr v = sc.compile(additional, SchemaCompiler.child(ptr, "additionalProperties"));
            if (!(v instanceof Expr.Alt a && a.options().isEmpty())) extra = JsonSyntax.seq(keyExcept(names), sc.syn.colon(), v);
        }
        Expr body = impossible ? Expr.NOTHING : sc.members.objectBody(name, slots, extra, minP, maxP);
        sc.syn.rules.put(name, body);
        return Expr.ref(name);
    }

    /** JSON string key whose decoded value is not one of {@code names}. */
    Expr keyExcept(Set<String> names) {
        Expr anyStr = Expr.star(Expr.chars(CodePointSet.ANY));
        Expr cps = names.isEmpty() ? anyStr : notIn(names, "", anyStr);
        return sc.syn.keyLanguage(cps);
    }

    /** Strings (code points) not in {@code names}, restricted to those starting with {@code prefix}, minus the prefix. */
    static Expr notIn(Set<String> names, String prefix, Expr anyStr) {
        List<Expr> alts = new ArrayList<>();
        if (!names.contains(prefix)) alts.add(Expr.EMPTY);
        TreeMap<Integer, Boolean> next = new TreeMap<>();
        for (String s : names) {
            if (s.length() > prefix.length() && s.startsWith(prefix)) next.put(s.codePointAt(prefix.length()), true);
        }
        CodePointSet used = CodePointSet.EMPTY;
        for (int cp : next.keySet()) {
            used = used.union(CodePointSet.of(cp));
            alts.add(JsonSyntax.seq(Expr.literal(Character.toString(cp)), notIn(names, prefix + Character.toString(cp), anyStr)));
        }
        alts.add(JsonSyntax.seq(Expr.chars(used.complement()), anyStr));
        return JsonSyntax.alt(alts);
    }
}
