package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar.KeywordLocation;
import dev.domino.compiler.jsonschema.algebra.CodePointDfa;
import dev.domino.compiler.jsonschema.algebra.ConditionalSchemas;
import dev.domino.compiler.jsonschema.algebra.OneOfRewrites;
import dev.domino.compiler.jsonschema.algebra.SchemaAlgebra;
import dev.domino.compiler.jsonschema.algebra.SchemaComplement;
import dev.domino.compiler.jsonschema.algebra.SchemaEmptiness;
import dev.domino.compiler.jsonschema.algebra.StringLanguages;
import dev.domino.compiler.jsonschema.algebra.UnevaluatedKeywords;
import dev.domino.compiler.jsonschema.algebra.UnionProduct;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.numbers.NumberSchemas;
import dev.domino.compiler.jsonschema.objects.ObjectMembers;
import dev.domino.compiler.jsonschema.objects.ObjectSchemas;
import dev.domino.compiler.jsonschema.refs.Dialects;
import dev.domino.compiler.jsonschema.refs.DynamicRefs;
import dev.domino.compiler.jsonschema.refs.RefResolver;
import dev.domino.compiler.jsonschema.refs.RemoteSchemas;
import dev.domino.compiler.jsonschema.refs.Vocabularies;
import dev.domino.compiler.jsonschema.strings.Formats;
import dev.domino.compiler.jsonschema.strings.JsonStrings;
import dev.domino.compiler.jsonschema.strings.StringSchemas;

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
 * rule per target ({@link RefResolver}); {@code allOf} merges ({@link SchemaAlgebra}; the conditional
 * keywords arrive there as allOf parts, {@link ConditionalSchemas}); a {@code not} that constrains more
 * than the type is intersected with its complement ({@link SchemaComplement}); {@code anyOf} and
 * {@code oneOf} distribute their siblings over the branches ({@link OneOfRewrites}: each oneOf branch
 * minus the branches it may overlap); otherwise one alternative per admitted type: {@link ObjectSchemas},
 * {@link ArraySchemas}, {@link StringSchemas} (or {@link #stringAlgebra} under the complement's internal
 * string keywords), {@link NumberSchemas}, and the literals {@code true}, {@code false}, {@code null}.
 * Rules that derive nothing are pruned at the end ({@link UnproductiveRules}).
 */
public final class SchemaCompiler {
    /** The schema, with the registry's documents its references name embedded ({@link RemoteSchemas}). */
    public final JsonNode root;
    /** Retrieval URI -> pointer of each embedded registry document. */
    public final Map<String, String> remotes;
    public final JsonSchemaOptions opt;
    public final boolean refSiblingsIgnored;
    /** The root's {@code $schema}, else the options' default dialect ("" when neither: 2020-12). */
    public final String draft;
    public final Set<KeywordLocation> ignored = new LinkedHashSet<>();
    final Set<KeywordLocation> unknown = new LinkedHashSet<>();
    private final Map<String, String> refRules = new HashMap<>();
    private final Map<String, String> mergedRules = new HashMap<>();
    /** Why no JSON value satisfies the schema, after {@link #compileRoot()}; null when some does. */
    String emptyLanguage;
    /** Where each compiled expression came from, to name the part of an empty schema to blame. */
    private final EmptySchemaDiagnosis diagnosis = new EmptySchemaDiagnosis();
    int depth;

    /** The most distinct combined schemas (allOf merges, complements) one schema may need. */
    static final int MAX_MERGED_RULES = 1000;

    /** Start of the detail of an unknown format's error (such errors are skipped under UnknownFormats.IGNORE). */
    static final String UNKNOWN_FORMAT = Formats.UNKNOWN;

    public final JsonSyntax syn;
    public final SchemaNormalizer norm;
    public final RefResolver refs;
    public final SchemaAlgebra algebra;
    public final OneOfRewrites oneOf;
    public final SchemaComplement complement;
    public final SchemaEmptiness emptiness;
    public final UnionProduct products;
    public final StringLanguages languages;
    public final ConstantSchemas constants;
    final NumberSchemas numbers;
    final StringSchemas strings;
    final ArraySchemas arrays;
    final ObjectSchemas objects;
    public final UnevaluatedKeywords unevaluated;
    public final ObjectMembers members;
    /** The schema document's own objects, by identity (built on first use, for dialects before 2020-12). */
    private Set<JsonNode> writtenObjects;

    SchemaCompiler(JsonNode root, JsonSchemaOptions opt) {
        this.opt = opt;
        String declared = root.isObject() && root.path("$schema").isTextual() ? root.get("$schema").asText()
            : opt.defaultDialect() == null ? "" : opt.defaultDialect().uri();
        // a custom meta-schema: its own dialect, and only the keywords of the vocabularies it lists
        String draft = Vocabularies.dialect(declared, opt.schemaRegistry());
        root = Vocabularies.apply(root, declared, opt.schemaRegistry(), unknown);
        this.refSiblingsIgnored = Dialects.draft7OrEarlier(draft);
        this.draft = draft;
        RemoteSchemas.Embedded embedded = RemoteSchemas.embed(root, opt.schemaRegistry(), draft);
        this.root = DynamicRefs.rewrite(embedded.root(), draft, embedded.remotes());
        this.remotes = embedded.remotes();
        this.syn = new JsonSyntax(this);
        this.norm = new SchemaNormalizer(this);
        this.refs = new RefResolver(this);
        this.algebra = new SchemaAlgebra(this);
        this.oneOf = new OneOfRewrites(this);
        this.complement = new SchemaComplement(this);
        this.emptiness = new SchemaEmptiness(this);
        this.products = new UnionProduct(this);
        this.languages = new StringLanguages(this);
        this.constants = new ConstantSchemas(this);
        this.numbers = new NumberSchemas(this);
        this.strings = new StringSchemas(this);
        this.arrays = new ArraySchemas(this);
        this.objects = new ObjectSchemas(this);
        this.unevaluated = new UnevaluatedKeywords(this);
        this.members = new ObjectMembers(this);
    }


    Grammar compileRoot() {
        syn.rules.put("root", Expr.EMPTY); // keep "root" first
        syn.usedNames.add("root");
        Expr body = compile(root, "");
        syn.rules.put("root", JsonSyntax.seq(syn.ws, body, syn.ws));
        java.util.Set<String> productive = dev.domino.compiler.ir.Productivity.productiveRules(syn.rules);
        if (!productive.contains("root")) emptyLanguage = diagnosis.error(syn.rules, productive, root).getMessage();
        return Grammar.of("root", UnproductiveRules.prune(syn.rules, productive));
    }

    /**
     * Whether the dialect's keyword set applies to this schema object: true for the document's own objects, false
     * for those the algebra builds (complements, differences, merges), whose keywords ({@code propertyNames},
     * {@code contains}, {@code const} in a draft 4 schema) always have their 2020-12 meaning.
     */
    public boolean writtenInDialect(JsonNode node) {
        if (Dialects.of(draft) == JsonSchemaOptions.Dialect.DRAFT_2020_12) return true;
        if (writtenObjects == null) {
            writtenObjects = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            collectObjects(root, writtenObjects);
        }
        return writtenObjects.contains(node);
    }

    private static void collectObjects(JsonNode node, Set<JsonNode> into) {
        if (node.isObject()) into.add(node);
        if (node.isContainerNode()) for (JsonNode child : node) collectObjects(child, into);
    }

    /** Whether {@code format} asserts ({@link JsonSchemaOptions#formatMode()}). */
    public boolean formatsAsserted() { return opt.formatMode() == JsonSchemaOptions.FormatMode.ASSERT; }

    public static String showPointer(String ptr) { return ptr.isEmpty() ? "/" : ptr; }

    public static String child(String ptr, String key) { return ptr + "/" + key.replace("~", "~0").replace("/", "~1"); }

    /** Throws unless the keyword is ignored by the options (then records it and returns). */
    public void unsupported(String ptr, String kw, String detail) {
        if (opt.ignoredKeywords().contains(kw)) { ignored.add(new KeywordLocation(ptr, kw)); return; }
        if (kw.equals("format") && detail != null && detail.startsWith(UNKNOWN_FORMAT)
                && !(detail.startsWith(Formats.UNKNOWN_DRAFT3) && draft.contains("draft-03"))
                && opt.unknownFormats() == JsonSchemaOptions.UnknownFormats.IGNORE) {
            ignored.add(new KeywordLocation(ptr, kw));
            return;
        }
        throw new GrammarException("unsupported keyword '" + kw + "' at " + showPointer(located(ptr)) + (detail == null ? "" : " (" + detail + ")"));
    }

    /** A pointer into an embedded registry document as that document's URI and fragment (else unchanged). */
    private String located(String ptr) {
        if (remotes == null) return ptr;
        for (Map.Entry<String, String> r : remotes.entrySet()) {
            String at = r.getValue();
            if (ptr.equals(at) || ptr.startsWith(at + "/")) return r.getKey() + "#" + ptr.substring(at.length());
        }
        return ptr;
    }

    public Expr compile(JsonNode raw, String ptr) {
        if (++depth > 200) throw new GrammarException("schema at " + showPointer(ptr) + " nests too deeply (recursive allOf/$ref merge?)");
        dev.domino.compiler.CompileLimits.checkClock(); // the algebra can multiply alternatives: stay inside compile-seconds
        try {
            return diagnosis.record(compileInner(raw, ptr), ptr);
        } finally {
            depth--;
        }
    }

    Expr compileInner(JsonNode raw, String ptr) {
        if (refSiblingsIgnored && raw.isObject() && raw.has("$ref") && raw.size() > 1) {
            // up to draft 7 a schema with $ref is the reference alone: enum, const, type ... beside it are
            // ignored (they stay in the document, where a JSON pointer still reaches definitions)
            ObjectNode only = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            only.set("$ref", raw.get("$ref"));
            raw = only;
        }
        if (raw.isObject() && raw.has("const") && !Dialects.defines("const", draft) && writtenInDialect(raw)) {
            // draft 4 has no const: an unknown keyword, asserting nothing
            unknown.add(new KeywordLocation(ptr, "const"));
            ObjectNode copy = ((ObjectNode) raw).deepCopy();
            copy.remove("const");
            if (writtenInDialect(raw)) writtenObjects.add(copy);
            raw = copy;
        }
        norm.checkValues(raw, ptr);
        JsonNode expanded = unevaluated.expand(raw, ptr);
        if (expanded != null) return compile(expanded, ptr);
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
            || ((n.has("anyOf") || n.has("oneOf")) && n.size() > 1) || complementedNot(n, ptr);
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
        boolean combines = n.has("allOf") || n.has("oneOf") || complementedNot(n, ptr)
            || ((n.has("anyOf") || n.has("$ref") && !refSiblingsIgnored) && n.size() > 1);
        if (combines) {
            // a combination of string constraints only: one automaton, never a product of schemas
            List<JsonNode> exact = languages.asSchemas(n, false, ptr);
            if (exact != null) {
                List<Expr> alts = new ArrayList<>();
                for (JsonNode s : exact) alts.add(compile(s, ptr));
                return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
            }
        }
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
        if (complementedNot(n, ptr)) {
            // rest and not N = the union over N's complement alternatives of (rest and alternative)
            if (mergedRules.size() > MAX_MERGED_RULES) {
                unsupported(ptr, "not", "its complement needs more than " + MAX_MERGED_RULES + " combined schemas");
                return syn.anyValue();
            }
            ObjectNode rest = n.deepCopy();
            JsonNode not = rest.remove("not");
            List<Expr> alts = new ArrayList<>();
            for (JsonNode alt : complement.complement(not, rest, child(ptr, "not"))) {
                JsonNode m = algebra.merge(List.of(rest, alt), ptr);
                if (!algebra.isEmpty(m, ptr) && !emptiness.empty(m, ptr)) alts.add(compile(m, ptr));
            }
            return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
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
            List<Expr> alts = new ArrayList<>();
            if (!any) {
                alts.addAll(oneOf.exclusiveBranches(merged, ptr));
                return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
            }
            for (int j = 0; j < merged.size(); j++) alts.add(compile(merged.get(j), child(child(ptr, kw), String.valueOf(j))));
            return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
        }
        EnumSet<JsonType> types = norm.types(n, ptr);
        List<Expr> alts = new ArrayList<>();
        if (types.contains(JsonType.OBJECT)) alts.add(objects.objectExpr(n, ptr));
        if (types.contains(JsonType.ARRAY)) alts.add(arrays.arrayExpr(n, ptr));
        if (types.contains(JsonType.STRING)) alts.add(SchemaComplement.STRING_ALGEBRA.stream().anyMatch(n::has) ? stringAlgebra(n, ptr) : strings.stringExpr(n, ptr));
        if (types.contains(JsonType.NUMBER) && !types.contains(JsonType.INTEGER)) alts.add(nonIntegers(n, ptr));
        else if (types.contains(JsonType.NUMBER)) alts.add(numbers.numberExpr(n, ptr, false));
        else if (types.contains(JsonType.INTEGER)) alts.add(zeroFraction(numbers.numberExpr(n, ptr, true)));
        if (types.contains(JsonType.BOOLEAN)) { alts.add(Expr.literal("true")); alts.add(Expr.literal("false")); }
        if (types.contains(JsonType.NULL)) alts.add(Expr.literal("null"));
        return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
    }

    /** Whether integers may be written with a zero fraction: the option, from draft 6 on (draft 4's 1.0 is no integer). */
    boolean zeroFractionIntegers() { return opt.zeroFractionIntegers() && !Dialects.draft4OrEarlier(draft); }

    /** Integer spellings, followed by a zero fraction ({@code .0}, {@code .00}, ...) where the option allows it. */
    Expr zeroFraction(Expr integers) {
        if (!zeroFractionIntegers() || syn.isNothing(integers)) return integers;
        return Expr.seq(integers, Expr.optional(Expr.seq(Expr.literal("."), Expr.plus(Expr.chars(dev.domino.compiler.ir.CodePointSet.of('0'))))));
    }

    /** A {@code not} that constrains more than the type: compiled as the intersection with its complement. */
    public boolean complementedNot(ObjectNode n, String ptr) {
        return n.has("not") && norm.typeOnly(n.get("not"), child(ptr, "not")) == null;
    }

    /**
     * Numbers that are not integers ({@code type: number, not: {type: integer}}): without bounds or multiples
     * {@link SchemaComplement#NON_INTEGER} (also scientific spellings); with them "not a multiple of 1" next to
     * them ({@link NumberMultiples}, plain spellings).
     */
    Expr nonIntegers(ObjectNode n, String ptr) {
        boolean constrained = false;
        for (String kw : List.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", NumberMultiples.NOT_MULTIPLES))
            constrained |= n.has(kw);
        if (!constrained) return SchemaComplement.NON_INTEGER;
        ObjectNode withNot = n.deepCopy();
        com.fasterxml.jackson.databind.node.ArrayNode excluded = withNot.has(NumberMultiples.NOT_MULTIPLES)
            ? (com.fasterxml.jackson.databind.node.ArrayNode) withNot.get(NumberMultiples.NOT_MULTIPLES)
            : withNot.putArray(NumberMultiples.NOT_MULTIPLES);
        excluded.add(1);
        return numbers.numberExpr(withNot, ptr, false);
    }

    /**
     * Strings under the string algebra's internal keywords ({@link SchemaComplement#STRING_ALGEBRA}):
     * pattern, every listed pattern, format and the length bounds intersected, the excluded patterns,
     * formats and constants subtracted, on code point automata ({@link CodePointDfa}).
     */
    /** States of a string language intersected with its length bounds, above which the bounds become a counter. */
    static final int MAX_LENGTH_PRODUCT = 300;
    /** Product states built (before minimization) for such an intersection when a counter is the alternative. */
    static final int MAX_LENGTH_PRODUCT_BUILT = 10 * MAX_LENGTH_PRODUCT;

    Expr stringAlgebra(ObjectNode n, String ptr) {
        int minL = KeywordValues.countOr(n, "minLength", 0, ptr);
        int maxL = KeywordValues.countOr(n, "maxLength", Expr.Repeat.UNBOUNDED, ptr);
        if (maxL != Expr.Repeat.UNBOUNDED && maxL < minL) return Expr.NOTHING;
        String kw = "pattern";
        try {
            boolean bounded = minL > 0 || maxL != Expr.Repeat.UNBOUNDED;
            CodePointDfa lang = CodePointDfa.lengths(0, Expr.Repeat.UNBOUNDED);
            List<JsonNode> patterns = new ArrayList<>();
            if (n.has("pattern")) patterns.add(n.get("pattern"));
            n.path(SchemaComplement.ALL_PATTERNS).forEach(patterns::add);
            for (JsonNode p : patterns) lang = lang.intersect(regex(p.asText()));
            kw = "format";
            if (n.has("format")) {
                Expr f = Formats.format(n.get("format").asText());
                if (f == null) unsupported(ptr, "format", Formats.refusal(n.get("format").asText()));
                else lang = lang.intersect(f);
            }
            kw = "not";
            for (JsonNode p : n.path(SchemaComplement.NOT_PATTERNS)) lang = lang.intersect(CodePointDfa.of(regex(p.asText())).complement());
            for (JsonNode id : n.path(StringLanguages.KEYWORD)) lang = lang.intersect(languages.language(id.asInt()));
            for (JsonNode p : n.path(SchemaComplement.NOT_FORMATS)) {
                Expr f = Formats.format(p.asText());
                // an ignored format is an annotation that every string satisfies: "not" it, and none is left
                if (f == null) { unsupported(ptr, "format", Formats.refusal(p.asText())); return Expr.NOTHING; }
                lang = lang.intersect(CodePointDfa.outside(f));
            }
            List<Expr> excluded = new ArrayList<>();
            for (JsonNode x : n.path(SchemaComplement.NOT_STRINGS)) excluded.add(Expr.literal(x.asText()));
            if (!excluded.isEmpty()) lang = lang.intersect(CodePointDfa.of(new Expr.Alt(excluded)).complement());
            // the language goes into the grammar as its automaton (an IR leaf), never back through an expression
            Expr content;
            if (!bounded) content = lang.toLeaf();
            else {
                kw = maxL != Expr.Repeat.UNBOUNDED ? "maxLength" : "minLength";
                boolean counted = maxL != Expr.Repeat.UNBOUNDED && maxL >= 1;
                try {
                    // with a counter to fall back on, a product far past the size it may keep is not built to the end
                    content = (counted ? lang.intersect(CodePointDfa.lengths(minL, maxL), MAX_LENGTH_PRODUCT_BUILT)
                        : lang.intersect(CodePointDfa.lengths(minL, maxL))).toLeaf();
                    // the lengths multiply the states (and every state's JSON escapes): past the size state
                    // elimination accepted, a counter is smaller
                    if (counted && content instanceof Expr.Automaton a && a.dfa().stateCount() > MAX_LENGTH_PRODUCT) content = null;
                } catch (CodePointDfa.TooComplex x) {
                    if (!counted) throw x;
                    content = null;
                }
                if (content == null) {
                    // lengths as a counter over the language's automaton (a counted terminal)
                    Expr leaf = lang.toLeaf();
                    if (syn.isNothing(leaf)) return Expr.NOTHING;
                    String origin = "'maxLength' " + maxL + " at " + showPointer(ptr) + " with the string algebra's language";
                    Expr units = new Expr.Units(JsonStrings.encodeRegex(leaf, true), JsonSyntax.ANY_CHAR, minL, maxL, origin);
                    return JsonSyntax.seq(Expr.literal("\""), units, Expr.literal("\""));
                }
            }
            if (syn.isNothing(content)) return Expr.NOTHING;
            return JsonSyntax.seq(Expr.literal("\""), JsonStrings.encodeRegex(content, true), Expr.literal("\""));
        } catch (CodePointDfa.TooComplex e) {
            unsupported(ptr, kw, e.getMessage());
            return strings.stringExpr(n, ptr);
        }
    }

    private static Expr regex(String pattern) {
        return dev.domino.compiler.frontend.RegexParser.parseSearch(pattern, dev.domino.compiler.frontend.RegexParser.Flavor.ECMA).expr();
    }

    Expr refExpr(String ref, String ptr) {
        RefResolver.Target resolved = refs.target(ref, ptr);
        if (resolved == null) return syn.anyValue();
        JsonNode target = resolved.node();
        String pointer = resolved.pointer();
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
