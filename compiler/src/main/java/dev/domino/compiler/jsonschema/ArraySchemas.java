package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Arrays: {@code prefixItems} (or draft-04 array-form {@code items}) element by element, then the rest
 * schema ({@code items} / {@code additionalItems}) repeated, with {@code minItems}/{@code maxItems}
 * counted over the whole array: after i elements the tail allows {@code max(0, min - i)} to
 * {@code max - i} more.
 */
final class ArraySchemas {
    private final SchemaCompiler sc;
    private int arrCounter;

    ArraySchemas(SchemaCompiler sc) { this.sc = sc; }

    Expr arrayExpr(ObjectNode n, String ptr) {
        List<Expr> prefix = new ArrayList<>();
        JsonNode restSchema = null;
        String restPtr = null;
        if (n.has("prefixItems")) {
            int i = 0;
            for (JsonNode p : n.get("prefixItems")) prefix.add(sc.compile(p, SchemaCompiler.child(SchemaCompiler.child(ptr, "prefixItems"), String.valueOf(i++))));
            if (n.has("items")) { restSchema = n.get("items"); restPtr = SchemaCompiler.child(ptr, "items"); }
        } else if (n.has("items") && n.get("items").isArray()) {
            int i = 0;
            for (JsonNode p : n.get("items")) prefix.add(sc.compile(p, SchemaCompiler.child(SchemaCompiler.child(ptr, "items"), String.valueOf(i++))));
            if (n.has("additionalItems")) { restSchema = n.get("additionalItems"); restPtr = SchemaCompiler.child(ptr, "additionalItems"); }
        } else if (n.has("items")) {
            restSchema = n.get("items");
            restPtr = SchemaCompiler.child(ptr, "items");
        }
        Expr rest = restSchema == null ? sc.syn.anyValue() : sc.compile(restSchema, restPtr);
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        String name = sc.syn.newName("arr_" + (++arrCounter));
        sc.syn.rules.put(name, Expr.EMPTY);
        Expr body;
        if (max != Expr.Repeat.UNBOUNDED && max < min) body = Expr.NOTHING;
        else {
            int k = prefix.size();
            // tail(i): elements i.. each preceded by a comma, given i elements so far
            Expr tail = restTail(k, rest, min, max, k);
            for (int i = k - 1; i >= 1; i--) {
                List<Expr> opts = new ArrayList<>();
                if (i >= min) opts.add(Expr.EMPTY);
                if (max == Expr.Repeat.UNBOUNDED || i < max) opts.add(JsonSyntax.seq(sc.syn.comma(), prefix.get(i), tail));
                tail = JsonSyntax.alt(opts);
            }
            Expr nonEmpty;
            if (max == 0) nonEmpty = Expr.NOTHING;
            else if (k > 0) nonEmpty = JsonSyntax.seq(prefix.get(0), k == 1 ? restTail(1, rest, min, max, 1) : tail);
            else nonEmpty = JsonSyntax.seq(rest, restTail(1, rest, min, max, 0));
            List<Expr> opts = new ArrayList<>();
            if (min == 0) opts.add(sc.syn.bracket("[", null, "]"));
            if (!(nonEmpty instanceof Expr.Alt a && a.options().isEmpty())) opts.add(sc.syn.bracket("[", nonEmpty, "]"));
            body = opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts);
        }
        sc.syn.rules.put(name, body);
        return Expr.ref(name);
    }

    /** Rest elements after {@code i} elements (i >= k), each preceded by a comma. */
    Expr restTail(int i, Expr rest, int min, int max, int k) {
        if (i < k) throw new IllegalStateException();
        int lo = Math.max(0, min - i);
        int hi = max == Expr.Repeat.UNBOUNDED ? Expr.Repeat.UNBOUNDED : max - i;
        if (hi != Expr.Repeat.UNBOUNDED && hi < lo) return Expr.NOTHING;
        if (hi == 0) return Expr.EMPTY;
        return new Expr.Repeat(JsonSyntax.seq(sc.syn.comma(), rest), lo, hi);
    }
}
