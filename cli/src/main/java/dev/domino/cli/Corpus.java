package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.vocab.Tokenizer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Example outputs for {@code train} and {@code bench speculate}. A file is read by its name:
 * <ul>
 *   <li>{@code *.jsonl}: one JSON string per line (an output may then hold newlines);</li>
 *   <li>{@code *.json}: a MaskBench instance {@code {"schema": ..., "tests": [{"valid": bool,
 *       "data": ...}]}}: every valid test's data, serialized as Python's
 *       {@code json.dumps(data, ensure_ascii=False)} would (separators {@code ", "} and
 *       {@code ": "});</li>
 *   <li>anything else: text, one output per non-empty line.</li>
 * </ul>
 * A directory stands for its regular files, in name order.
 */
public final class Corpus {
    private Corpus() {}

    public static List<String> read(List<Path> paths) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    for (Path f : s.filter(Files::isRegularFile).sorted().toList()) out.addAll(readFile(f));
                }
            } else {
                out.addAll(readFile(p));
            }
        }
        return out;
    }

    static List<String> readFile(Path p) throws IOException {
        String name = p.getFileName().toString();
        String text = Files.readString(p, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        if (name.endsWith(".jsonl")) {
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty()) continue;
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(p + ":" + (i + 1) + ": not JSON (" + e.getMessage() + ")");
                }
                if (n == null || !n.isTextual()) throw new IllegalArgumentException(p + ":" + (i + 1) + ": expected a JSON string per line");
                out.add(n.textValue());
            }
        } else if (name.endsWith(".json")) {
            JsonNode n;
            try {
                n = PythonJson.MAPPER.readTree(text); // numbers as Python's json.loads reads them
            } catch (IOException e) {
                throw new IllegalArgumentException(p + ": not JSON (" + e.getMessage() + ")");
            }
            if (n == null || !n.isObject() || !n.path("tests").isArray()) {
                throw new IllegalArgumentException(p + ": expected a MaskBench instance {\"schema\": ..., \"tests\": [...]}");
            }
            for (JsonNode t : n.get("tests")) {
                if (t.path("valid").asBoolean(false) && t.has("data")) out.add(PythonJson.dumps(t.get("data")));
            }
        } else {
            for (String line : text.split("\r?\n")) if (!line.isEmpty()) out.add(line);
        }
        return out;
    }

    /** Canonical tokens of each output, plus the first EOS id when {@code eos} (as a model would end). */
    public static List<int[]> tokenize(Tokenizer tokenizer, List<String> outputs, boolean eos) {
        int[] eosIds = tokenizer.vocabulary().eosIds();
        boolean addEos = eos && eosIds.length > 0;
        List<int[]> out = new ArrayList<>(outputs.size());
        for (String s : outputs) {
            int[] t = s.isEmpty() ? new int[0] : tokenizer.encode(s);
            if (addEos) {
                t = java.util.Arrays.copyOf(t, t.length + 1);
                t[t.length - 1] = eosIds[0];
            }
            out.add(t);
        }
        return out;
    }
}
