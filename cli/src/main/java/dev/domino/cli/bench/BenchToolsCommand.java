package dev.domino.cli.bench;

import dev.domino.cli.CompilerOptions;
import dev.domino.cli.Json;
import dev.domino.cli.PythonJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.SpeculationPriors;
import dev.domino.runtime.Speculator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Replays BFCL function-calling outputs through the one-call API, as a server would serve them:
 * each MaskBench {@code BFCL_*} schema ({@code {"fn": {args}}}, or {@code anyOf} such objects)
 * becomes a request {@code {"tools": [...], "tool_choice": "required"}}, and each valid test
 * instance the tool-call output {@code [{"name": "fn", "parameters": {args}}]} (Python
 * {@code json.dumps} spelling, without spaces with {@code --json-whitespace compact}; tokenized with --vocab, then EOS), replayed as a model that wrote
 * exactly these tokens. Reports the forward passes a server saves by jump-forward (forced tokens
 * that match the recording are appended without a pass) and by count-based speculation (see
 * {@link SpeculationReplay}, priors learned online per schema), and the cache hit rate when every
 * schema is requested {@code --repeat} times, round-robin.
 */
@Command(name = "tools", mixinStandardHelpOptions = true,
        description = {"Replay BFCL tool-call outputs through ConstraintCache (tools + tool_choice: required): forward passes",
                "saved by jump-forward and by speculation, cache hit rate and latency when each schema is requested many times."})
