package dev.domino.compiler.jsonschema.arrays;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.SchemaCompiler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Several {@code contains} at once over one items schema R, with {@code minItems}/{@code maxItems}: one rule
 * per state (i elements so far, capped where the bounds no longer tell positions apart; S the set of contains
 * schemas some element has matched). The next element is any R element (S unchanged) or one that matches R
 * and every schema of a non-empty block B of those not yet matched (S becomes S &cup; B). The array may end
 * where i &ge; minItems and S holds every contains schema. One element may match several schemas at once,
 * which B covers; an element that matches a schema but is read as plain R is harmless ("at least one"
 * needs no complement).
 */
final class CountedContainsAll {
    /** Most contains schemas (2^k blocks are merged with R). */
    static final int MAX_SCHEMAS = 5;

    private CountedContainsAll() {}

    /** The array expression, or null after refusing by name (too many schemas or states). */
    static Expr build(SchemaCompiler sc, List<JsonNode> cs, JsonNode items, int min, int max, String name, String ptr) {
        int k = cs.size();
        boolean bounded = max != Expr.Repeat.UNBOUNDED;
        if (bounded && max < min) return Expr.NOTHING;
        // the last position loops when unbounded (at least 1: the elements after the first take a comma)
        int positions = bounded ? max : Math.max(1, min);
        // alternatives in all: each state (i, S) has one per block of the schemas outside S, 3^k per position
        long alternatives = (positions + 1) * (long) Math.pow(3, Math.min(k, 20));
        if (k > MAX_SCHEMAS || alternatives > ArraySchemas.MAX_CONTAINS_RULES) {
            sc.unsupported(ptr, "contains", k + " contains schemas at once: " + (positions + 1) + " positions times 3^" + k
                    + " blocks of matched schemas exceed " + ArraySchemas.MAX_CONTAINS_RULES + " (at most " + MAX_SCHEMAS + " schemas)");
            return null;
        }
        String containsPtr = SchemaCompiler.child(ptr, "contains");
        Expr rest = sc.compile(items, SchemaCompiler.child(ptr, "items"));
        Map<Integer, Expr> matches = new HashMap<>();
        int full = (1 << k) - 1;
        for (int b = 1; b <= full; b++) {
            List<JsonNode> parts = new ArrayList<>();
            parts.add(items);
            for (int i = 0; i < k; i++) if ((b & (1 << i)) != 0) parts.add(cs.get(i));
            Expr m = sc.compile(sc.algebra.merge(parts, containsPtr), containsPtr);
            if (!sc.syn.isNothing(m)) matches.put(b, m);
        }
        String[][] names = new String[positions + 1][full + 1];
        for (int i = 0; i <= positions; i++) for (int s = 0; s <= full; s++) names[i][s] = sc.syn.newName(name + "_" + i + "_" + s);
        for (int i = 0; i <= positions; i++) {
            for (int s = 0; s <= full; s++) {
                List<Expr> opts = new ArrayList<>();
                if (i >= min && s == full) opts.add(Expr.EMPTY);
                if (!bounded || i < max) {
                    int next = Math.min(i + 1, positions);
                    Expr sep = i == 0 ? Expr.EMPTY : sc.syn.comma();
                    if (!sc.syn.isNothing(rest)) opts.add(JsonSyntax.seq(sep, rest, Expr.ref(names[next][s])));
                    int open = full & ~s;
                    for (int b = open; b > 0; b = (b - 1) & open) {
                        Expr m = matches.get(b);
                        if (m != null) opts.add(JsonSyntax.seq(sep, m, Expr.ref(names[next][s | b])));
                    }
                }
                sc.syn.rules.put(names[i][s], opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts));
            }
        }
        sc.syn.rules.put(name, sc.syn.bracket("[", Expr.ref(names[0][0]), "]"));
        return Expr.ref(name);
    }
}
