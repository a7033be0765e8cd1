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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Grammar-constrained decoding with a jlama model: one generator per model, shared by every request. Thread-safe:
 * each {@link #generate} call decodes one sequence on the caller's thread, with its own matcher, mask, sampler and
 * KV buffer; several threads decode together. Their forward passes take turns on the model (jlama keeps per-pass
 * scratch tensors in its attention layers, and has no forward pass over several sequences' KV buffers), while one
 * sequence's masks and sampling run during another's pass. jlama parallelises each pass over the cores itself.
 *
 * <p>Per step: sample from the model's distribution; if the grammar accepts the token (a cheap check, no mask)
 * commit it, else build the mask and resample from the masked distribution (opportunistic masking, exact for greedy
 * and temperature sampling, see {@link Sampling#allowsOpportunisticMasking()}). Then, while the grammar allows
 * exactly one token, append it without sampling (jump-forward); the sampled token and the forced ones go through
 * the model in one batched forward pass ({@link JumpForward}). The output ends at EOS (only allowed where the output
 * is complete), the token limit, a stop sequence, cancellation or a dead end (a sticky {@link Generation.Stop#ERROR},
 * never an exception).
 */
public final class ConstrainedGenerator {
    private static final int SPECULATORS_KEPT = 64;

    private final AbstractModel model;
    private final Artifact artifact;
    private final int modelVocab;
    private final KvBufferCache kvCache;
    /** Forced-token search per artifact (building one sorts the vocabulary): the most recently used ones. */
    private final Map<Artifact, Speculator> speculators = new LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Artifact, Speculator> e) { return size() > SPECULATORS_KEPT; }
    };

    /** A generator for one artifact: {@link #generate(int[], Options)}. */
    public ConstrainedGenerator(AbstractModel model, Artifact artifact) {
        this.model = model;
        this.artifact = artifact;
        this.modelVocab = model.getConfig().vocabularySize;
        this.kvCache = new KvBufferCache(model);
        checkVocabulary(artifact);
    }

    /** A generator for per-request artifacts: {@link #generate(int[], Artifact, Options, Control)}. */
    public ConstrainedGenerator(AbstractModel model) {
        this.model = model;
        this.artifact = null;
        this.modelVocab = model.getConfig().vocabularySize;
        this.kvCache = new KvBufferCache(model);
    }

    /** @throws IllegalArgumentException when the model has fewer ids than the artifact's vocabulary */
    private void checkVocabulary(Artifact a) {
        Vocabulary v = a.vocabulary();
        if (modelVocab < v.size()) {
            throw new IllegalArgumentException("the model has " + modelVocab + " token ids but the artifact's vocabulary ("
                    + v.name() + ") has " + v.size() + ": compiled for another tokenizer?");
        }
    }

    /** The artifact given at construction, or null for a per-request generator. */
    public Artifact artifact() { return artifact; }

    public AbstractModel model() { return model; }

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

    /** Receives an output's text as it is generated, in order; never text a stop sequence may still claim. */
    @FunctionalInterface
    public interface TextListener {
        void onText(String delta);
    }

    /**
     * What a caller of one generation controls besides sampling.
     *
     * @param stop          stop sequences: the output ends before the first one that appears (at most 16)
     * @param listener      streamed text, or null
     * @param cancelled     polled before every forward pass: true ends the output ({@link Generation.Stop#CANCELLED})
     * @param deadlineNanos a {@link System#nanoTime()} past which the output is cancelled ({@link Long#MAX_VALUE}: none)
     * @param logprobs      record each token's log-probability ({@link Generation#logprobs()})
     */
    public record Control(List<String> stop, TextListener listener, BooleanSupplier cancelled, long deadlineNanos, boolean logprobs) {
        public static final int MAX_STOPS = 16;

        public Control {
            stop = List.copyOf(stop);
            if (stop.size() > MAX_STOPS) throw new IllegalArgumentException("at most " + MAX_STOPS + " stop sequences, got " + stop.size());
            for (String s : stop) if (s.isEmpty()) throw new IllegalArgumentException("empty stop sequence");
            if (cancelled == null) cancelled = () -> false;
        }

        public static Control none() { return new Control(List.of(), null, () -> false, Long.MAX_VALUE, false); }
    }

    /** The prompt's token ids as the model's tokenizer encodes them, with BOS first. */
    public int[] encodePrompt(String prompt) { return model.encodePrompt(PromptContext.of(prompt)); }

    public int[] encodePrompt(PromptContext prompt) { return model.encodePrompt(prompt); }

    public Generation generate(String prompt, Options options) { return generate(encodePrompt(prompt), options); }

    public Generation generate(int[] promptTokens, Options options) {
        if (artifact == null) throw new IllegalStateException("a per-request generator: pass the artifact");
        return generate(promptTokens, artifact, options, Control.none());
    }

    /**
     * Decodes one output of the artifact's grammar after the prompt.
     *
     * @throws IllegalArgumentException for an empty prompt, prompt + limit past the context, or an artifact compiled
     *                                  for a larger vocabulary than the model's (bad input, before any work)
     */
    public Generation generate(int[] promptTokens, Artifact artifact, Options options, Control control) {
        int context = model.getConfig().contextLength;
        if (promptTokens.length == 0) throw new IllegalArgumentException("empty prompt (BOS missing)");
        if (promptTokens.length + options.maxTokens() > context) {
            throw new IllegalArgumentException("prompt (" + promptTokens.length + " tokens) + token limit (" + options.maxTokens()
                    + ") exceed the model's context length " + context);
        }
        checkVocabulary(artifact);
        return new Decode(promptTokens, artifact, options, control).run();
    }

    private Speculator speculator(Artifact a) {
        synchronized (speculators) {
            return speculators.computeIfAbsent(a, x -> new Speculator(x, SpeculationPriors.empty(x)));
        }
    }

    /** The state of one sequence being decoded. */
    private final class Decode {
        final int[] promptTokens;
        final Options options;
        final Control control;
        final Vocabulary vocabulary;
        final Matcher matcher;
        final Speculator speculator;
        final SplittableRandom random;
        final StreamedText text;
        final double[] forwardMs, maskMs, sampleMs;
        final int[] pending;
        final List<Generation.TokenLogprob> logprobs = new ArrayList<>();
        int forwards, steps, tokens, built, skipped, forced;
        double waitMs;
        Generation.Stop stop = Generation.Stop.LIMIT;
        String error;
        float[] probs;

        Decode(int[] promptTokens, Artifact artifact, Options options, Control control) {
            this.promptTokens = promptTokens;
            this.options = options;
            this.control = control;
            this.vocabulary = artifact.vocabulary();
            this.matcher = artifact.newMatcher();
            // the budget counts EOS too: maxTokens generated tokens, then EOS
            if (options.finish() && !matcher.setTokenBudget(options.maxTokens() + 1)) {
                throw new IllegalArgumentException("the shortest output of the grammar (" + matcher.shortestCompletion()
                        + " bytes) does not fit in the token limit " + options.maxTokens());
            }
            this.speculator = options.jumpForward() == JumpForward.NONE ? null : speculator(artifact);
            this.random = new SplittableRandom(options.seed());
            this.text = new StreamedText(control.stop(), control.listener());
            this.forwardMs = new double[options.maxTokens() + 1];
            this.maskMs = new double[options.maxTokens()];
            this.sampleMs = new double[options.maxTokens()];
            this.pending = new int[options.maxTokens()];
        }

        Generation run() {
            Sampling sampling = options.sampling();
            boolean opportunistic = options.opportunistic() && sampling.allowsOpportunisticMasking();
            int[] mask = new int[matcher.bitmaskInts()];
            try (KvBufferCache.KvBuffer kv = kvCache.getEphemeralKvBuffer()) {
                int position = 0, n = promptTokens.length;
                int[] feed = promptTokens;
                while (true) {
                    if (cancelled()) { stop = Generation.Stop.CANCELLED; break; }
                    if (matcher.isError()) { fail("matcher error: " + matcher.errorReason()); break; }
                    probs = forward(feed, n, position, kv);
                    position += n;
                    feed = pending;
                    n = 0;

                    // one sampled token, then the forced ones; the budget of remaining tokens is options.maxTokens() - tokens
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
                        if (token < 0) {
                            fail("the grammar allows no token after " + tokens + " tokens (a dead end: the artifact's grammar has no completion here)");
                        } else if (!matcher.acceptToken(token)) {
                            fail("masked token " + token + " refused by its own matcher");
                        }
                    }
                    if (error == null) n = commit(token, probs);
                    if (error == null && stop == Generation.Stop.LIMIT && tokens >= options.maxTokens() && options.finish()
                            && matcher.acceptToken(vocabulary.eosIds()[0])) {
                        stop = Generation.Stop.EOS; // the budget left only EOS: the output is complete
                        forced++;
                    }
                    maskMs[steps] = (System.nanoTime() - m0 - sampling0) / 1e6;
                    sampleMs[steps++] = sampling0 / 1e6;
                    if (error != null || stop != Generation.Stop.LIMIT || tokens >= options.maxTokens()) break;
                }
            }
            String output = text.finish();
            return new Generation(output, tokens, stop, Arrays.copyOf(forwardMs, forwards), Arrays.copyOf(maskMs, steps),
                    Arrays.copyOf(sampleMs, steps), built, skipped, forced, promptTokens.length, waitMs,
                    logprobs.toArray(Generation.TokenLogprob[]::new), error, matcher.budgetRestrictions());
        }

        /** Appends the sampled token and then the forced ones; returns how many go to the next forward pass. */
        private int commit(int token, float[] probs) {
            if (vocabulary.isEos(token)) { stop = Generation.Stop.EOS; return 0; }
            int n = 0;
            if (append(token, Math.log(probs[token]))) return n;
            pending[n++] = token;
            if (options.jumpForward() == JumpForward.BYTES) {
                for (int f : matcher.forcedTokens()) {
                    if (tokens >= options.maxTokens() || !matcher.acceptToken(f)) break;
                    forced++;
                    if (append(f, 0)) return n;
                    pending[n++] = f;
                }
            }
            while (options.jumpForward() != JumpForward.NONE && tokens < options.maxTokens()) {
                int f = speculator.forcedToken(matcher);
                if (f < 0 || !matcher.acceptToken(f)) break;
                forced++;
                if (vocabulary.isEos(f)) { stop = Generation.Stop.EOS; break; }
                if (append(f, 0)) return n;
                pending[n++] = f;
            }
            return n;
        }

        /** Adds a token to the output (forced tokens: log-probability 0, the model was not asked); true at a stop sequence. */
        private boolean append(int token, double logprob) {
            byte[] bytes = vocabulary.bytes(token);
            tokens++;
            if (control.logprobs()) logprobs.add(new Generation.TokenLogprob(token, bytes, logprob));
            if (text.append(bytes)) { stop = Generation.Stop.STOP_SEQUENCE; return true; }
            return false;
        }

        private void fail(String why) {
            error = why;
            stop = Generation.Stop.ERROR;
        }

        private boolean cancelled() {
            return control.cancelled().getAsBoolean() || control.deadlineNanos() != Long.MAX_VALUE && System.nanoTime() - control.deadlineNanos() > 0;
        }

        /** Feeds {@code tokens[0..n)} at {@code position}; returns the next-token probabilities after the last one. */
        private float[] forward(int[] tokens, int n, int position, KvBufferCache.KvBuffer kv) {
            long w0 = System.nanoTime();
            synchronized (model) {
                long f0 = System.nanoTime();
                waitMs += (f0 - w0) / 1e6;
                AbstractTensor output = n == 1
                        ? model.forward(tokens[0], position, kv, Optional.empty())
                        : model.batchForward(Arrays.copyOf(tokens, n), position, kv);
                try {
                    // a long batch goes through the model in chunks; the output holds the last chunk's rows only
                    AbstractTensor last = n == 1 ? output : output.slice(output.shape().first() - 1);
                    return model.getLogits(last); // softmax probabilities (jlama's name notwithstanding)
                } finally {
                    output.close();
                    forwardMs[forwards++] = (System.nanoTime() - f0) / 1e6;
                }
            }
        }
    }
}
