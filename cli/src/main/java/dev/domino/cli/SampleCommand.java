package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.testing.SentenceSampler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;

@Command(name = "sample", mixinStandardHelpOptions = true,
        description = "Random sentences of a grammar (valid instances, for fuzzing and replay workloads), as JSON lines of strings.")
final class SampleCommand implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAMMAR_FILE") Path grammarFile;

    @Option(names = "--format", description = "gbnf, lark, regex or json-schema (default: from the file extension)") String format;

    @Option(names = {"-n", "--count"}, description = "sentences (default: ${DEFAULT-VALUE})") int count = 100;

    @Option(names = "--seed", description = "random seed (default: ${DEFAULT-VALUE})") long seed = 1;

    @Option(names = "--max-length", description = "soft length limit in chars (default: ${DEFAULT-VALUE})") int maxLength = 200;

    @Option(names = "--ignore-probability", description = "chance of ignored text (%%ignore) at each place (default: ${DEFAULT-VALUE})")
    double ignoreProbability = 0.3;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT.jsonl", description = "file to write (default: standard output)") Path output;

    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    @Override public Integer call() throws Exception {
        String text = dev.domino.compiler.SourceFiles.readUtf8(grammarFile);
        SourceFormat f = format != null ? SourceFormat.parse(format) : SourceFormat.fromFileName(grammarFile.getFileName().toString());
        var grammar = GrammarSources.parse(text, f, CompileOptions.defaults()).grammar();
        SentenceSampler sampler = new SentenceSampler(grammar).maxLength(maxLength).ignoreProbability(ignoreProbability);
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) lines.add(Json.write(sampler.sample(random)));
        if (output != null) {
            Files.write(output, lines, StandardCharsets.UTF_8);
        } else {
            PrintWriter w = spec.commandLine().getOut();
            lines.forEach(w::println);
            w.flush();
        }
        return 0;
    }
}
