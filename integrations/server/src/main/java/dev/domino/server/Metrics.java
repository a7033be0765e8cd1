package dev.domino.server;

import dev.domino.constraints.ConstraintCache;
import dev.domino.jlama.Generation;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Counters of the server, as Prometheus text ({@code GET /metrics}). Thread-safe. */
public final class Metrics {
    private final Map<String, LongAdder> responses = new ConcurrentHashMap<>();
    final LongAdder rejected = new LongAdder(), cancelled = new LongAdder(), outputs = new LongAdder(), errors = new LongAdder();
    final LongAdder promptTokens = new LongAdder(), completionTokens = new LongAdder();
    final LongAdder masksBuilt = new LongAdder(), masksSkipped = new LongAdder(), forcedTokens = new LongAdder();
    final DoubleAdder maskMs = new DoubleAdder(), forwardMs = new DoubleAdder(), sampleMs = new DoubleAdder(), waitMs = new DoubleAdder();
    final DoubleAdder requestMs = new DoubleAdder();
    final LongAdder requests = new LongAdder();

    void response(String endpoint, int status) {
        responses.computeIfAbsent(endpoint + "\",status=\"" + status, k -> new LongAdder()).increment();
    }

    void output(Generation g) {
        outputs.increment();
        if (g.stop() == Generation.Stop.CANCELLED) cancelled.increment();
        if (g.stop() == Generation.Stop.ERROR) errors.increment();
        promptTokens.add(g.promptTokens());
        completionTokens.add(g.tokens());
        masksBuilt.add(g.masksBuilt());
        masksSkipped.add(g.masksSkipped());
        forcedTokens.add(g.forcedTokens());
        maskMs.add(g.totalMaskMs());
        forwardMs.add(g.totalForwardMs());
        sampleMs.add(g.totalSampleMs());
        waitMs.add(g.waitMs());
    }

    void request(double ms) {
        requests.increment();
        requestMs.add(ms);
    }

    /** Time in the grammar (check, mask, commit, jump-forward) over time in the grammar, the sampler and forward passes. */
    public double maskShare() {
        double m = maskMs.sum(), all = m + sampleMs.sum() + forwardMs.sum();
        return all == 0 ? 0 : m / all;
    }

    String prometheus(int decoding, int waiting, ConstraintCache.Stats cache) {
        StringBuilder sb = new StringBuilder();
        responses.forEach((k, v) -> line(sb, "domino_http_responses_total{endpoint=\"" + k + "\"}", v.sum()));
        line(sb, "domino_requests_rejected_total", rejected.sum());
        line(sb, "domino_requests_decoding", decoding);
        line(sb, "domino_requests_waiting", waiting);
        line(sb, "domino_request_seconds_sum", requestMs.sum() / 1e3);
        line(sb, "domino_request_seconds_count", requests.sum());
        line(sb, "domino_outputs_total", outputs.sum());
        line(sb, "domino_outputs_cancelled_total", cancelled.sum());
        line(sb, "domino_outputs_error_total", errors.sum());
        line(sb, "domino_prompt_tokens_total", promptTokens.sum());
        line(sb, "domino_completion_tokens_total", completionTokens.sum());
        line(sb, "domino_masks_built_total", masksBuilt.sum());
        line(sb, "domino_masks_skipped_total", masksSkipped.sum());
        line(sb, "domino_forced_tokens_total", forcedTokens.sum());
        line(sb, "domino_mask_seconds_total", maskMs.sum() / 1e3);
        line(sb, "domino_sample_seconds_total", sampleMs.sum() / 1e3);
        line(sb, "domino_forward_seconds_total", forwardMs.sum() / 1e3);
        line(sb, "domino_model_wait_seconds_total", waitMs.sum() / 1e3);
        line(sb, "domino_mask_share", maskShare());
        line(sb, "domino_constraint_cache_hits_total", cache.hits());
        line(sb, "domino_constraint_cache_joins_total", cache.joins());
        line(sb, "domino_constraint_cache_misses_total", cache.misses());
        line(sb, "domino_constraint_cache_compiles_total", cache.compiles());
        line(sb, "domino_constraint_cache_failures_total", cache.failures());
        line(sb, "domino_constraint_cache_timeouts_total", cache.timeouts());
        line(sb, "domino_constraint_cache_evictions_total", cache.evictions());
        line(sb, "domino_constraint_cache_compile_seconds_total", cache.compileNanos() / 1e9);
        line(sb, "domino_constraint_cache_compile_cpu_seconds_total", cache.compileCpuNanos() / 1e9);
        line(sb, "domino_constraint_cache_bytes", cache.bytes());
        line(sb, "domino_constraint_cache_entries", cache.entries());
        return sb.toString();
    }

    private static void line(StringBuilder sb, String name, double v) {
        sb.append(name).append(' ');
        if (v == Math.rint(v) && Math.abs(v) < 1e15) sb.append((long) v);
        else sb.append(v);
        sb.append('\n');
    }
}
