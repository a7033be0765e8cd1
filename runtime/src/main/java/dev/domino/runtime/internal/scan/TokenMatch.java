package dev.domino.runtime.internal.scan;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * What a token terminal matches: whole tokens by id, never their bytes. A grammar's
 * {@code <|eot_id|>} or {@code <[128009]>} is a token terminal with one id; {@code !<[128009]>}
 * matches every token with bytes except the listed ones ({@code negated}). A token terminal has
 * no byte automaton: it is scanned only when such a token is committed at a terminal boundary.
 *
 * @param ids     sorted, distinct token ids
 * @param negated true: every token with bytes except {@code ids}; the request's stop tokens
 *                are never matched by a negated reference (they end the output instead)
 */
public record TokenMatch(int[] ids, boolean negated) {
    public TokenMatch {
        ids = ids.clone();
        Arrays.sort(ids);
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0) throw new IllegalArgumentException("negative token id " + ids[i]);
            if (i > 0 && ids[i] == ids[i - 1]) throw new IllegalArgumentException("token id " + ids[i] + " listed twice");
        }
    }

    /** Whether the token id is matched (before the stop-token rule). */
    public boolean matches(int id) { return (Arrays.binarySearch(ids, id) >= 0) != negated; }

    /** The matched ids of a vocabulary as a bitmask, 32 tokens per int. */
    public int[] mask(Vocabulary v) {
        int[] mask = new int[(v.size() + 31) >>> 5];
        if (negated) {
            for (int id = 0; id < v.size(); id++) if (v.bytes(id).length > 0) mask[id >>> 5] |= 1 << id;
            for (int id : ids) mask[id >>> 5] &= ~(1 << id);
        } else {
            for (int id : ids) mask[id >>> 5] |= 1 << id;
        }
        return mask;
    }

    @Override public boolean equals(Object o) {
        return o instanceof TokenMatch m && m.negated == negated && Arrays.equals(m.ids, ids);
    }

    @Override public int hashCode() { return Arrays.hashCode(ids) * 31 + (negated ? 1 : 0); }

    @Override public String toString() { return (negated ? "!" : "") + Arrays.toString(ids); }
}
