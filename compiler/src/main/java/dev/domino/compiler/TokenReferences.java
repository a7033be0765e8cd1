package dev.domino.compiler;

import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.internal.scan.TokenMatch;
import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

/**
 * Resolves a grammar's token references ({@code <|eot_id|>}, {@code <[128009]>},
 * {@code <[128000-128255]>}, {@code !<think>}) against a vocabulary. A reference by text names
 * the token whose bytes are exactly that text (a special token wins over an ordinary one with
 * the same text, which byte-level vocabularies do not have); a reference by id names ids the
 * vocabulary has. Anything else is an error naming the reference, with its line and column.
 */
public final class TokenReferences {
    private TokenReferences() {}

    public static TokenMatch resolve(Expr.TokenRef ref, Vocabulary v) {
        BitSet ids = new BitSet();
        for (String t : ref.texts()) ids.or(byText(t, ref, v));
        for (int[] r : ref.ranges()) {
            if (r[0] < 0 || r[1] < r[0]) throw new GrammarException("bad token id range in " + ref.display(), ref.line(), ref.column());
            if (r[1] >= v.size()) {
                throw new GrammarException("token " + ref.display() + " is not in the vocabulary " + v.name() + ": id "
                        + r[1] + " is outside it (size " + v.size() + ")", ref.line(), ref.column());
            }
            BitSet inRange = new BitSet();
            for (int id = r[0]; id <= r[1]; id++) if (v.bytes(id).length > 0) inRange.set(id);
            if (r[0] == r[1] && inRange.isEmpty()) {
                throw new GrammarException("token " + ref.display() + " is not in the vocabulary " + v.name()
                        + ": id " + r[0] + " has no bytes", ref.line(), ref.column());
            }
            if (inRange.isEmpty()) throw new GrammarException("token range " + ref.display() + " names no token of the vocabulary " + v.name(), ref.line(), ref.column());
            ids.or(inRange);
        }
        return new TokenMatch(ids.stream().toArray(), ref.negated());
    }

    /** The token whose bytes are exactly {@code text}: a special token first, else an ordinary one. */
    private static BitSet byText(String text, Expr.TokenRef ref, Vocabulary v) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        BitSet special = new BitSet(), plain = new BitSet();
        for (int id = 0; id < v.size(); id++) {
            if (bytes.length > 0 && Arrays.equals(v.bytes(id), bytes)) (v.isSpecial(id) ? special : plain).set(id);
        }
        BitSet ids = special.isEmpty() ? plain : special;
        if (ids.isEmpty()) {
            throw new GrammarException("token " + text + " is not in the vocabulary " + v.name()
                    + " (no single token has exactly this text; use <[id]> for a token by id)", ref.line(), ref.column());
        }
        return ids;
    }
}
