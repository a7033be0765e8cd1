package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The "From an OpenAI-style request to a mask" example of docs/serving.md, as code that compiles and runs. */
class RequestToMaskExampleTest {
    @Test void requestToMask() throws Exception {
        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        Vocabulary vocabulary = tok.vocabulary();
        ObjectMapper mapper = new ObjectMapper();
        String body = """
                {"model": "m", "messages": [{"role": "user", "content": "Weather in Oslo?"}],
                 "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
                   "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}}],
                 "tool_choice": "required"}""";
        int[] modelOutput = tok.encode("[{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}]");
        int batchSize = 1, row = 0;

        // at server start: one cache for all requests
        ConstraintCache cache = ConstraintCache.builder()
                .maxBytes(2L << 30)                       // estimated artifact bytes, least recently used evicted
                .compileBudget(Duration.ofSeconds(60))    // then the request fails and the server goes on
                .build();

        // per request: the request body as the server parsed it
        JsonNode request = mapper.readTree(body);
        Matcher matcher;
        try {
            matcher = cache.matcher(request, vocabulary); // compiled once per (constraint, vocabulary, options)
        } catch (ConstraintException e) {
            throw new AssertionError("400 Bad Request: " + e.getMessage()); // invalid request, schema error, over budget
        }
        int[] bitmask = new int[batchSize * matcher.bitmaskInts()];

        // per decoding step
        int step = 0, forwardPasses = 0;
        while (!matcher.isTerminated() && !matcher.isError()) {
            int[] forced = matcher.forcedTokens();       // jump forward: text every continuation starts with
            if (forced.length > 0 && step + forced.length <= modelOutput.length
                    && java.util.Arrays.equals(forced, 0, forced.length, modelOutput, step, step + forced.length)) {
                for (int t : forced) matcher.consumeToken(t); // appended without a forward pass
                step += forced.length;
                continue;
            }
            matcher.fillNextTokenBitmask(bitmask, row);  // 32 tokens per int, bit set = allowed
            forwardPasses++;
            int token = step < modelOutput.length ? modelOutput[step++] : vocabulary.eosIds()[0]; // sampleWithMask(logits, bitmask, row)
            assertThat((bitmask[row * matcher.bitmaskInts() + (token >>> 5)] >>> (token & 31)) & 1).isEqualTo(1);
            if (!matcher.consumeToken(token)) {
                System.err.println("constraint error: " + matcher.errorReason()); // sticky: the next mask allows EOS only
            }
        }
        assertThat(matcher.isError()).isFalse();
        assertThat(forwardPasses).isLessThanOrEqualTo(modelOutput.length + 1);
        assertThat(cache.stats().misses()).isEqualTo(1);
        cache.matcher(request, vocabulary);
        assertThat(cache.stats().hitRate()).isEqualTo(0.5);
        cache.close();
    }
}
