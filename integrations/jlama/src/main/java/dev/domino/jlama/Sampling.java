package dev.domino.jlama;

/**
 * How the next token is chosen from the model's distribution restricted to the grammar's mask.
 *
 * @param temperature 0 = greedy (argmax); otherwise the distribution is p^(1/T), renormalised
 * @param topP        nucleus: keep the most likely allowed tokens whose mass reaches topP (1 = all)
 */
public record Sampling(double temperature, double topP) {
    public Sampling {
        if (!(temperature >= 0) || temperature > 100) throw new IllegalArgumentException("temperature must be in [0, 100], got " + temperature);
        if (!(topP > 0) || topP > 1) throw new IllegalArgumentException("top-p must be in (0, 1], got " + topP);
    }

    public static Sampling greedy() { return new Sampling(0, 1); }

    public boolean isGreedy() { return temperature == 0; }

    /**
     * Whether sampling from the unmasked distribution and resampling from the masked one on rejection draws
     * exactly from the masked distribution. True for greedy (the argmax, if allowed, is the masked argmax) and
     * for plain temperature sampling: P(y) = p(y) + (1 - P(allowed)) p(y) / P(allowed) = p(y) / P(allowed).
     * Not for top-p &lt; 1: the nucleus of the masked distribution depends on which tokens are allowed.
     */
    public boolean allowsOpportunisticMasking() { return isGreedy() || topP >= 1; }
}
