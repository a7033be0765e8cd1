package dev.domino.jlama;

/**
 * One constrained output.
 *
 * @param output          the text: the vocabulary's bytes of the generated tokens, EOS excluded, as UTF-8 (cut before
 *                        a stop sequence when one ended it)
 * @param tokens          tokens generated (EOS excluded): sampled plus forced
 * @param stop            why it ended
 * @param forwardMs       each forward pass (prompt first, then one per decode step or jump), logits included, the
 *                        wait for the model excluded
 * @param maskMs          grammar time of each sampled token: check, mask when needed, commit, forced-token search
 *                        (sampling excluded)
 * @param sampleMs        sampler time of each sampled token: the draw from the whole vocabulary (opportunistic),
 *                        and the masked draw when the mask was built
 * @param masksBuilt      full masks built (the sampled token was refused, or top-p needs the mask)
 * @param masksSkipped    sampled tokens the grammar accepted without a mask (opportunistic masking)
 * @param forcedTokens    tokens appended by jump-forward (the grammar allowed only one), EOS included, without
 *                        sampling; each one is a decode-step forward pass saved (forced tokens go through the model in
 *                        the batched pass of the token before them, and a forced EOS needs no pass at all)
 * @param promptTokens    tokens of the prompt (BOS included)
 * @param waitMs          time spent waiting for the model while other sequences' forward passes ran
 * @param logprobs        per generated token (EOS excluded), the natural log of its probability under the model's
 *                        unmasked distribution; empty unless asked for
 * @param error           why the output stopped with {@link Stop#ERROR} (a dead end, a matcher error), else null
 * @param budgetRestrictions masks and token checks where the token budget ({@code Options.finish}) refused a token
 *                        the grammar allowed
 */
public record Generation(String output, int tokens, Stop stop, double[] forwardMs, double[] maskMs, double[] sampleMs,
                         int masksBuilt, int masksSkipped, int forcedTokens, int promptTokens, double waitMs,
                         TokenLogprob[] logprobs, String error, int budgetRestrictions) {
    public enum Stop {
        /** The grammar's output is complete and the model (or jump-forward) chose EOS. */
        EOS("eos"),
        /** The token limit. */
        LIMIT("limit"),
        /** A stop sequence of {@link ConstrainedGenerator.Control#stop()} appeared; the output ends before it. */
        STOP_SEQUENCE("stop"),
        /** The caller cancelled, or the deadline passed. */
        CANCELLED("cancelled"),
        /** The grammar allowed no token (a dead end) or the matcher is in its error state; see {@link #error()}. */
        ERROR("error");

        private final String label;
        Stop(String label) { this.label = label; }
        public String label() { return label; }
    }

    /** A generated token: its bytes as text (may be part of a UTF-8 character) and its log-probability. */
    public record TokenLogprob(int id, byte[] bytes, double logprob) {}

    public double totalForwardMs() { return sum(forwardMs); }
    public double totalMaskMs() { return sum(maskMs); }
    public double totalSampleMs() { return sum(sampleMs); }

    private static double sum(double[] xs) {
        double s = 0;
        for (double x : xs) s += x;
        return s;
    }
}
