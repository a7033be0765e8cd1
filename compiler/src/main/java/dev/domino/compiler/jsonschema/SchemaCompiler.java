package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar.KeywordLocation;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON Schema to IR compiler behind {@link JsonSchemaGrammar}: the dispatch over one schema object.
 *
 * <p>A schema is compiled in this order: {@code enum}/{@code const} (also one found in an {@code allOf}
 * part) become the valid constants ({@link ConstantSchemas}); the object is cleaned
 * ({@link SchemaNormalizer}); a conjunction ({@code allOf}, {@code $ref} with siblings, {@code anyOf}/
 * {@code oneOf} with siblings) gets one named rule per distinct merged schema; {@code $ref} alone becomes a
 * rule per target ({@link RefResolver}); {@code allOf} merges ({@link SchemaAlgebra}); {@code anyOf} and
 * {@code oneOf} distribute their siblings over the branches ({@link OneOfRewrites} for oneOf's
 * exclusivity); otherwise one alternative per admitted type: {@link ObjectSchemas}, {@link ArraySchemas},
 * {@link StringSchemas}, {@link NumberSchemas}, and the literals {@code true}, {@code false}, {@code null}.
 */
final class SchemaCompiler {
    final JsonNode root;
    final JsonSchemaOptions opt;
    final boolean refSiblingsIgnored;
    final Set<KeywordLocation> ignored = new LinkedHashSet<>();
    final Set<KeywordLocation> unknown = new LinkedHashSet<>();
    private final Map<String, String> refRules = new HashMap<>();
    private final Map<String, String> mergedRules = new HashMap<>();
    int depth;

    /** Start of the detail of an unknown format's error (such errors are skipped under UnknownFormats.IGNORE). */
    static final String UNKNOWN_FORMAT = "unknown format ";

    final JsonSyntax syn;
    final SchemaNormalizer norm;
    final RefResolver refs;
    final SchemaAlgebra algebra;
    final OneOfRewrites oneOf;
    final ConstantSchemas constants;
    final NumberSchemas numbers;
    final StringSchemas strings;
    final ArraySchemas arrays;
    final ObjectSchemas objects;
    final ObjectMembers members;

    SchemaCompiler(JsonNode root, JsonSchemaOptions opt) {
        this.root = root;
        this.opt = opt;
        String draft = root.isObject() && root.path("$schema").isTextual() ? root.get("$schema").asText() : "";
        this.refSiblingsIgnored = draft.matches(".*draft-0[3-7].*");
        this.syn = new JsonSyntax(this);
        this.norm = new SchemaNormalizer(this);
        this.refs = new RefResolver(this);
        this.algebra = new SchemaAlgebra(this);
        this.oneOf = new OneOfRewrites(this);
        this.constants = new ConstantSchemas(this);
        this.numbers = new NumberSchemas(this);
        this.strings = new StringSchemas(this);
        this.arrays = new ArraySchemas(this);
        this.objects = new ObjectSchemas(this);
        this.members = new ObjectMembers(this);
    }


    Grammar compileRoot() {
        syn.rules.put("root", Expr.EMPTY); // keep "root" first
        syn.usedNames.add("root");
        Expr body = compile(root, "");
        syn.rules.put("root", JsonSyntax.seq(syn.ws, body, syn.ws));
        return Grammar.of("root", syn.rules);
    }

    static String showPointer(String ptr) { return ptr.isEmpty() ? "/" : ptr; }

    static String child(String ptr, String key) { return ptr + "/" + key.replace("~", "~0").replace("/", "~1"); }

    /** Throws unless the keyword is ignored by the options (then records it and returns). */
    void unsupported(String ptr, String kw, String detail) {
        if (opt.ignoredKeywords().contains(kw)) { ignored.add(new KeywordLocation(ptr, kw)); return; }
        if (kw.equals("format") && detail != null && detail.startsWith(UNKNOWN_FORMAT)
                && opt.unknownFormats() == JsonSchemaOptions.UnknownFormats.IGNORE) {
            ignored.add(new KeywordLocation(ptr, kw));
            return;
        }
        throw new GrammarException("unsupported keyword '" + kw + "' at " + showPointer(ptr) + (detail == null ? "" : " (" + detail + ")"));
    }

    Expr compile(JsonNode raw, String ptr) {
        if (++depth > 200) throw new GrammarException("schema at " + showPointer(ptr) + " nests too deeply (recursive allOf/$ref merge?)");
        try {
            return compileInner(raw, ptr);
        } finally {
            depth--;
        }
    }

