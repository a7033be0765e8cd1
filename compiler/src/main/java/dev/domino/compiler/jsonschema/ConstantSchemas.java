package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.objects.ObjectSchemas;
import dev.domino.compiler.jsonschema.strings.JsonStrings;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code enum} and {@code const}: the listed values that validate against the rest of their schema
 * ({@link ConstValidator}), each as the alternation of its JSON spellings: strings with every escaping
 * (or canonical only), numbers in their plain decimal spellings ({@code 1}, {@code 1.0}, ...), arrays and
 * objects with the whitespace mode's separators, an object's members in any order unless the property order is
 * the schema's.
 */
public final class ConstantSchemas {
    private final SchemaCompiler sc;

    ConstantSchemas(SchemaCompiler sc) { this.sc = sc; }

    /**
     * enum/const: the listed values (or those of {@code source}, an allOf part) that validate
     * against the whole schema node.
     */
    Expr enumExpr(JsonNode raw, JsonNode source, String ptr) {
        JsonNode src = source == null ? raw : source;
        List<JsonNode> values = new ArrayList<>();
        if (src.has("const")) values.add(src.get("const"));
        else src.get("enum").forEach(values::add);
        JsonNode rest = raw;
        if (source == null) {
            ObjectNode r = raw.deepCopy();
            r.remove("enum");
            r.remove("const");
            rest = r;
            if (raw.has("const") && raw.has("enum")) rest = r.set("enum", raw.get("enum"));
        }
        ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), sc::unsupported).formats(sc.formatsAsserted()).languages(sc.languages);
        boolean integerSpelling = integerOnly(rest) && !sc.zeroFractionIntegers(); // with the option: 1, 1.0, ... as any number
        List<Expr> alts = new ArrayList<>();
        for (JsonNode v : values) {
            if (!validator.valid(rest, v, ptr)) continue;
            Expr spelled = spell(v, integerSpelling, ptr);
            if (spelled != null) alts.add(spelled);
        }
        return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
    }

    /**
     * A constant's spellings; under type integer ({@code integerSpelling}) a number constant is spelled as an
     * integer: draft-04 ("a JSON number without a fraction or exponent part") rejects 0.0 for
     * {"type":"integer","enum":[0]}, and later drafts' 0.0 is left out as for every integer schema
     * (Github_easy---o44203..o44206). Null (after reporting it) for an integer of more than 1000 digits.
     */
    public Expr spell(JsonNode v, boolean integerSpelling, String ptr) {
        if (!integerSpelling || !v.isNumber()) return serialize(v);
        BigDecimal d = v.decimalValue().stripTrailingZeros();
        if (d.precision() - d.scale() > 1000) { sc.unsupported(ptr, "enum", "an integer constant with more than 1000 digits"); return null; }
        return Expr.literal(d.signum() == 0 ? "0" : d.toBigIntegerExact().toString());
    }

    /** True when {@code type} admits integers but not other numbers. */
    public static boolean integerOnly(JsonNode schema) {
        JsonNode t = schema.get("type");
        if (t == null) return false;
        boolean integer = false, number = false;
        for (JsonNode x : t.isArray() ? t : List.of(t)) {
            integer |= "integer".equals(x.asText());
            number |= "number".equals(x.asText());
        }
        return integer && !number;
    }


    public static JsonType typeOf(JsonNode v) {
        if (v.isNull()) return JsonType.NULL;
        if (v.isBoolean()) return JsonType.BOOLEAN;
        if (v.isObject()) return JsonType.OBJECT;
        if (v.isArray()) return JsonType.ARRAY;
        if (v.isTextual()) return JsonType.STRING;
        return isIntegral(v) && v.isIntegralNumber() ? JsonType.INTEGER : JsonType.NUMBER;
    }

    static boolean isIntegral(JsonNode v) {
        return v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0;
    }

    /** One JSON spelling of a constant (strings: all escapings unless canonical-only is requested). */
    Expr serialize(JsonNode v) {
        if (v.isNull()) return Expr.literal("null");
        if (v.isBoolean()) return Expr.literal(v.asBoolean() ? "true" : "false");
        if (v.isNumber()) return numberSpellings(v);
        if (v.isTextual()) return stringLiteral(v.asText());
        if (v.isArray()) {
            if (v.isEmpty()) return sc.syn.bracket("[", null, "]");
            List<Expr> items = new ArrayList<>();
            for (JsonNode x : v) { if (!items.isEmpty()) items.add(sc.syn.comma()); items.add(serialize(x)); }
            return sc.syn.bracket("[", JsonSyntax.seq(items.toArray(Expr[]::new)), "]");
        }
        if (v.isEmpty()) return sc.syn.bracket("{", null, "}");
        if (v.size() > 1 && sc.opt.propertyOrder() == JsonSchemaOptions.PropertyOrder.ANY) return anyMemberOrder(v);
        List<Expr> items = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!items.isEmpty()) items.add(sc.syn.comma());
            items.add(JsonSyntax.seq(stringLiteral(f.getKey()), sc.syn.colon(), serialize(f.getValue())));
        }
        return sc.syn.bracket("{", JsonSyntax.seq(items.toArray(Expr[]::new)), "}");
    }

    /**
     * An object constant in any member order (JSON equality ignores it; {@link JsonSchemaOptions.PropertyOrder#SCHEMA}
     * keeps the constant's order): the object whose members are exactly the constant's keys, each with its value as
     * a constant, compiled as such an object schema is ({@link ObjectSchemas}: each key once, in any order).
     */
    private Expr anyMemberOrder(JsonNode v) {
        ObjectNode schema = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        com.fasterxml.jackson.databind.node.ArrayNode required = schema.putArray("required");
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            // enum of one value: const is no keyword in draft 4
            props.putObject(f.getKey()).putArray("enum").add(f.getValue());
            required.add(f.getKey());
        }
        schema.put("additionalProperties", false);
        return sc.compile(schema, "");
    }

    /**
     * The plain decimal spellings of a constant number: {@code 1}, {@code 1.0}, {@code 1.00}, ... all
     * equal 1 (JSON Schema compares numbers by value). Exponent spellings are not offered (a
     * subset: never accepts a wrong value).
     */
    static Expr numberSpellings(JsonNode v) {
        java.math.BigDecimal d = v.decimalValue().stripTrailingZeros();
        String plain = d.signum() == 0 ? "0" : d.toPlainString();
        if (plain.length() > 64) {
            return Expr.literal(v.isIntegralNumber() ? v.bigIntegerValue().toString() : v.decimalValue().toString());
        }
        Expr zeros = Expr.star(Expr.chars(dev.domino.compiler.ir.CodePointSet.of('0')));
        if (d.scale() <= 0 || d.signum() == 0) {
            return Expr.seq(Expr.literal(plain), Expr.optional(Expr.seq(Expr.literal("."), Expr.plus(Expr.chars(dev.domino.compiler.ir.CodePointSet.of('0'))))));
        }
        return Expr.seq(Expr.literal(plain), zeros);
    }

    Expr stringLiteral(String s) {
        if (!sc.opt.allStringEscapes()) return Expr.literal("\"" + JsonStrings.canonical(s) + "\"");
        return JsonSyntax.seq(Expr.literal("\""), JsonStrings.encodeLiteral(s, true), Expr.literal("\""));
    }
}
