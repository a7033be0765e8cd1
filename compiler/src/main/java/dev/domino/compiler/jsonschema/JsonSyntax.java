package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.numbers.NumberSchemas;
import dev.domino.compiler.jsonschema.strings.JsonStrings;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The grammar rules being built for one schema and the JSON syntax around values: whitespace, commas and
 * colons per {@link JsonSchemaOptions.Whitespace} mode, brackets, and the generic JSON value rules
 * ({@code json_value} and its parts, added on first use for schemas that accept any value).
 *
 * <p>Rule names are unique: {@link #newName} appends {@code _2}, {@code _3}, ... on collisions. A rule is
 * entered as an empty placeholder before its body is compiled, so recursive schemas refer to it by name.
 */
public final class JsonSyntax {
    public static final Expr ANY_CHAR = JsonStrings.encodeSet(CodePointSet.ANY, true);
    static final Expr STRING = Expr.seq(Expr.literal("\""), Expr.star(ANY_CHAR), Expr.literal("\""));

    public final Map<String, Expr> rules = new LinkedHashMap<>();
    final Set<String> usedNames = new HashSet<>();
    public final Expr ws;
    private final SchemaCompiler sc;

    JsonSyntax(SchemaCompiler sc) {
        this.sc = sc;
        Expr wsChar = Expr.chars(CodePointSet.fromRanges(new int[] {' ', ' ', '\t', '\n', '\r', '\r'}));
        this.ws = sc.opt.whitespace() != JsonSchemaOptions.Whitespace.FLEXIBLE ? Expr.EMPTY
            : new Expr.Repeat(wsChar, 0, sc.opt.maxWhitespace() == JsonSchemaOptions.UNBOUNDED_WHITESPACE
                ? Expr.Repeat.UNBOUNDED : sc.opt.maxWhitespace());
    }

    /** Whether keys are spelled only the plain way ({@link JsonSchemaOptions.KeyEscapes#PLAIN}). */
    boolean plainKeys() { return sc.opt.keyEscapes() == JsonSchemaOptions.KeyEscapes.PLAIN; }

    /** A key fixed by the schema, in quotes, spelled as the key-escape option says. */
    public Expr key(String name) {
        if (plainKeys()) return Expr.literal("\"" + JsonStrings.canonical(name) + "\"");
        return seq(Expr.literal("\""), JsonStrings.encodeLiteral(name, true), Expr.literal("\""));
    }

    /** Keys whose decoded text is in the language {@code e} (code points), spelled as the key-escape option says. */
    public Expr keyLanguage(Expr e) {
        return seq(Expr.literal("\""), JsonStrings.encodeRegex(e, !plainKeys()), Expr.literal("\""));
    }

    public boolean flexible() { return sc.opt.whitespace() == JsonSchemaOptions.Whitespace.FLEXIBLE; }

    public Expr comma() {
        return switch (sc.opt.whitespace()) {
            case FLEXIBLE -> seq(ws, Expr.literal(","), ws);
            case COMPACT -> Expr.literal(",");
            case FIXED -> Expr.literal(sc.opt.itemSeparator());
        };
    }

    public Expr colon() {
        return switch (sc.opt.whitespace()) {
            case FLEXIBLE -> seq(ws, Expr.literal(":"), ws);
            case COMPACT -> Expr.literal(":");
            case FIXED -> Expr.literal(sc.opt.keySeparator());
        };
    }

    /** open + ws + body + ws + close, or open ws close for an empty body (body == null). */
    public Expr bracket(String open, Expr body, String close) {
        if (body == null) return flexible() ? seq(Expr.literal(open), ws, Expr.literal(close)) : Expr.literal(open + close);
        return seq(Expr.literal(open), ws, body, ws, Expr.literal(close));
    }

    public static Expr seq(Expr... items) {
        List<Expr> out = new ArrayList<>();
        for (Expr e : items) {
            if (e instanceof Expr.Seq s) out.addAll(s.items());
            else out.add(e);
        }
        return out.size() == 1 ? out.get(0) : new Expr.Seq(out);
    }

    public static Expr alt(List<Expr> options) {
        List<Expr> out = new ArrayList<>();
        for (Expr e : options) {
            if (e instanceof Expr.Alt a && a.options().isEmpty()) continue;
            out.add(e);
        }
        return out.size() == 1 ? out.get(0) : new Expr.Alt(out);
    }

    // ---------------------------------------------------------------- generic JSON

    public Expr anyValue() {
        if (!rules.containsKey("json_value")) {
            usedNames.addAll(List.of("json_value", "json_object", "json_array", "json_string", "json_number"));
            rules.put("json_value", Expr.EMPTY);
            rules.put("json_object", Expr.EMPTY);
            rules.put("json_array", Expr.EMPTY);
            rules.put("json_string", STRING);
            rules.put("json_number", NumberSchemas.NUMBER);
            Expr v = Expr.ref("json_value");
            Expr member = seq(Expr.ref("json_string"), colon(), v);
            rules.put("json_value", alt(List.of(Expr.ref("json_object"), Expr.ref("json_array"), Expr.ref("json_string"),
                Expr.ref("json_number"), Expr.literal("true"), Expr.literal("false"), Expr.literal("null"))));
            rules.put("json_object", alt(List.of(bracket("{", null, "}"),
                bracket("{", seq(member, Expr.star(seq(comma(), member))), "}"))));
            rules.put("json_array", alt(List.of(bracket("[", null, "]"),
                bracket("[", seq(v, Expr.star(seq(comma(), v))), "]"))));
        }
        return Expr.ref("json_value");
    }

    public String newName(String base) {
        String name = base;
        for (int i = 2; usedNames.contains(name); i++) name = base + "_" + i;
        usedNames.add(name);
        return name;
    }

    /** Whether the expression is (a chain of completed rule refs to) the empty language. */
    public boolean isNothing(Expr e) {
        for (int i = 0; i < 16 && e instanceof Expr.Ref r; i++) {
            Expr body = rules.get(r.name());
            if (body == null || (body instanceof Expr.Seq s && s.items().isEmpty())) return false; // placeholder / in progress
            e = body;
        }
        return e instanceof Expr.Alt a && a.options().isEmpty();
    }

    public Expr anyObjectFallback() {
        anyValue();
        return Expr.ref("json_object");
    }
}