    Expr compileInner(JsonNode raw, String ptr) {
        norm.checkValues(raw, ptr);
        if (raw.isObject() && (raw.has("enum") || raw.has("const"))) return constants.enumExpr(raw, null, ptr);
        if (raw.isObject() && raw.path("allOf").isArray()) {
            for (JsonNode part : raw.get("allOf")) {
                JsonNode r = part;
                for (int k = 0; k < 32 && r.isObject() && r.has("$ref") && r.size() == 1; k++) {
                    JsonNode t = refs.resolve(r.get("$ref").asText(), ptr);
                    if (t == null) break;
                    r = t;
                }
                if (r.isObject() && (r.has("enum") || r.has("const"))) {
                    norm.checkValues(r, ptr);
                    return constants.enumExpr(raw, r, ptr);
                }
            }
        }
        JsonNode c = norm.clean(raw, ptr);
        if (c.isBoolean()) return c.asBoolean() ? syn.anyValue() : Expr.NOTHING;
        ObjectNode n = (ObjectNode) c;
        if (n.isEmpty()) return syn.anyValue();
        boolean merging = n.has("allOf") || (n.has("$ref") && n.size() > 1 && !refSiblingsIgnored)
            || ((n.has("anyOf") || n.has("oneOf")) && n.size() > 1);
        if (merging) {
            String key = n.toString();
            String existing = mergedRules.get(key);
            if (existing != null) return Expr.ref(existing);
            String name = syn.newName("all_" + (mergedRules.size() + 1));
            mergedRules.put(key, name);
            syn.rules.put(name, Expr.EMPTY);
            syn.rules.put(name, compileCombined(n, ptr));
            return Expr.ref(name);
        }
        return compileCombined(n, ptr);
    }

    Expr compileCombined(ObjectNode n, String ptr) {
        if (n.has("$ref")) {
            String ref = n.get("$ref").asText();
            ObjectNode rest = n.deepCopy();
            rest.remove("$ref");
            if (rest.isEmpty() || refSiblingsIgnored) return refExpr(ref, ptr);
            JsonNode target = refs.resolve(ref, ptr);
            if (target == null) return syn.anyValue();
            return compile(algebra.merge(List.of(target, rest), ptr), ptr);
        }
        if (n.has("allOf")) {
            ObjectNode rest = n.deepCopy();
            JsonNode all = rest.remove("allOf");
            List<JsonNode> parts = new ArrayList<>();
            parts.add(rest);
            all.forEach(parts::add);
            return compile(algebra.merge(parts, ptr), ptr);
        }
        if (n.has("anyOf") || n.has("oneOf")) {
            boolean any = n.has("anyOf");
            String kw = any ? "anyOf" : "oneOf";
            ObjectNode rest = n.deepCopy();
            JsonNode branches = rest.remove(kw);
            if (!any) {
                Expr special = oneOf.oneOfSpecial(n, rest, branches, ptr);
                if (special != null) return special;
            }
            List<JsonNode> merged = new ArrayList<>();
            int i = 0;
            for (JsonNode b : branches) {
                merged.add(rest.isEmpty() ? b : algebra.merge(List.of(rest, b), child(child(ptr, kw), String.valueOf(i))));
                i++;
            }
            if (!any) oneOf.checkDisjoint(merged, ptr);
            List<Expr> alts = new ArrayList<>();
            for (int j = 0; j < merged.size(); j++) alts.add(compile(merged.get(j), child(child(ptr, kw), String.valueOf(j))));
            return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
        }
        EnumSet<JsonType> types = norm.types(n, ptr);
        List<Expr> alts = new ArrayList<>();
        if (types.contains(JsonType.OBJECT)) alts.add(objects.objectExpr(n, ptr));
        if (types.contains(JsonType.ARRAY)) alts.add(arrays.arrayExpr(n, ptr));
        if (types.contains(JsonType.STRING)) alts.add(strings.stringExpr(n, ptr));
        if (types.contains(JsonType.NUMBER)) alts.add(numbers.numberExpr(n, ptr, false));
        else if (types.contains(JsonType.INTEGER)) alts.add(numbers.numberExpr(n, ptr, true));
        if (types.contains(JsonType.BOOLEAN)) { alts.add(Expr.literal("true")); alts.add(Expr.literal("false")); }
        if (types.contains(JsonType.NULL)) alts.add(Expr.literal("null"));
        return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
    }

    Expr refExpr(String ref, String ptr) {
        JsonNode target = refs.resolve(ref, ptr);
        if (target == null) return syn.anyValue();
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        String existing = refRules.get(pointer);
        if (existing != null) return Expr.ref(existing);
        String last = pointer.isEmpty() ? "root" : pointer.substring(pointer.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        String name = syn.newName("def_" + last.replaceAll("[^A-Za-z0-9_]", "_"));
        refRules.put(pointer, name);
        syn.rules.put(name, Expr.EMPTY);
        syn.rules.put(name, compile(target, pointer));
        return Expr.ref(name);
    }
}
