package dev.domino.cli.bench;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Speculator;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays recorded outputs as if a model produced them, to measure speculation without a GPU.
 * The "model" of an output is its recorded canonical token sequence: it would have produced
 * exactly these tokens unconstrained. One step = one forward pass: the engine proposes drafts,
 * the model accepts the longest prefix of drafts that matches its sequence, and the same pass
 * yields its own next token, which the engine checks opportunistically ({@link Matcher#isAllowed});
 * only a rejected token costs a full mask (and, for an output of the grammar's language, never
 * happens: such a rejection would mean constraining changed what the model wanted to write).
 */
public final class SpeculationReplay {
    private SpeculationReplay() {}

    public static final class Result {
        public long outputs, tokens, forwardPasses, draftsProposed, draftsAccepted, forcedProposed, forcedTokens;
        public long fullMasks, opportunisticChecks, modelTokenRejections, maskDisagreements, engineNanos;

        public double tokensPerForwardPass() { return forwardPasses == 0 ? 0 : (double) tokens / forwardPasses; }
        double draftAcceptance() { return draftsProposed == 0 ? 0 : (double) draftsAccepted / draftsProposed; }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("outputs", outputs);
            m.put("tokens", tokens);
            m.put("forward_passes", forwardPasses);
            m.put("tokens_per_forward_pass", round(tokensPerForwardPass()));
            m.put("draft_acceptance", round(draftAcceptance()));
            m.put("drafts_proposed", draftsProposed);
            m.put("drafts_accepted", draftsAccepted);
            m.put("forced_tokens", forcedTokens);
            m.put("full_masks", fullMasks);
            m.put("opportunistic_checks", opportunisticChecks);
            m.put("model_token_rejections", modelTokenRejections);
            m.put("mask_disagreements", maskDisagreements);
            m.put("engine_us_per_forward_pass", forwardPasses == 0 ? 0 : round(engineNanos / 1e3 / forwardPasses));
            return m;
        }

        static double round(double x) { return Math.round(x * 10000) / 10000.0; }
    }

    /**
     * Replays every output. With {@code online}, counts are updated from each committed token (the
     * priors learn during the replay); otherwise they stay fixed, as in the paper's measurement.
     */
    public static Result run(Speculator speculator, List<int[]> outputs, int s, double threshold, boolean online) {
        Artifact artifact = speculator.artifact();
        Result r = new Result();
        for (int[] seq : outputs) {
            r.outputs++;
            Matcher m = artifact.newMatcher();
            int pos = 0;
            while (pos < seq.length) {
                r.forwardPasses++;
                long t0 = System.nanoTime();
                Speculator.Proposal p = speculator.propose(m, s, threshold);
                r.engineNanos += System.nanoTime() - t0;
                r.draftsProposed += p.size();
                r.forcedProposed += p.forcedCount();
                int a = 0;
                while (a < p.size() && pos + a < seq.length && p.tokens()[a] == seq[pos + a]) a++;
                t0 = System.nanoTime();
                for (int i = 0; i < a; i++) {
                    boolean ok = online ? speculator.acceptAndObserve(m, p.tokens()[i]) : m.acceptToken(p.tokens()[i]);
                    if (!ok) throw new IllegalStateException("a draft the engine proposed was not accepted by the matcher");
                    if (p.forced()[i]) r.forcedTokens++;
                }
                r.draftsAccepted += a;
                r.tokens += a;
                pos += a;
                if (pos == seq.length) { r.engineNanos += System.nanoTime() - t0; break; }
                int own = seq[pos];
                r.opportunisticChecks++;
                boolean allowed = m.isAllowed(own);
                if (!allowed) {
                    r.fullMasks++;
                    BitSet mask = m.nextTokenMask(); // what a server would resample from
                    if (mask.get(own)) r.maskDisagreements++;
                    r.modelTokenRejections++;
                    r.engineNanos += System.nanoTime() - t0;
                    break; // constrained decoding would diverge from the recording here
                }
                if (online) speculator.acceptAndObserve(m, own); else m.acceptToken(own);
                r.engineNanos += System.nanoTime() - t0;
                r.tokens++;
                pos++;
            }
        }
        return r;
    }
}
