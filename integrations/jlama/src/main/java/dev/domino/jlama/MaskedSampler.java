package dev.domino.jlama;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws a token from a model's next-token probabilities restricted to a token mask.
 *
 * <p>jlama's {@code getLogits} returns softmax probabilities, not logits. Masking is done in log space:
 * a refused token's log-probability is -inf, and a temperature T turns log p into log p / T before the
 * renormalisation, i.e. weights (p / p_max)^(1/T) over the allowed tokens. At T = 1 the weights are p itself
 * and no logarithm is taken (the common case costs one pass over the allowed ids).
 *
 * <p>The mask is 32 tokens per int, bit set = allowed (the runtime's layout); {@code null} allows every id.
 * Ids at or beyond {@code maskTokens} (a model vocabulary padded past the tokenizer's) are never allowed by a mask.
 */
final class MaskedSampler {
    private MaskedSampler() {}

    /** The sampled id, or -1 when the mask allows no id at all. */
    static int sample(float[] probs, int[] mask, int maskTokens, Sampling s, SplittableRandom random) {
        int n = mask == null ? probs.length : Math.min(maskTokens, probs.length);
        if (s.isGreedy()) return argmax(probs, mask, n);
        double pMax = probs[argmaxOrZero(probs, mask, n)];
        if (s.topP() < 1) return nucleus(probs, mask, n, s, pMax, random);
        double sum = 0;
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) sum += weight(probs[i], pMax, s.temperature());
        if (!(sum > 0) || !Double.isFinite(sum)) return uniform(mask, n, random); // every allowed p underflowed to 0
        double u = random.nextDouble() * sum;
        int last = -1;
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) {
            double w = weight(probs[i], pMax, s.temperature());
            if (w > 0) last = i;
            if ((u -= w) < 0) return i;
        }
        return last; // rounding left u just above 0
    }

    private static double weight(float p, double pMax, double temperature) {
        if (temperature == 1) return p;
        if (p <= 0) return 0;
        return Math.exp(Math.log(p / pMax) / temperature); // log space: (log p - log pMax) / T
    }

    /** Top-p over the allowed tokens: sort their weights (packed with the id into a long), keep the head. */
    private static int nucleus(float[] probs, int[] mask, int n, Sampling s, double pMax, SplittableRandom random) {
        long[] packed = new long[mask == null ? n : Math.min(n, countAllowed(mask, n))];
        int k = 0;
        double sum = 0;
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) {
            float w = (float) weight(probs[i], pMax, s.temperature());
            if (!(w > 0)) continue;
            sum += w;
            packed[k++] = ((long) Float.floatToRawIntBits(w) << 32) | i; // positive floats order like their bits
        }
        if (k == 0) return uniform(mask, n, random);
        Arrays.sort(packed, 0, k);
        double keep = s.topP() * sum, kept = 0;
        int from = k;
        while (from > 0 && kept < keep) kept += Float.intBitsToFloat((int) (packed[--from] >>> 32));
        double u = random.nextDouble() * kept;
        for (int j = k - 1; j >= from; j--) {
            if ((u -= Float.intBitsToFloat((int) (packed[j] >>> 32))) < 0) return (int) packed[j];
        }
        return (int) packed[from];
    }

    private static int argmax(float[] probs, int[] mask, int n) {
        int best = -1;
        float bestP = Float.NEGATIVE_INFINITY;
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) {
            if (probs[i] > bestP || best < 0) { best = i; bestP = probs[i]; }
        }
        return best;
    }

    private static int argmaxOrZero(float[] probs, int[] mask, int n) {
        int i = argmax(probs, mask, n);
        return Math.max(i, 0);
    }

    private static int uniform(int[] mask, int n, SplittableRandom random) {
        int count = mask == null ? n : countAllowed(mask, n);
        if (count == 0) return -1;
        int pick = random.nextInt(count);
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) if (pick-- == 0) return i;
        return -1;
    }

    private static int countAllowed(int[] mask, int n) {
        int c = 0;
        for (int i = next(mask, 0, n); i >= 0; i = next(mask, i + 1, n)) c++;
        return c;
    }

    /** The first allowed id at or after {@code from}, or -1. */
    static int next(int[] mask, int from, int n) {
        if (from >= n) return -1;
        if (mask == null) return from;
        int w = from >>> 5;
        int bits = mask[w] & (-1 << (from & 31));
        while (true) {
            if (bits != 0) {
                int i = (w << 5) + Integer.numberOfTrailingZeros(bits);
                return i < n ? i : -1;
            }
            if (++w >= mask.length || (w << 5) >= n) return -1;
            bits = mask[w];
        }
    }
}
