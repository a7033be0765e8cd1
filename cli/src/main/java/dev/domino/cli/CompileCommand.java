package dev.domino.cli;

import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.SourceFiles;
import dev.domino.compiler.FrontEndOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.request.RequestSpec;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactFormat;
import dev.domino.runtime.internal.AtomicFiles;
import dev.domino.runtime.diagnostics.ArtifactStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "compile", mixinStandardHelpOptions = true,
        description = "Compile a grammar (GBNF, Lark, regex or JSON Schema), or the output constraint of an OpenAI-style request "
                + "(--spec), against a vocabulary into an artifact.")
final class CompileCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "GRAMMAR_FILE") Path grammarFile;

    @Option(names = "--spec", paramLabel = "REQUEST.json",
            description = "compile the output constraint of an OpenAI-style request (response_format, tools + tool_choice, regex, choice, grammar) instead of a grammar file")
    Path specFile;

    @Mixin VocabOptions vocab;

    @Option(names = "--format", description = "gbnf, lark, regex or json-schema (default: from the file extension)")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT.domino", description = "artifact to write (default: GRAMMAR.domino next to the grammar)")
    Path output;

    @Option(names = "--json-whitespace", description = "JSON Schema output whitespace: flexible (default), compact, fixed")
    String jsonWhitespace = "flexible";

    @Option(names = "--json-property-order", paramLabel = "schema|any",
            description = "JSON Schema object properties: any order (default; additional properties anywhere) or schema order")
    String jsonPropertyOrder = "any";

    @Option(names = "--json-max-whitespace", paramLabel = "N|unbounded",
            description = "JSON Schema flexible whitespace: at most N whitespace characters in a row (default ${DEFAULT-VALUE})")
    String jsonMaxWhitespace = "100";

    @Option(names = "--json-key-escapes", paramLabel = "plain|any",
            description = "JSON Schema object keys: plain spelling only (default; a fixed key is forced) or any JSON escaping")
    String jsonKeyEscapes = "plain";

    @Option(names = "--unknown-formats", paramLabel = "error|ignore",
            description = "JSON Schema format values no specification defines (e.g. 'path', 'url'): error (default) or ignore "
                + "(an annotation, as validators treat them). Specified formats are enforced exactly or, if not expressible "
                + "(e.g. 'regex'), always an error (--ignore-keyword format skips them)")
    String unknownFormats = "error";

    @Option(names = "--ignore-keyword", split = ",", description = "JSON Schema keywords to ignore instead of failing on them")
    List<String> ignoredKeywords = new ArrayList<>();

    @Option(names = "--threads", description = "tree-building threads (default: all cores)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--dynamic-cap", description = "paths per trie node before tokens are checked at run time (default: ${DEFAULT-VALUE})")
    int dynamicCap = CompileOptions.DEFAULT_DYNAMIC_CAP;

    @Option(names = "--lazy", description = "store no trees; the runtime builds each state's tree on first use (fast compile)")
    boolean lazy;

    @Option(names = "--prebuild-ms", paramLabel = "MS", description = "with --lazy: still store the trees built within about MS milliseconds "
            + "(between state first, then in state order); the rest are built on first use")
    long prebuildMillis;

    @Option(names = "--json", description = "print the summary as one JSON line")
    boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Option(names = "--limit", paramLabel = "NAME=VALUE", split = ",",
            description = "raise or lower a compile limit: source-bytes, nesting-depth, repeat-count, automaton-states, compile-seconds (see README)")
    List<String> limits = new ArrayList<>();

    @Override public Integer call() throws Exception {
        if ((grammarFile == null) == (specFile == null)) throw new IllegalArgumentException("give a GRAMMAR_FILE or --spec REQUEST.json (one of them)");
        long t0 = System.nanoTime();
        for (String l : limits) CompileLimits.set(l);
        Path input = specFile != null ? specFile : grammarFile;
        Path out = output != null ? output : defaultOutput(input);
        if (Files.exists(out) && Files.exists(input) && Files.isSameFile(out, input)) {
            throw new IllegalArgumentException("the output " + out + " is the input file itself: choose another -o");
        }
        // the target is checked and its temporary file created before the compile: a bad -o fails
        // at once, and the temporary file is removed on failure or interrupt
        try (AtomicFiles.Pending pending = AtomicFiles.begin(out)) {
            return specFile != null ? compileSpec(pending) : compile(t0, pending);
        }
    }

    private Integer compile(long t0, AtomicFiles.Pending pending) throws Exception {
        String text = SourceFiles.readUtf8(grammarFile);
        SourceFormat f = format != null ? SourceFormat.parse(format) : SourceFormat.fromFileName(grammarFile.getFileName().toString());
        GrammarSources.Parsed parsed = GrammarSources.parse(text, f,
                new FrontEndOptions(jsonWhitespace, ", ", ": ", ignoredKeywords, jsonPropertyOrder,
                        jsonMaxWhitespace, jsonKeyEscapes, unknownFormats));
        long tv = System.nanoTime();
        Tokenizer tokenizer = vocab.load();
        double vocabSeconds = (System.nanoTime() - tv) / 1e9;
        long tc = System.nanoTime();
        Progress progress = Progress.forTerminal("compiling");
        CompileOptions options = parsed.applyTo(CompileOptions.defaults()).withThreads(threads).withDynamicCap(dynamicCap)
                .withProgress(progress).withLazy(lazy).withPrebuildMillis(lazy ? prebuildMillis : 0);
        Artifact artifact;
        try {
            artifact = GrammarCompiler.compile(parsed.grammar(), tokenizer.vocabulary(), grammarFile.getFileName().toString(),
                    f.id(), text, options);
        } finally {
            progress.done();
        }
        double compileSeconds = (System.nanoTime() - tc) / 1e9;
        return summarize(artifact, grammarFile, t0, vocabSeconds, compileSeconds, pending);
    }

    /** {@code --spec}: the request's constraint (see dev.domino.compiler.request.RequestSpec), recorded in the artifact for ConstraintCache.addPrebuilt. */
    private int compileSpec(AtomicFiles.Pending pending) throws Exception {
        long t0 = System.nanoTime();
        RequestSpec request = RequestSpec.parse(SourceFiles.readUtf8(specFile));
        long tv = System.nanoTime();
        Tokenizer tokenizer = vocab.load();
        double vocabSeconds = (System.nanoTime() - tv) / 1e9;
        long tc = System.nanoTime();
        ConstraintOptions options = ConstraintOptions.defaults()
                .withFrontEnd(new FrontEndOptions(jsonWhitespace, ", ", ": ", ignoredKeywords, jsonPropertyOrder,
                        jsonMaxWhitespace, jsonKeyEscapes, unknownFormats))
                .withDynamicCap(dynamicCap).withLazy(lazy).withPrebuildMillis(lazy ? prebuildMillis : 0).withThreads(Math.max(1, threads));
        Artifact artifact = Constraints.compile(request, tokenizer.vocabulary(), options);
        return summarize(artifact, specFile, t0, vocabSeconds, (System.nanoTime() - tc) / 1e9, pending);
    }

    private int summarize(Artifact artifact, Path input, long t0, double vocabSeconds, double compileSeconds,
                          AtomicFiles.Pending pending) throws Exception {
        Path grammarFile = input;
        Path out = pending.target();
        byte[] bytes = ArtifactFormat.toBytes(artifact);
        pending.commit(bytes);
        double seconds = (System.nanoTime() - t0) / 1e9;
        ArtifactStats s = ArtifactStats.of(artifact);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("artifact", out.toString());
        summary.put("vocabulary", artifact.vocabulary().name());
        summary.put("terminals", s.terminals());
        summary.put("scanner_states", s.scannerStates());
        summary.put("trees", s.trees());
        summary.put("tree_nodes", s.treeNodes());
        summary.put("token_entries", s.tokenEntries());
        summary.put("token_sets", s.tokenSets());
        summary.put("dynamic_tokens", s.dynamicTokens());
        summary.put("artifact_bytes", bytes.length);
        summary.put("seconds", Math.round(seconds * 1000) / 1000.0);
        summary.put("vocabulary_seconds", Math.round(vocabSeconds * 1000) / 1000.0);
        summary.put("compile_seconds", Math.round(compileSeconds * 1000) / 1000.0);
        var w = spec.commandLine().getOut();
        if (json) {
            w.println(Json.write(summary));
        } else {
            w.printf("compiled %s -> %s in %.2f s (vocabulary %.2f s, compile %.2f s)%n", grammarFile, out, seconds,
                    vocabSeconds, compileSeconds);
            w.printf("  vocabulary     %s (%d tokens)%n", artifact.vocabulary().name(), artifact.vocabulary().size());
            w.printf("  terminals      %d%n  scanner states %d%n  trees          %d distinct%n  tree nodes     %d%n"
                            + "  token entries  %d in %d distinct sets%n  dynamic tokens %d%n  artifact       %d bytes%n",
                    s.terminals(), s.scannerStates(), s.trees(), s.treeNodes(), s.tokenEntries(), s.tokenSets(),
                    s.dynamicTokens(), bytes.length);
        }
        w.flush();
        return 0;
    }

    static Path defaultOutput(Path grammar) {
        String name = grammar.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot > 0) name = name.substring(0, dot);
        Path dir = grammar.toAbsolutePath().getParent();
        return dir.resolve(name + ".domino");
    }
}
