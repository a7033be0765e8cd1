package dev.domino.compiler.jsonschema.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.KeywordValues;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;
import dev.domino.compiler.jsonschema.strings.StringsExcept;

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
 *
 * <p>Quantifiers ({@link KeyQuantifiers}): a forall entry is one more schema for the keys of its language
 * (declared or not). Exists entries need witnesses: the body is the union over every way to witness them
 * ({@link #witnessings}): an entry is witnessed by a declared name in its key language (that property becomes
 * required and its value must match the entry's value too) or by an undeclared key, the entries of the latter
 * grouped in every set partition, each block one more required member (its key in all the block's languages,
 * its value matching all their values and what the object says about that key). Witness members count
 * towards min/maxProperties like any member; other keys of the same languages stay extra members.
 */
public final class ObjectSchemas {
    private final SchemaCompiler sc;
    private int objCounter;

    public ObjectSchemas(SchemaCompiler sc) { this.sc = sc; }

    public Expr objectExpr(ObjectNode n, String ptr) {
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
        // quantifiers over key languages (KeyQuantifiers), their languages appended in turn
        List<Quantified> foralls = quantified(n, KeyQuantifiers.FORALL, languages, ptr);
        List<Quantified> exists = quantified(n, KeyQuantifiers.EXISTS, languages, ptr);
        // a declared name gets its own schema and that of every pattern it matches (both apply);
        // a name only listed in required gets the patterns' schemas, or additionalProperties when none matches;
        // every forall whose keys include the name applies too
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
            long bits = bitsOf(languages, key);
            for (Quantified q : foralls) if (q.keys().test(bits)) e.getValue().add(q.value());
        }
        Undeclared undeclared = new Undeclared(ptr, new ArrayList<>(patterns.keySet()), patterns, additional, foralls,
            declaredBit, keyNames);
        Expr extra = null;
        boolean extraBuilt = false; // after the first declared values: rules keep the order they had before quantifiers
        List<Expr> bodies = new ArrayList<>();
        Map<String, Expr> plainValues = new HashMap<>(); // a declared name's value when it witnesses nothing
        Map<List<Integer>, java.util.Optional<Expr>> witnessMembers = new HashMap<>();
        KeyAutomaton.Once keyAutomaton = new KeyAutomaton.Once(languages);
        Expr blame = null; // the first required value that admits nothing: an empty object's place in error messages
        for (Witnessing w : witnessings(exists, schemas, languages, keyNames, ptr)) {
            List<ObjectMembers.Slot> slots = new ArrayList<>();
            boolean impossible = false;
            for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
                String key = e.getKey();
                List<JsonNode> parts = new ArrayList<>(e.getValue());
                List<Integer> witnessed = w.declared().getOrDefault(key, List.of());
                for (int i : witnessed) parts.add(exists.get(i).value());
                boolean req = required.contains(key) || !witnessed.isEmpty();
                if (keyNames != null && !keyNames.test(bitsOf(languages, key))) {
                    if (req) impossible = true;
                    continue;
                }
                Expr value = witnessed.isEmpty() ? plainValues.get(key) : null;
                if (value == null) {
                    JsonNode schema = parts.size() == 1 ? parts.get(0) : sc.algebra.merge(parts, ptrs.get(key));
                    value = sc.compile(schema, ptrs.get(key));
                    if (witnessed.isEmpty()) plainValues.put(key, value);
                }
                if (sc.syn.isNothing(value)) {
                    if (req) impossible = true;
                    if (req && blame == null) blame = value;
                    continue;
                }
                slots.add(new ObjectMembers.Slot(JsonSyntax.seq(sc.syn.key(key), sc.syn.colon(), value), req));
            }
            if (!extraBuilt) {
                extra = patterns.isEmpty() && keyNames == null && foralls.isEmpty()
                    ? additionalMembers(additional, schemas.keySet(), ptr)
                    : partitionedMembers(undeclared, schemas.keySet(), languages, keyAutomaton);
                extraBuilt = true;
            }
            for (List<Integer> block : w.blocks()) {
                java.util.Optional<Expr> member = witnessMembers.get(block);
                if (member == null) {
                    member = java.util.Optional.ofNullable(witnessMember(undeclared, block, exists, languages, keyAutomaton));
                    witnessMembers.put(block, member);
                }
                if (member.isEmpty()) { impossible = true; break; }
                slots.add(new ObjectMembers.Slot(member.get(), true));
            }
            if (impossible) continue;
            bodies.add(sc.members.objectBody(name, slots, extra, minP, maxP));
        }
        sc.syn.rules.put(name, bodies.isEmpty() ? (blame != null ? blame : Expr.NOTHING) : JsonSyntax.alt(bodies));
        return Expr.ref(name);
    }

    /** A quantifier entry: its key constraint (over the shared languages), value schema and keyword. */
    record Quantified(KeyConstraint keys, JsonNode value, String kw) {}

    private List<Quantified> quantified(ObjectNode n, String quantifier, List<Expr> languages, String ptr) {
        List<Quantified> out = new ArrayList<>();
        for (JsonNode e : KeyQuantifiers.entries(n, quantifier)) {
            String kw = e.path("kw").asText("not");
            try {
                out.add(new Quantified(KeyConstraint.of(e.get("keys"), ptr, languages, sc), e.get("value"), kw));
            } catch (GrammarException x) {
                sc.unsupported(ptr, kw, x.getMessage());
            }
        }
        return out;
    }

    /**
     * One way the exists entries are witnessed: {@code declared} maps a declared name to the entries it witnesses
     * (it is present and its value matches their values too); {@code blocks} groups the other entries by the
     * undeclared member that witnesses them (one member per block, distinct members for distinct blocks).
     */
    record Witnessing(Map<String, List<Integer>> declared, List<List<Integer>> blocks) {}

    /** The most ways of witnessing the exists entries of one object (alternatives of its body). */
    static final int MAX_WITNESSINGS = 256;

    /**
     * Every way to witness the exists entries, exactly: each entry is witnessed by one of the declared names in
     * its key language or by an undeclared key; the entries witnessed by undeclared keys are split into blocks
     * in every way (a set partition: one member may witness several entries, when its key is in all their key
     * languages and its value matches all their values). An object satisfies the entries iff one of these
     * witnessings describes it. Without exists entries: one witnessing with nothing to witness.
     */
    private List<Witnessing> witnessings(List<Quantified> exists, Map<String, List<JsonNode>> schemas, List<Expr> languages,
                                         KeyConstraint keyNames, String ptr) {
        List<Witnessing> out = new ArrayList<>();
        if (exists.isEmpty()) { out.add(new Witnessing(Map.of(), List.of())); return out; }
        List<List<String>> options = new ArrayList<>(); // per entry: declared names that may witness it; null: undeclared
        for (Quantified q : exists) {
            List<String> names = new ArrayList<>();
            for (String key : schemas.keySet()) {
                long bits = bitsOf(languages, key);
                if (q.keys().test(bits) && (keyNames == null || keyNames.test(bits))) names.add(key);
            }
            names.add(null);
            options.add(names);
        }
        int[] choice = new int[exists.size()];
        while (true) {
            Map<String, List<Integer>> declared = new LinkedHashMap<>();
            List<Integer> rest = new ArrayList<>();
            for (int i = 0; i < choice.length; i++) {
                String name = options.get(i).get(choice[i]);
                if (name == null) rest.add(i);
                else declared.computeIfAbsent(name, k -> new ArrayList<>()).add(i);
            }
            for (List<List<Integer>> blocks : partitions(rest)) {
                out.add(new Witnessing(declared, blocks));
                if (out.size() > MAX_WITNESSINGS) {
                    sc.unsupported(ptr, exists.get(0).kw(), "more than " + MAX_WITNESSINGS + " ways to witness " + exists.size()
                        + " required members of key languages");
                    return out.subList(0, MAX_WITNESSINGS);
                }
            }
            int i = 0;
            while (i < choice.length && ++choice[i] == options.get(i).size()) choice[i++] = 0;
            if (i == choice.length) break;
        }
        return out;
    }

    /** Every set partition of {@code items} (blocks in order of their first item). */
    static List<List<List<Integer>>> partitions(List<Integer> items) {
        List<List<List<Integer>>> out = new ArrayList<>();
        if (items.isEmpty()) { out.add(List.of()); return out; }
        int first = items.get(0);
        for (List<List<Integer>> p : partitions(items.subList(1, items.size()))) {
            List<List<Integer>> alone = new ArrayList<>();
            List<Integer> single = new ArrayList<>();
            single.add(first);
            alone.add(single);
            for (List<Integer> b : p) alone.add(new ArrayList<>(b));
            out.add(alone);
            for (int j = 0; j < p.size(); j++) {
                List<List<Integer>> joined = new ArrayList<>();
                for (int k = 0; k < p.size(); k++) {
                    List<Integer> b = new ArrayList<>(p.get(k));
                    if (k == j) b.add(0, first);
                    joined.add(b);
                }
                out.add(joined);
            }
        }
        return out;
    }

    /**
     * The undeclared keys and the value schema the object gives each: the conjunction of the patterns they match
     * (additionalProperties when none) and the foralls whose key language contains them; only keys allowed by
     * propertyNames. Keys are classified by a signature: bit i for pattern i, bit (patterns + j) for forall j.
     */
    private final class Undeclared {
        final String ptr;
        final List<String> patternKeys;
        final Map<String, JsonNode> patterns;
        final JsonNode additional;
        final List<Quantified> foralls;
        final long declared;
        final long patternMask;
        final KeyConstraint keyNames;
        /** Group (the distinct value schemas, "false" when none is possible) of each signature seen. */
        final Map<Long, String> groupOf = new HashMap<>();
        final Map<String, List<JsonNode>> groupParts = new LinkedHashMap<>();
        final Map<String, String> groupPtr = new HashMap<>();

        Undeclared(String ptr, List<String> patternKeys, Map<String, JsonNode> patterns, JsonNode additional,
                   List<Quantified> foralls, int declaredBit, KeyConstraint keyNames) {
            this.ptr = ptr;
            this.patternKeys = patternKeys;
            this.patterns = patterns;
            this.additional = additional;
            this.foralls = foralls;
            this.declared = 1L << declaredBit;
            this.patternMask = declared - 1;
            this.keyNames = keyNames;
        }

        boolean allowed(long bits) { return (bits & declared) == 0 && (keyNames == null || keyNames.test(bits)); }

        long signature(long bits) {
            long sig = bits & patternMask;
            for (int j = 0; j < foralls.size(); j++) if (foralls.get(j).keys().test(bits)) sig |= 1L << (patternKeys.size() + j);
            return sig;
        }

        /** The group of the keys with these accept bits (computed once per signature). */
        String group(long bits) {
            long sig = signature(bits);
            String known = groupOf.get(sig);
            if (known != null) return known;
            List<JsonNode> parts = new ArrayList<>();
            List<String> partPtrs = new ArrayList<>();
            if ((sig & patternMask) == 0) {
                parts.add(additional);
                partPtrs.add(SchemaCompiler.child(ptr, "additionalProperties"));
            }
            for (int i = 0; i < patternKeys.size(); i++) {
                if ((sig & (1L << i)) == 0) continue;
                parts.add(patterns.get(patternKeys.get(i)));
                partPtrs.add(SchemaCompiler.child(SchemaCompiler.child(ptr, "patternProperties"), patternKeys.get(i)));
            }
            for (int j = 0; j < foralls.size(); j++) {
                if ((sig & (1L << (patternKeys.size() + j))) == 0) continue;
                parts.add(foralls.get(j).value());
                partPtrs.add(ptr);
            }
            // the group is the set of distinct non-trivial schemas: keys with equal value schemas share a member
            TreeMap<String, Integer> distinct = new TreeMap<>();
            boolean none = false;
            for (int i = 0; i < parts.size(); i++) {
                JsonNode p = parts.get(i);
                if (p.isBoolean() && !p.asBoolean()) none = true;
                if (SchemaNormalizer.isTrivial(p)) continue;
                distinct.putIfAbsent(p.toString(), i);
            }
            String group = none ? "false" : distinct.isEmpty() ? "true" : String.join("\u0000", distinct.keySet());
            groupOf.put(sig, group);
            if (!none && !groupParts.containsKey(group)) {
                List<JsonNode> gp = new ArrayList<>();
                for (int i : distinct.values()) gp.add(parts.get(i));
                groupParts.put(group, gp);
                groupPtr.put(group, distinct.isEmpty() ? ptr : partPtrs.get(distinct.firstEntry().getValue()));
            }
            return group;
        }

        /** The value schemas of a group (not "false"). */
        JsonNode schema(String group, List<JsonNode> more) {
            List<JsonNode> all = new ArrayList<>(groupParts.get(group));
            all.addAll(more);
            if (all.isEmpty()) return com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
            return all.size() == 1 ? all.get(0) : sc.algebra.merge(all, groupPtr.get(group));
        }
    }

    /**
     * The member witnessing a block of exists entries: an undeclared key in all their key languages (and allowed
     * by propertyNames), whose value matches all their values and what the object says about that key; one
     * alternative per group of such keys. Null when no such member exists.
     */
    private Expr witnessMember(Undeclared u, List<Integer> block, List<Quantified> exists, List<Expr> languages,
                               KeyAutomaton.Once keyAutomaton) {
        String kw = exists.get(block.get(0)).kw();
        KeyAutomaton automaton;
        try {
            automaton = keyAutomaton.get();
        } catch (GrammarException x) {
            sc.unsupported(u.ptr, kw, x.getMessage());
            return null;
        }
        java.util.function.LongPredicate inBlock = bits -> {
            if (!u.allowed(bits)) return false;
            for (int i : block) if (!exists.get(i).keys().test(bits)) return false;
            return true;
        };
        List<JsonNode> values = new ArrayList<>();
        for (int i : block) values.add(exists.get(i).value());
        Set<String> groups = new LinkedHashSet<>();
        for (long bits : automaton.reachableAccepts()) if (inBlock.test(bits)) groups.add(u.group(bits));
        groups.remove("false");
        List<Expr> members = new ArrayList<>();
        for (String group : groups) {
            Expr value = sc.compile(u.schema(group, values), u.groupPtr.get(group));
            if (sc.syn.isNothing(value)) continue;
            Expr cps;
            try {
                cps = automaton.language(bits -> inBlock.test(bits) && group.equals(u.group(bits)));
            } catch (GrammarException x) {
                sc.unsupported(u.ptr, kw, x.getMessage());
                continue;
            }
            if (cps == null) continue;
            members.add(JsonSyntax.seq(sc.syn.keyLanguage(cps), sc.syn.colon(), value));
        }
        return members.isEmpty() ? null : JsonSyntax.alt(members);
    }

    /** Without patterns or propertyNames: every undeclared key gets additionalProperties (null: no extra member). */
    private Expr additionalMembers(JsonNode additional, Set<String> names, String ptr) {
        if (additional.isBoolean() && !additional.asBoolean()) return null;
        Expr v = sc.compile(additional, SchemaCompiler.child(ptr, "additionalProperties"));
        if (v instanceof Expr.Alt a && a.options().isEmpty()) return null;
        return JsonSyntax.seq(keyExcept(names), sc.syn.colon(), v);
    }

    /**
     * The undeclared keys with patterns, propertyNames or foralls, exactly: a key gets the conjunction of the
     * schemas of the patterns it matches (additionalProperties when none) and of the foralls whose key language
     * contains it ({@link Undeclared}), and only keys allowed by propertyNames occur. One automaton runs all
     * patterns, the declared names and the key languages of propertyNames and the quantifiers side by side
     * ({@link KeyAutomaton}); each distinct value schema becomes one member whose key language is the union of
     * the classes that get it (null: no extra member).
     */
    private Expr partitionedMembers(Undeclared u, Set<String> names, List<Expr> languages, KeyAutomaton.Once keyAutomaton) {
        String kw = !u.patterns.isEmpty() ? "patternProperties" : u.keyNames != null ? "propertyNames" : u.foralls.get(0).kw();
        KeyAutomaton automaton;
        try {
            automaton = keyAutomaton.get();
        } catch (GrammarException x) {
            sc.unsupported(u.ptr, kw, x.getMessage());
            return additionalMembers(u.additional, names, u.ptr);
        }
        Set<String> groups = new LinkedHashSet<>();
        for (long bits : automaton.reachableAccepts()) if (u.allowed(bits)) groups.add(u.group(bits));
        boolean allOneGroup = u.keyNames == null && groups.size() == 1 && !groups.contains("false");
        groups.remove("false");
        List<Expr> members = new ArrayList<>();
        for (String group : groups) {
            Expr value = sc.compile(u.schema(group, List.of()), u.groupPtr.get(group));
            if (value instanceof Expr.Alt a && a.options().isEmpty()) continue;
            Expr key;
            long q = allOneGroup ? 0 : unionOfPatterns(automaton, u, group);
            if (allOneGroup) {
                key = keyExcept(names); // every undeclared key: the trie over the names is smaller than the automaton's result
            } else if (q != 0) {
                // exactly the keys of some patterns: their union, as written (smaller than the automaton's result)
                List<Expr> alts = new ArrayList<>();
                for (int i = 0; i < u.patternKeys.size(); i++) if ((q & (1L << i)) != 0) alts.add(languages.get(i));
                key = sc.syn.keyLanguage(JsonSyntax.alt(alts));
            } else {
                Expr cps;
                try {
                    cps = automaton.language(bits -> u.allowed(bits) && group.equals(u.group(bits)));
                } catch (GrammarException x) {
                    sc.unsupported(u.ptr, kw, x.getMessage());
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
     * is undeclared and in the group, every key of the group matches one of Q, and neither propertyNames nor
     * foralls are present (a signature is then the set of patterns matched).
     */
    private static long unionOfPatterns(KeyAutomaton automaton, Undeclared u, String group) {
        if (u.keyNames != null || !u.foralls.isEmpty()) return 0;
        long q = 0;
        for (Map.Entry<Long, String> e : u.groupOf.entrySet()) {
            if (!e.getValue().equals(group)) continue;
            if (e.getKey() == 0) return 0;
            q |= e.getKey();
        }
        for (long bits : automaton.reachableAccepts()) {
            if ((bits & q) == 0) continue;
            if ((bits & u.declared) != 0 || !group.equals(u.group(bits))) return 0;
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
        Expr cps = names.isEmpty() ? Expr.star(Expr.chars(CodePointSet.ANY)) : new Expr.Automaton(StringsExcept.of(names));
        return sc.syn.keyLanguage(cps);
    }
}

