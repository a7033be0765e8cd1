package dev.domino.jlama;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tiny-model", mixinStandardHelpOptions = true,
        description = "Write a random-weight Llama (config.json, model.safetensors, tokenizer.json) that jlama loads.")
public final class TinyModelCommand implements Callable<Integer> {
    @Option(names = "--tokenizer", paramLabel = "TOKENIZER.json",
            description = "HuggingFace tokenizer.json (byte-level BPE); without it, a small Llama-3-format tokenizer (about 600 ids)")
    Path tokenizer;
    @Option(names = {"-o", "--out"}, required = true, paramLabel = "DIR", description = "model directory to write")
    Path out;
    @Option(names = "--layers", defaultValue = "2") int layers;
    @Option(names = "--width", defaultValue = "64") int width;
    @Option(names = "--seed", defaultValue = "1") long seed;
    @Option(names = "--output-std", defaultValue = "0.1", description = "standard deviation of the output layer (default ${DEFAULT-VALUE})")
    double outputStd;

    @Override
    public Integer call() throws Exception {
        var tiny = TinyLlama.Shape.tiny();
        var shape = new TinyLlama.Shape(width, layers, tiny.heads(), tiny.kvHeads(), 2 * width, tiny.contextLength());
        Path source = tokenizer;
        if (source == null) {
            java.nio.file.Files.createDirectories(out);
            source = out.resolve("small-tokenizer.json");
            SmallTokenizer.write(source);
        }
        TinyLlama.write(out, source, shape, seed, outputStd);
        System.out.println("wrote " + out);
        return 0;
    }
}