final class BenchToolsCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "MaskBench directories or files (only BFCL_* files are used)")
    List<Path> inputs;

    @Mixin CompilerOptions compiler;

    @Option(names = "--limit", description = "at most N schemas") int limit = Integer.MAX_VALUE;

    @Option(names = "--every", description = "every Nth BFCL file (default: ${DEFAULT-VALUE})") int every = 1;

    @Option(names = "--repeat", description = "requests per schema, round-robin over the schemas (default: ${DEFAULT-VALUE})")
    int repeat = 10;

    @Option(names = "--cache-mb", description = "cache bound in MB of estimated artifact bytes (default: ${DEFAULT-VALUE})")
    long cacheMb = 1024;

    @Option(names = "--budget-ms", description = "compile time budget per request (default: ${DEFAULT-VALUE})")
    long budgetMs = 20_000;

    @Option(names = "--prebuild-ms", description = "trees prebuilt per compile for about MS, the rest on first use (default: ${DEFAULT-VALUE})")
    long prebuildMs = 1000;


    @Option(names = "--s", description = "draft tokens per forward pass (default: ${DEFAULT-VALUE})") int s = 10;

    @Option(names = "--threshold", description = "least P(token | context) for a draft (default: ${DEFAULT-VALUE})") double threshold = 0.5;

    @Option(names = "--json", description = "one JSON line") boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** One BFCL schema as a request, with its recorded tool-call outputs. */
    record Case(String file, ObjectNode request, List<int[]> outputs) {}

    @Override public Integer call() throws Exception {
        if (repeat < 1 || every < 1 || cacheMb < 1) throw new IllegalArgumentException("--repeat, --every and --cache-mb must be >= 1");
        Tokenizer tokenizer = compiler.vocab.load();
        int eos = tokenizer.vocabulary().eosIds()[0];
        List<Case> cases = new ArrayList<>();
        int skipped = 0, seen = 0;
        for (Path f : MaskBenchInput.expand(inputs)) {
            if (!f.getFileName().toString().startsWith("BFCL_")) continue;
            if (seen++ % every != 0) continue;
            if (cases.size() >= limit) break;
            Case c = read(f, tokenizer, eos, compiler.jsonWhitespace == JsonSchemaOptions.Whitespace.COMPACT);
            if (c == null) skipped++; else cases.add(c);
        }
        if (cases.isEmpty()) throw new IllegalArgumentException("no BFCL_* files with tool-call schemas under " + inputs);
        ConstraintOptions options = ConstraintOptions.defaults().withPrebuildMillis(prebuildMs)
                .withJsonSchema(compiler.jsonSchema()).withDynamicCap(compiler.dynamicCap)
                .withToolCallStyle(dev.domino.compiler.request.ToolCallStyle.DOMINO_JSON); // the BFCL outputs are Domino's JSON array
        long tokens = 0, outputs = 0, passesPlain = 0, passesJump = 0, passesJumpBytes = 0, passesSpec = 0, forcedBytes = 0, rejected = 0, failed = 0;
        long[] hitNanos = new long[cases.size() * Math.max(0, repeat - 1)];
        int hits = 0;
        List<Long> compileNanos = new ArrayList<>();
        try (ConstraintCache cache = ConstraintCache.builder().options(options).maxBytes(cacheMb << 20)
                .compileBudget(java.time.Duration.ofMillis(budgetMs)).compileThreads(1).build()) {
            for (int round = 0; round < repeat; round++) {
                for (Case c : cases) {
                    long t0 = System.nanoTime();
                    Matcher m;
                    long misses = cache.stats().misses();
                    try {
                        m = cache.matcher(c.request(), tokenizer.vocabulary());
                    } catch (ConstraintException e) {
                        if (round == 0) failed++;
                        continue;
                    }
                    long nanos = System.nanoTime() - t0;
                    if (cache.stats().misses() > misses) compileNanos.add(nanos); else if (hits < hitNanos.length) hitNanos[hits++] = nanos;
                    if (round > 0) continue;
                    Artifact a = m.artifact();
                    Speculator speculator = new Speculator(a, SpeculationPriors.empty(a));
                    SpeculationReplay.Result r = SpeculationReplay.run(speculator, c.outputs(), s, threshold, true);
                    passesSpec += r.forwardPasses;
                    for (int[] out : c.outputs()) {
                        outputs++;
                        tokens += out.length;
                        passesPlain += out.length;
                        long[] jf = jumpForward(a.newMatcher(), out);
                        passesJump += jf[0];
                        passesJumpBytes += jumpForwardBytes(a.newMatcher(), out);
                        forcedBytes += jf[1];
                        if (jf[2] != 0) rejected++;
                    }
                }
            }
            ConstraintCache.Stats st = cache.stats();
            long[] compiles = compileNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            long[] hitTimes = Arrays.copyOf(hitNanos, hits);
            Arrays.sort(hitTimes);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schemas", cases.size());
            m.put("skipped_files", skipped);
            m.put("compile_failures", failed);
            m.put("outputs", outputs);
            m.put("outputs_rejected", rejected);
            m.put("tokens", tokens);
            m.put("forward_passes", passesPlain);
            m.put("forward_passes_jump_forward", passesJump);
            m.put("saved_by_jump_forward", ratio(passesPlain - passesJump, passesPlain));
            m.put("forced_bytes", forcedBytes);
            m.put("forward_passes_jump_forward_bytes", passesJumpBytes);
            m.put("saved_by_jump_forward_bytes", ratio(passesPlain - passesJumpBytes, passesPlain));
            m.put("forward_passes_speculation", passesSpec);
            m.put("saved_by_speculation", ratio(passesPlain - passesSpec, passesPlain));
            m.put("requests", st.hits() + st.joins() + st.misses());
            m.put("cache_hit_rate", Math.round(st.hitRate() * 10000) / 10000.0);
            m.put("cache_evictions", st.evictions());
            m.put("cache_mb", Math.round(st.bytes() / 1e6 * 10) / 10.0);
            m.put("compile_ms_p50", ms(percentile(compiles, 0.5)));
            m.put("compile_ms_p90", ms(percentile(compiles, 0.9)));
            m.put("compile_ms_p99", ms(percentile(compiles, 0.99)));
            m.put("hit_us_p50", us(percentile(hitTimes, 0.5)));
            m.put("hit_us_p99", us(percentile(hitTimes, 0.99)));
            m.put("hit_us_max", us(hitTimes.length == 0 ? 0 : hitTimes[hitTimes.length - 1]));
            var w = spec.commandLine().getOut();
            if (json) {
                w.println(Json.write(m));
            } else {
                w.printf("%d schemas (%d files skipped, %d compile failures), %d outputs (%d rejected), %d tokens incl. EOS%n",
                        cases.size(), skipped, failed, outputs, rejected, tokens);
                w.printf("forward passes: %d one per token; jump-forward: %d with forcedTokens() (%.1f%% saved), %d retokenizing forcedBytes() "
                                + "(%.1f%% saved; %d forced bytes); speculation: %d (%.1f%% saved)%n",
                        passesPlain, passesJump, 100 * ratio(passesPlain - passesJump, passesPlain), passesJumpBytes,
                        100 * ratio(passesPlain - passesJumpBytes, passesPlain), forcedBytes, passesSpec,
                        100 * ratio(passesPlain - passesSpec, passesPlain));
                w.printf("cache: %d requests, hit rate %.1f%%, %d evictions, %.1f MB; compile p50 %.1f ms p90 %.1f ms p99 %.1f ms; "
                                + "hit to matcher p50 %.1f us p99 %.1f us%n",
                        st.hits() + st.joins() + st.misses(), 100 * st.hitRate(), st.evictions(), st.bytes() / 1e6,
                        ms(percentile(compiles, 0.5)), ms(percentile(compiles, 0.9)), ms(percentile(compiles, 0.99)),
                        us(percentile(hitTimes, 0.5)), us(percentile(hitTimes, 0.99)));
            }
            w.flush();
        }
        return 0;
    }

    /**
     * Replays one output with jump-forward: where the matcher's forced tokens match the recording,
     * they are appended without a forward pass. Returns {forward passes, forced bytes seen, 1 if the
     * matcher refused a recorded token}.
     */
    /**
     * Replays one output with jump-forward by bytes (XGrammar's jump-forward string, the server
     * retokenizing): the recorded tokens that lie entirely inside the forced bytes need no forward
     * pass. Returns the forward passes.
     */
    static long jumpForwardBytes(Matcher m, int[] out) {
        long passes = 0;
        int pos = 0;
        while (pos < out.length) {
            int room = m.forcedBytes().length, k = 0;
            while (pos + k < out.length) {
                int len = m.artifact().vocabulary().bytes(out[pos + k]).length;
                if (len == 0 || len > room) break;
                room -= len;
                k++;
            }
            if (k > 0) {
                for (int i = 0; i < k; i++) m.consumeToken(out[pos + i]);
                pos += k;
                continue;
            }
            passes++;
            if (!m.consumeToken(out[pos++])) return passes + (out.length - pos);
        }
        return passes;
    }

    static long[] jumpForward(Matcher m, int[] out) {
        long passes = 0, forced = 0;
        int pos = 0;
        while (pos < out.length) {
            forced += m.forcedBytes().length;
            int[] ff = m.forcedTokens();
            int k = 0;
            while (k < ff.length && pos + k < out.length && ff[k] == out[pos + k]) k++;
            if (k > 0) {
                for (int i = 0; i < k; i++) m.consumeToken(ff[i]);
                pos += k;
                continue;
            }
            passes++;
            if (!m.consumeToken(out[pos++])) return new long[] {passes + (out.length - pos), forced, 1};
        }
        return new long[] {passes, forced, 0};
    }

    /** A BFCL file as a tools request with its valid outputs; null when its schema is not a set of calls. */
    static Case read(Path file, Tokenizer tokenizer, int eos, boolean compact) throws Exception {
        JsonNode root = PythonJson.parse(Files.readString(file));
        JsonNode schema = root.get("schema");
        List<JsonNode> branches = new ArrayList<>();
        if (schema != null && schema.has("anyOf")) schema.get("anyOf").forEach(branches::add);
        else if (schema != null) branches.add(schema);
        ArrayNode tools = F.arrayNode();
        for (JsonNode b : branches) {
            JsonNode props = b.get("properties");
            if (props == null || props.size() != 1) return null;
            Iterator<Map.Entry<String, JsonNode>> it = props.fields();
            Map.Entry<String, JsonNode> fn = it.next();
            ObjectNode tool = tools.addObject();
            tool.put("type", "function");
            ObjectNode f = tool.putObject("function");
            f.put("name", fn.getKey());
            f.set("parameters", fn.getValue());
        }
        if (tools.isEmpty()) return null;
        ObjectNode request = F.objectNode();
        request.set("tools", tools);
        request.put("tool_choice", "required");
        List<int[]> outputs = new ArrayList<>();
        for (JsonNode test : root.path("tests")) {
            if (!test.path("valid").asBoolean(false) || !test.path("data").isObject() || test.path("data").size() != 1) continue;
            Map.Entry<String, JsonNode> call = test.get("data").fields().next();
            ArrayNode calls = F.arrayNode();
            ObjectNode c = calls.addObject();
            c.put("name", call.getKey());
            c.set("parameters", call.getValue());
            int[] t = tokenizer.encode(compact ? Json.MAPPER.writeValueAsString(calls) : PythonJson.dumps(calls));
            int[] withEos = Arrays.copyOf(t, t.length + 1);
            withEos[t.length] = eos;
            outputs.add(withEos);
        }
        return outputs.isEmpty() ? null : new Case(file.getFileName().toString(), request, outputs);
    }

    private static double ratio(long a, long b) { return b == 0 ? 0 : Math.round((double) a / b * 10000) / 10000.0; }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    private static double ms(long nanos) { return Math.round(nanos / 1e5) / 10.0; }

    private static double us(long nanos) { return Math.round(nanos / 1e2) / 10.0; }
}
