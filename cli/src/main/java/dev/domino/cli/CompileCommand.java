package dev.domino.cli;

import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFiles;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.request.RequestSpec;
import dev.domino.compiler.request.ToolCallStyle;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
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

    @Option(names = "--tool-call-style", paramLabel = "STYLE",
            description = "with --spec: the tool-call style of requests that name none (llama3_json, hermes, qwen3_coder, mistral, "
                    + "deepseek_v3, kimi_k2, harmony, or domino for Domino's JSON array; default: detected from the vocabulary's special tokens). "
                    + "A server's prebuilt artifacts need the server's style (domino for `domino serve`)")
    String toolCallStyle;

    @Mixin CompilerOptions compiler;

    @Option(names = "--format", description = "gbnf, lark, regex or json-schema (default: from the file extension)")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT.domino", description = "artifact to write (default: GRAMMAR.domino next to the grammar)")
    Path output;

    @Option(names = "--threads", description = "tree-building threads (default: all cores)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--lazy", description = "store no trees; the runtime builds each state's tree on first use (fast compile)")
    boolean lazy;

    @Option(names = "--prebuild-ms", paramLabel = "MS", description = "with --lazy: still store the trees built within about MS milliseconds "
            + "(between state first, then in state order); the rest are built on first use")
    long prebuildMillis;

    @Option(names = "--json", description = "print the summary as one JSON line")
    boolean json;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Option(names = "--limit", paramLabel = "NAME=VALUE", split = ",",
            description = "raise or lower a compile limit: source-bytes, nesting-depth, repeat-count, automaton-states, compile-seconds (see docs/limits.md)")
    List<String> limits = new ArrayList<>();

    /** The --limit values over the -Ddomino.limit defaults. */
    private CompileLimits.Values compileLimits;

    @Override public Integer call() throws Exception {
        if ((grammarFile == null) == (specFile == null)) throw new IllegalArgumentException("give a GRAMMAR_FILE or --spec REQUEST.json (one of them)");
        long t0 = System.nanoTime();
        CompileLimits.Values budget = compiler.compileOptions().build().limits();
        for (String l : limits) budget = budget.with(l);
        compileLimits = budget;
        Path input = specFile != null ? specFile : grammarFile;
        Path out = output != null ? output : defaultOutput(input);
        if (Files.exists(out) && Files.exists(input) && Files.isSameFile(out, input)) {
            throw new IllegalArgumentException("the output " + out + " is the input file itself: choose another -o");
        }
        checkOutput(out);
        return specFile != null ? compileSpec(out) : compile(t0, out);
    }

    /**
     * Refuses a target {@link Artifact#save} would refuse, before the compile rather than after it:
     * a symbolic link, a directory or device, a directory we cannot write.
     */
    static void checkOutput(Path out) throws java.io.IOException {
        if (Files.isSymbolicLink(out)) throw new java.nio.file.FileSystemException(out + ": is a symbolic link (refused: give the real path)");
        if (Files.exists(out) && !Files.isRegularFile(out)) throw new java.nio.file.FileSystemException(out + ": not a regular file");
        Path dir = out.toAbsolutePath().getParent();
        if (dir != null && Files.isDirectory(dir) && !Files.isWritable(dir)) {
            throw new java.nio.file.AccessDeniedException(String.valueOf(dir), null, "cannot write " + out.getFileName() + " in this directory");
        }
    }

    private Integer compile(long t0, Path out) throws Exception {
        String text = SourceFiles.readUtf8(grammarFile, compileLimits.sourceBytes());
        SourceFormat f = format != null ? SourceFormat.parse(format) : SourceFormat.fromFileName(grammarFile.getFileName().toString());
        Progress progress = Progress.forTerminal("compiling");
        CompileOptions options = compiler.compileOptions().threads(threads).progress(progress).lazy(lazy)
                .prebuildMillis(lazy ? prebuildMillis : 0).limits(compileLimits).build();
        // the grammar first: its errors come before the vocabulary's load
        DominoCompiler.ParsedSource parsed = DominoCompiler.parse(grammarFile.getFileName().toString(), text, f, options);
        long tv = System.nanoTime();
        Tokenizer tokenizer = compiler.vocab.load();
        double vocabSeconds = (System.nanoTime() - tv) / 1e9;
        long tc = System.nanoTime();
        Artifact artifact;
        try {
            artifact = DominoCompiler.forVocabulary(tokenizer.vocabulary()).compile(parsed, options);
        } finally {
            progress.done();
        }
        double compileSeconds = (System.nanoTime() - tc) / 1e9;
        return summarize(artifact, grammarFile, t0, vocabSeconds, compileSeconds, out);
    }

    /** {@code --spec}: the request's constraint (see dev.domino.compiler.request.RequestSpec), recorded in the artifact for ConstraintCache.addPrebuilt. */
    private int compileSpec(Path out) throws Exception {
        long t0 = System.nanoTime();
        RequestSpec request = RequestSpec.parse(SourceFiles.readUtf8(specFile, compileLimits.sourceBytes()));
        ToolCallStyle style = toolCallStyle == null ? null : ToolCallStyle.byName(toolCallStyle);
        if (toolCallStyle != null && style == null) {
            throw new IllegalArgumentException("--tool-call-style: unknown style '" + toolCallStyle + "' (expected one of " + ToolCallStyle.names() + ")");
        }
        long tv = System.nanoTime();
        Tokenizer tokenizer = compiler.vocab.load();
        double vocabSeconds = (System.nanoTime() - tv) / 1e9;
        long tc = System.nanoTime();
        CompileOptions options = compiler.compileOptions().lazy(lazy).prebuildMillis(lazy ? prebuildMillis : 0).threads(threads)
                .limits(compileLimits).build();
        Artifact artifact = Constraints.compile(request, tokenizer.vocabulary(), new ConstraintOptions(options, style));
        return summarize(artifact, specFile, t0, vocabSeconds, (System.nanoTime() - tc) / 1e9, out);
    }

    private int summarize(Artifact artifact, Path input, long t0, double vocabSeconds, double compileSeconds,
                          Path out) throws Exception {
        Path grammarFile = input;
        artifact.save(out);
        long bytes = Files.size(out);
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
        summary.put("artifact_bytes", bytes);
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
                    s.dynamicTokens(), bytes);
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
