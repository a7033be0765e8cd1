package dev.domino.jlama;

import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.safetensors.prompt.PromptContext;
import com.github.tjake.jlama.tensor.AbstractTensor;
import com.github.tjake.jlama.tensor.KvBufferCache;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.SpeculationPriors;
import dev.domino.runtime.Speculator;
import dev.domino.runtime.Vocabulary;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Grammar-constrained decoding with a jlama model: one generator per (model, artifact), built at server start;
 * {@link #generate} per request (one request at a time per generator: jlama parallelises each forward pass itself).
 *
 * <p>Per step: sample from the model's distribution; if the grammar accepts the token (a cheap check, no mask)
 * commit it, else build the mask and resample from the masked distribution (opportunistic masking, exact for greedy
 * and temperature sampling, see {@link Sampling#allowsOpportunisticMasking()}). Then, while the grammar allows
 * exactly one token, append it without sampling (jump-forward); the sampled token and the forced ones go through
 * the model in one batched forward pass ({@link JumpForward}). The output ends at EOS (only allowed where the output is complete) or at
 * the token limit.
 */
public final class ConstrainedGenerator {
    private final AbstractModel model;
    private final Artifact artifact;
    private final Vocabulary vocabulary;
    private final Speculator speculator;
    private final int modelVocab;
    private final KvBufferCache kvCache;

    /** @throws IllegalArgumentException when the model has fewer ids than the artifact's vocabulary */
    public ConstrainedGenerator(AbstractModel model, Artifact artifact) {
        this.model = model;
        this.artifact = artifact;
        this.vocabulary = artifact.vocabulary();
        this.modelVocab = model.getConfig().vocabularySize;
        if (modelVocab < vocabulary.size()) {
            throw new IllegalArgumentException("the model has " + modelVocab + " token ids but the artifact's vocabulary ("
                    + vocabulary.name() + ") has " + vocabulary.size() + ": compiled for another tokenizer?");
        }
        // Forced-token search only (no priors): a token is proposed only when it is the sole legal one.
        this.speculator = new Speculator(artifact, SpeculationPriors.empty(artifact));
        this.kvCache = new KvBufferCache(model);
    }

    public Artifact artifact() { return artifact; }

    /**
     * How forced text is appended without sampling.
     * <ul>
     *   <li>{@code NONE}: every token is sampled (one forward pass each).</li>
     *   <li>{@code TOKENS}: only while exactly one token (EOS included) is legal; the output is the one sampling
     *       would give token for token (greedy outputs are equal with and without it).</li>
     *   <li>{@code BYTES}: the runtime's jump-forward ({@code Matcher.forcedTokens()}): the bytes every continuation
     *       starts with, tokenized longest vocabulary entry first (a key's remaining letters at once), then
     *       {@code TOKENS}. Saves more passes; the forced text is the same, its tokenization may differ from the
     *       one the model would have sampled.</li>
     * </ul>
     */
    public enum JumpForward { NONE, TOKENS, BYTES }

    /**
     * @param maxTokens     limit on generated tokens (EOS excluded)
     * @param opportunistic check the sampled token before building a mask (ignored for top-p &lt; 1)
     * @param jumpForward   how forced text is appended
     * @param finish        outputs always finish within the limit: only tokens after which the shortest completion
     *                      of the output (and EOS) still fits are allowed ({@code Matcher.setTokenBudget}); on by default
     */
    public record Options(int maxTokens, Sampling sampling, long seed, boolean opportunistic, JumpForward jumpForward,
                          boolean finish) {
        public Options {
            if (maxTokens < 1) throw new IllegalArgumentException("token limit must be >= 1, got " + maxTokens);
            if (sampling == null) throw new IllegalArgumentException("sampling is required");
            if (jumpForward == null) throw new IllegalArgumentException("jump-forward mode is required");
        }

        /** Outputs that always finish within the limit ({@code finish} on). */
        public Options(int maxTokens, Sampling sampling, long seed, boolean opportunistic, JumpForward jumpForward) {
            this(maxTokens, sampling, seed, opportunistic, jumpForward, true);
        }

        /** Opportunistic masking and byte-level jump-forward. */
        public static Options defaults(int maxTokens, Sampling sampling, long seed) {
            return new Options(maxTokens, sampling, seed, true, JumpForward.BYTES);
        }
    }

    /** The prompt's token ids as the model's tokenizer encodes them, with BOS first. */
    public int[] encodePrompt(String prompt) { return model.encodePrompt(PromptContext.of(prompt)); }

    public Generation generate(String prompt, Options options) { return generate(encodePrompt(prompt), options); }

    public Generation generate(int[] promptTokens, Options options) {
        int context = model.getConfig().contextLength;
        if (promptTokens.length == 0) throw new IllegalArgumentException("empty prompt (BOS missing)");
        if (promptTokens.length + options.maxTokens() > context) {
            throw new IllegalArgumentException("prompt (" + promptTokens.length + " tokens) + token limit (" + options.maxTokens()
                    + ") exceed the model's context length " + context);
        }
        Matcher matcher = artifact.newMatcher();
        // the budget counts EOS too: maxTokens generated tokens, then EOS
        if (options.finish() && !matcher.setTokenBudget(options.maxTokens() + 1)) {
            throw new IllegalArgumentException("the shortest output of the grammar (" + matcher.shortestCompletion()
                    + " bytes) does not fit in the token limit " + options.maxTokens());
        }
        SplittableRandom random = new SplittableRandom(options.seed());
        Sampling sampling = options.sampling();
        boolean opportunistic = options.opportunistic() && sampling.allowsOpportunisticMasking();
        int[] mask = new int[matcher.bitmaskInts()];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        double[] forwardMs = new double[options.maxTokens() + 1];
        double[] maskMs = new double[options.maxTokens()];
        double[] sampleMs = new double[options.maxTokens()];
        int forwards = 0, steps = 0, tokens = 0, built = 0, skipped = 0, forced = 0;
        Generation.Stop stop = Generation.Stop.LIMIT;
        int[] pending = new int[options.maxTokens()];

        try (KvBufferCache.KvBuffer kv = kvCache.getEphemeralKvBuffer()) {
            long t0 = System.nanoTime();
            float[] probs = forward(promptTokens, promptTokens.length, 0, kv);
            forwardMs[forwards++] = (System.nanoTime() - t0) / 1e6;
            int position = promptTokens.length;

            while (tokens < options.maxTokens()) {
                long m0 = System.nanoTime();
                long sampling0 = 0; // time in the sampler, kept out of the grammar's time
                int token = -1;
                if (opportunistic) {
                    long s0 = System.nanoTime();
                    token = MaskedSampler.sample(probs, null, modelVocab, sampling, random);
                    sampling0 += System.nanoTime() - s0;
                    if (token < vocabulary.size() && matcher.acceptToken(token)) skipped++;
                    else token = -1;
                }
                if (token < 0) {
                    matcher.fillNextTokenBitmask(mask, 0);
                    built++;
                    long s0 = System.nanoTime();
                    token = MaskedSampler.sample(probs, mask, vocabulary.size(), sampling, random);
                    sampling0 += System.nanoTime() - s0;
                    if (token < 0) throw new IllegalStateException("the grammar allows no token after " + tokens + " tokens (a dead end: "
                            + "the artifact's grammar has no completion here)");
                    if (!matcher.acceptToken(token)) throw new IllegalStateException("masked token " + token + " refused by its own matcher");
                }
                int n = 0;
                if (vocabulary.isEos(token)) {
                    stop = Generation.Stop.EOS;
                } else {
                    out.writeBytes(vocabulary.bytes(token));
                    tokens++;
                    pending[n++] = token;
                    if (options.jumpForward() == JumpForward.BYTES) {
                        for (int f : matcher.forcedTokens()) {
                            if (tokens >= options.maxTokens() || !matcher.acceptToken(f)) break;
                            forced++;
                            out.writeBytes(vocabulary.bytes(f));
                            tokens++;
                            pending[n++] = f;
                        }
                    }
                    while (options.jumpForward() != JumpForward.NONE && tokens < options.maxTokens()) {
                        int f = speculator.forcedToken(matcher);
                        if (f < 0 || !matcher.acceptToken(f)) break;
                        forced++;
                        if (vocabulary.isEos(f)) { stop = Generation.Stop.EOS; break; }
                        out.writeBytes(vocabulary.bytes(f));
                        tokens++;
                        pending[n++] = f;
                    }
                }
                maskMs[steps] = (System.nanoTime() - m0 - sampling0) / 1e6;
                sampleMs[steps++] = sampling0 / 1e6;
                if (stop != Generation.Stop.EOS && tokens >= options.maxTokens() && options.finish() && matcher.acceptToken(vocabulary.eosIds()[0])) {
                    stop = Generation.Stop.EOS; // the budget left only EOS: the output is complete
                    forced++;
                }
                if (stop == Generation.Stop.EOS || tokens >= options.maxTokens()) break;
                if (matcher.isError()) throw new IllegalStateException("matcher error: " + matcher.errorReason());

                long f0 = System.nanoTime();
                probs = forward(pending, n, position, kv);
                forwardMs[forwards++] = (System.nanoTime() - f0) / 1e6;
                position += n;
            }
        }
        String text = new String(out.toByteArray(), StandardCharsets.UTF_8);
        return new Generation(text, tokens, stop, Arrays.copyOf(forwardMs, forwards), Arrays.copyOf(maskMs, steps),
                Arrays.copyOf(sampleMs, steps), built, skipped, forced, matcher.budgetRestrictions());
    }

    /** Feeds {@code tokens[0..n)} at {@code position}; returns the next-token probabilities after the last one. */
    private float[] forward(int[] tokens, int n, int position, KvBufferCache.KvBuffer kv) {
        AbstractTensor output = n == 1
                ? model.forward(tokens[0], position, kv, Optional.empty())
                : model.batchForward(Arrays.copyOf(tokens, n), position, kv);
        try {
            AbstractTensor last = n == 1 ? output : output.slice(n - 1);
            return model.getLogits(last); // softmax probabilities (jlama's name notwithstanding)
        } finally {
            output.close();
        }
    }
}
