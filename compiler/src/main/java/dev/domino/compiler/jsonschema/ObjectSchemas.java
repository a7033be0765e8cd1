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
        // propertyNames: a constraint over key languages (appended after the patterns and the declared names)
        List<Expr> languages = new ArrayList<>(patternExprs.values());
        List<Expr> nameLiterals = new ArrayList<>();
        for (String key : schemas.keySet()) nameLiterals.add(Expr.literal(key));
        languages.add(nameLiterals.isEmpty() ? Expr.NOTHING : new Expr.Alt(nameLiterals));
        int declaredBit = patternExprs.size();
        KeyConstraint keyNames = null;
        if (n.has("propertyNames") && !SchemaNormalizer.isTrivial(n.get("propertyNames"))) {
            try {
                keyNames = KeyConstraint.of(n.get("propertyNames"), SchemaCompiler.child(ptr, "propertyNames"), languages, sc);
            } catch (GrammarException x) {
                sc.unsupported(ptr, "propertyNames", x.getMessage());
            }
        }
        // a declared name gets its own schema and that of every pattern it matches (both apply);
        // a name only listed in required gets the patterns' schemas, or additionalProperties when none matches
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            boolean matchedPattern = false;
            for (Map.Entry<String, Expr> p : patternExprs.entrySet()) {
                if (ExprLanguage.matches(p.getValue(), key)) {
                    e.getValue().add(patterns.get(p.getKey()));
                    matchedPattern = true;
                }
            }
            if (!props.containsKey(key) && !matchedPattern) e.getValue().add(additional);
        }
        List<ObjectMembers.Slot> slots = new ArrayList<>();
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            boolean req = required.contains(key);
            if (keyNames != null && !keyNames.test(bitsOf(languages, key))) {
                if (req) impossible = true;
                continue;
            }
            List<JsonNode> parts = e.getValue();
            JsonNode schema = parts.size() == 1 ? parts.get(0) : sc.algebra.merge(parts, ptrs.get(key));
            Expr value = sc.compile(schema, ptrs.get(key));
            if (sc.syn.isNothing(value)) {
                if (req) impossible = true;
                continue;
            }
            slots.add(new ObjectMembers.Slot(JsonSyntax.seq(sc.syn.key(key), sc.syn.colon(), value), req));
        }
        Expr extra = patterns.isEmpty() && keyNames == null
            ? additionalMembers(additional, schemas.keySet(), ptr)
            : partitionedMembers(ptr, patterns, additional, schemas.keySet(), languages, declaredBit, keyNames);
        Expr body = impossible ? Expr.NOTHING : sc.members.objectBody(name, slots, extra, minP, maxP);
        sc.syn.rules.put(name, body);
        return Expr.ref(name);
    }

    /** Without patterns or propertyNames: every undeclared key gets additionalProperties (null: no extra member). */
    private Expr additionalMembers(JsonNode additional, Set<String> names, String ptr) {
        if (additional.isBoolean() && !additional.asBoolean()) return null;
        Expr v = sc.compile(additional, SchemaCompiler.child(ptr, "additionalProperties"));
        if (v instanceof Expr.Alt a && a.options().isEmpty()) return null;
        return JsonSyntax.seq(keyExcept(names), sc.syn.colon(), v);
    }

    /**
     * The undeclared keys with patterns or propertyNames, exactly: a key that matches the patterns in a set S
     * (and no other) gets the conjunction of their schemas, a key that matches none gets additionalProperties,
     * and only keys allowed by propertyNames occur. One automaton runs all patterns, the declared names and
     * propertyNames' languages side by side ({@link KeyAutomaton}); each distinct value schema becomes one
     * member whose key language is the union of the classes S that get it (null: no extra member).
     */
    private Expr partitionedMembers(String ptr, Map<String, JsonNode> patterns, JsonNode additional,
                                    Set<String> names, List<Expr> languages, int declaredBit, KeyConstraint keyNames) {
        String kw = patterns.isEmpty() ? "propertyNames" : "patternProperties";
        List<String> patternKeys = new ArrayList<>(patterns.keySet());
        long declared = 1L << declaredBit;
        KeyAutomaton automaton;
        try {
            automaton = new KeyAutomaton(languages);
        } catch (GrammarException x) {
            sc.unsupported(ptr, kw, x.getMessage());
            return additionalMembers(additional, names, ptr);
        }
        // value schema of each class of undeclared keys, by the patterns they match
        Map<Long, String> groupOf = new HashMap<>();
        Map<String, List<JsonNode>> groupParts = new LinkedHashMap<>();
        Map<String, String> groupPtr = new HashMap<>();
        for (long bits : automaton.reachableAccepts()) {
            if ((bits & declared) != 0 || (keyNames != null && !keyNames.test(bits))) continue;
            long matched = bits & (declared - 1);
            if (groupOf.containsKey(matched)) continue;
            List<JsonNode> parts = new ArrayList<>();
            List<String> partPtrs = new ArrayList<>();
            if (matched == 0) {
                parts.add(additional);
                partPtrs.add(SchemaCompiler.child(ptr, "additionalProperties"));
            }
            for (int i = 0; i < patternKeys.size(); i++) {
                if ((matched & (1L << i)) == 0) continue;
                parts.add(patterns.get(patternKeys.get(i)));
                partPtrs.add(SchemaCompiler.child(SchemaCompiler.child(ptr, "patternProperties"), patternKeys.get(i)));
            }
            // the group is the set of distinct non-trivial schemas: keys with equal value schemas share a member
            java.util.TreeMap<String, Integer> distinct = new java.util.TreeMap<>();
            boolean none = false;
            for (int i = 0; i < parts.size(); i++) {
                JsonNode p = parts.get(i);
                if (p.isBoolean() && !p.asBoolean()) none = true;
                if (SchemaNormalizer.isTrivial(p)) continue;
                distinct.putIfAbsent(p.toString(), i);
            }
            String group = none ? "false" : distinct.isEmpty() ? "true" : String.join("\u0000", distinct.keySet());
            groupOf.put(matched, group);
            if (none || groupParts.containsKey(group)) continue;
            List<JsonNode> gp = new ArrayList<>();
            for (int i : distinct.values()) gp.add(parts.get(i));
            groupParts.put(group, gp);
            groupPtr.put(group, distinct.isEmpty() ? ptr : partPtrs.get(distinct.firstEntry().getValue()));
        }
        List<Expr> members = new ArrayList<>();
        boolean allOneGroup = keyNames == null && groupParts.size() == 1 && !groupOf.containsValue("false");
        for (Map.Entry<String, List<JsonNode>> g : groupParts.entrySet()) {
            String group = g.getKey();
            List<JsonNode> gp = g.getValue();
            String at = groupPtr.get(group);
            Expr value = gp.isEmpty() ? sc.syn.anyValue() : sc.compile(gp.size() == 1 ? gp.get(0) : sc.algebra.merge(gp, at), at);
            if (value instanceof Expr.Alt a && a.options().isEmpty()) continue;
            Expr key;
            if (allOneGroup) {
                key = keyExcept(names); // every undeclared key: the trie over the names is smaller than the automaton's result
            } else if (unionOfPatterns(automaton, groupOf, group, declared, keyNames) != 0) {
                // exactly the keys of some patterns: their union, as written (smaller than the automaton's result)
                long q = unionOfPatterns(automaton, groupOf, group, declared, keyNames);
                List<Expr> alts = new ArrayList<>();
                for (int i = 0; i < declaredBit; i++) if ((q & (1L << i)) != 0) alts.add(languages.get(i));
                key = sc.syn.keyLanguage(JsonSyntax.alt(alts));
            } else {
                Expr cps;
                try {
                    cps = automaton.language(bits -> (bits & declared) == 0 && (keyNames == null || keyNames.test(bits))
                        && group.equals(groupOf.get(bits & (declared - 1))));
                } catch (GrammarException x) {
                    sc.unsupported(ptr, kw, x.getMessage());
                    continue;
                }
                if (cps == null) continue;
                key = sc.syn.keyLanguage(cps);
            }
            members.add(JsonSyntax.seq(key, sc.syn.colon(), value));
        }
        if (members.isEmpty()) return null;
        return JsonSyntax.alt(members);
    }

    /**
     * The patterns Q whose union is exactly the keys of {@code group}, or 0: every key matching a pattern of Q
     * is undeclared and in the group, every key of the group matches one of Q, and propertyNames is absent.
     */
    private static long unionOfPatterns(KeyAutomaton automaton, Map<Long, String> groupOf, String group, long declared,
                                        KeyConstraint keyNames) {
        if (keyNames != null) return 0;
        long q = 0;
        for (Map.Entry<Long, String> e : groupOf.entrySet()) {
            if (!e.getValue().equals(group)) continue;
            if (e.getKey() == 0) return 0;
            q |= e.getKey();
        }
        for (long bits : automaton.reachableAccepts()) {
            if ((bits & q) == 0) continue;
            if ((bits & declared) != 0 || !group.equals(groupOf.get(bits & (declared - 1)))) return 0;
        }
        return q;
    }

    /** The languages (bit j: languages.get(j)) that accept {@code key}. */
    private static long bitsOf(List<Expr> languages, String key) {
        long bits = 0;
        for (int j = 0; j < languages.size(); j++) if (ExprLanguage.matches(languages.get(j), key)) bits |= 1L << j;
        return bits;
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

