package dev.domino.jlama;

/**
 * One constrained output.
 *
 * @param output          the text: the vocabulary's bytes of the generated tokens, EOS excluded, as UTF-8
 * @param tokens          tokens generated (EOS excluded): sampled plus forced
 * @param stop            why it ended
 * @param forwardMs       each forward pass (prompt first, then one per decode step or jump), logits included
 * @param maskMs          grammar time of each sampled token: check, mask when needed, commit, forced-token search
 *                        (sampling excluded)
 * @param sampleMs        sampler time of each sampled token: the draw from the whole vocabulary (opportunistic),
 *                        and the masked draw when the mask was built
 * @param masksBuilt      full masks built (the sampled token was refused, or top-p needs the mask)
 * @param masksSkipped    sampled tokens the grammar accepted without a mask (opportunistic masking)
 * @param forcedTokens    tokens appended by jump-forward (the grammar allowed only one), EOS included, without
 *                        sampling; each one is a decode-step forward pass saved (forced tokens go through the model in
 *                        the batched pass of the token before them, and a forced EOS needs no pass at all)
 * @param budgetRestrictions masks and token checks where the token budget ({@code Options.finish}) refused a token
 *                        the grammar allowed
 */
public record Generation(String output, int tokens, Stop stop, double[] forwardMs, double[] maskMs, double[] sampleMs,
                         int masksBuilt, int masksSkipped, int forcedTokens, int budgetRestrictions) {
    public enum Stop {
        EOS("eos"), LIMIT("limit");

        private final String label;
        Stop(String label) { this.label = label; }
        public String label() { return label; }
    }
}
