package dev.domino.cli.bench;

import dev.domino.cli.CompilerOptions;
import dev.domino.cli.Json;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.Tokenizer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "maskbench", mixinStandardHelpOptions = true,
        description = {"Run the MaskBench protocol: per schema, compile + load (TTFM); per test instance and token, "
                + "full mask + commit (TBM); valid instances must be accepted to EOS, invalid ones rejected.",
                "Prints one JSON summary line; --out gets one JSON line per schema."})
public final class BenchMaskbenchCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "INPUT", arity = "0..*", description = "MaskBench JSON files or directories of them")
    List<Path> inputs = new ArrayList<>();

    @Mixin CompilerOptions compiler;

    @Option(names = "--tokenized", paramLabel = "FILE",
            description = "pre-tokenized JSONL ({\"file\", \"schema\", \"tests\": [{\"valid\", \"text\", \"tokens\"}]} per line)")
    Path tokenized;

    @Option(names = "--out", paramLabel = "RESULTS.jsonl", description = "per-schema results, one JSON line each")
    Path out;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "per schema (compile + all tests), default ${DEFAULT-VALUE}")
    double timeLimit = 60;

    @Option(names = "--limit", paramLabel = "N", description = "only the first N schemas")
    int limit = Integer.MAX_VALUE;

    @Option(names = "--warmup", paramLabel = "N", description = "before measuring, warm the vocabulary up as a server does at start-up (a JSON schema's masks) and run the first N schemas once, unmeasured (default ${DEFAULT-VALUE}; 0: neither)")
    int warmup = 2;

    @Option(names = "--eager", description = "build every tree at compile time, however long it takes (default: see --prebuild-ms)")
    boolean eager;

    @Option(names = "--prebuild-ms", paramLabel = "MS", description = "without --eager: build trees at compile time for about MS milliseconds "
            + "(counted in TTFM), the rest on first use (counted in TBM) or in the background; 0 = all on first use; "
            + "default 1000, or 0 with --background-threads (nothing prebuilt: the first mask walks only the terminals it "
            + "allows, and the background builds the between-terminals tree first)")
    Long prebuildMillis;

    @Option(names = "--build-after-uses", paramLabel = "N", description = "a tree missing from the artifact is walked "
            + "directly by masks, and built by the mask that uses it for the N-th time (0 = never built by a mask; default: "
            + "the runtime's cost rule, see --build-after-direct-us)")
    Integer buildAfterUses;

    @Option(names = "--build-after-direct-us", paramLabel = "US", description = "a tree missing from the artifact is built "
            + "by the mask that uses it once direct walks of its state (after the first) have cost US µs of CPU (default: the runtime's, 300)")
    Long buildAfterDirectMicros;

    @Option(names = "--background-threads", paramLabel = "N", description = "serving mode: N threads build the trees "
            + "the compile left out in the background while masks run, and the compiled artifact is used as it is, as a server "
            + "compiling a request's schema does: TTFM = parse + compile (default ${DEFAULT-VALUE}: single-threaded, trees built "
            + "on first use, TTFM = parse + compile + serialize + load)")
    int backgroundThreads = 0;

    @Option(names = "--gap-us", paramLabel = "G", description = "idle microseconds before each mask, as a GPU forward pass "
            + "leaves the CPU (not counted in TBM; default ${DEFAULT-VALUE})")
    long gapMicros = 0;

    @Option(names = "--compile-threads", paramLabel = "N", description = "tree-building threads (default ${DEFAULT-VALUE}: single-threaded measurement)")
    int compileThreads = 1;

    @Option(names = "--profile", description = "also print where time goes (parse/compile/serialize/load/mask/commit), "
            + "mask work counters (configurations, tree nodes, Earley scans per mask) and the slowest masks")
    boolean profile;

    @Option(names = "--errors", paramLabel = "N", description = "print the N most common compile errors to stderr (default ${DEFAULT-VALUE})")
    int errors = 10;

    /** Testing: read "schema" as another grammar format (its string value), e.g. gbnf. */
    @Option(names = "--grammar-format", hidden = true)
    String grammarFormat = "json-schema";

    /** Testing: stall uninterruptibly before compiling schemas whose file name contains this. */
    @Option(names = "--debug-stall-file", hidden = true)
    String stallFile;

    @Option(names = "--debug-stall-ms", hidden = true)
    long stallMillis = 0;

    @Option(names = "--write-tokenized", paramLabel = "FILE",
            description = "do not benchmark: serialize and tokenize the INPUT files into a --tokenized JSONL file (for other engines)")
    Path writeTokenized;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Override public Integer call() throws Exception {
        if (inputs.isEmpty() && tokenized == null) throw new IllegalArgumentException("give MaskBench INPUT files/directories or --tokenized FILE");
        if (!inputs.isEmpty() && tokenized != null) throw new IllegalArgumentException("give either INPUT files or --tokenized, not both");
        if (timeLimit <= 0) throw new IllegalArgumentException("--time-limit must be positive");
        if (backgroundThreads < 0 || backgroundThreads > 256) throw new IllegalArgumentException("--background-threads must be 0..256");
        if (gapMicros < 0 || gapMicros > 10_000_000) throw new IllegalArgumentException("--gap-us must be 0..10000000");
        if (prebuildMillis != null && prebuildMillis < 0) throw new IllegalArgumentException("--prebuild-ms must not be negative");
        if (buildAfterUses != null && buildAfterUses < 0) throw new IllegalArgumentException("--build-after-uses must not be negative");
        if (buildAfterDirectMicros != null && buildAfterDirectMicros < 0) throw new IllegalArgumentException("--build-after-direct-us must not be negative");
        if (buildAfterDirectMicros != null && buildAfterUses != null) throw new IllegalArgumentException("--build-after-uses and --build-after-direct-us exclude each other");
        SourceFormat format = SourceFormat.parse(grammarFormat);
        Tokenizer tokenizer = compiler.vocab.load();
        Iterator<MaskBenchInput.Schema> schemas = tokenized != null
                ? MaskBenchInput.tokenized(tokenized)
                : MaskBenchInput.files(MaskBenchInput.expand(inputs), tokenizer, format);
        if (writeTokenized != null) return writeTokenized(schemas);
        MaskBenchRunner.Config config = config(tokenizer.vocabulary(), format);
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        BufferedWriter rows = out == null ? null : Files.newBufferedWriter(out, StandardCharsets.UTF_8);
        MaskBenchRunner.Summary summary;
        try {
            summary = new MaskBenchRunner(config).run(schemas, limit, r -> {
                if (rows == null) return;
                try {
                    rows.write(Json.write(r.row(profile)));
                    rows.write('\n');
                    rows.flush();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, stderr);
        } finally {
            if (rows != null) rows.close();
        }
        if (errors > 0 && summary.errors > 0) {
            stderr.println("most common errors (" + summary.errors + " schemas):");
            for (Map.Entry<String, Integer> e : summary.topErrors(errors)) {
                stderr.printf("%6d  %s%n", e.getValue(), e.getKey());
            }
            stderr.flush();
        }
        stdout.println(Json.write(summary.line()));
        if (profile) stdout.println(Json.write(summary.profile()));
        stdout.flush();
        return 0;
    }

    /** How the runner compiles and measures: every compile option of the command line in one {@link CompileOptions}. */
    public MaskBenchRunner.Config config(dev.domino.runtime.Vocabulary vocabulary, SourceFormat format) {
        CompileOptions.Builder options = compiler.compileOptions().threads(compileThreads).lazy(!eager)
                .prebuildMillis(prebuildMillis != null ? prebuildMillis : backgroundThreads > 0 ? 0 : 1000);
        if (!compiler.unknownFormatsGiven()) {
            // MaskBench's validator treats unknown formats as annotations (its tests expect them to
            // pass), and the MaskBench figures are measured so: here ignore is the default, not error
            options.jsonSchema(compiler.jsonSchema().withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE));
        }
        return new MaskBenchRunner.Config(vocabulary, format, options.build(), Math.round(timeLimit * 1000), warmup, profile,
                stallFile, stallMillis, gapMicros, backgroundThreads, buildAfterUses == null ? -1 : buildAfterUses,
                buildAfterDirectMicros == null ? -1 : buildAfterDirectMicros);
    }

    private int writeTokenized(Iterator<MaskBenchInput.Schema> schemas) throws java.io.IOException {
        if (tokenized != null) throw new IllegalArgumentException("--write-tokenized reads INPUT files, not --tokenized");
        int n = 0, skipped = 0;
        try (BufferedWriter w = Files.newBufferedWriter(writeTokenized, StandardCharsets.UTF_8)) {
            while (schemas.hasNext() && n + skipped < limit) {
                MaskBenchInput.Schema s = schemas.next();
                if (s.error() != null) {
                    spec.commandLine().getErr().println("skipped " + s.file() + ": " + s.error());
                    skipped++;
                    continue;
                }
                Map<String, Object> line = new java.util.LinkedHashMap<>();
                line.put("file", s.file());
                line.put("schema", s.grammarText());
                List<Map<String, Object>> tests = new ArrayList<>();
                for (MaskBenchInput.Test t : s.tests()) {
                    Map<String, Object> m = new java.util.LinkedHashMap<>();
                    m.put("valid", t.valid());
                    m.put("text", t.text());
                    m.put("tokens", t.tokens());
                    tests.add(m);
                }
                line.put("tests", tests);
                w.write(Json.write(line));
                w.write('\n');
                n++;
            }
        }
        spec.commandLine().getOut().println(Json.write(Map.of("written", n, "skipped", skipped, "file", writeTokenized.toString())));
        return 0;
    }
}
