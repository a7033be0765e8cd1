package dev.domino.cli.bench;

import dev.domino.cli.Errors;
import dev.domino.cli.Json;
import dev.domino.cli.PythonJson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.Tokenizer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

/**
 * MaskBench instances, streamed one schema at a time: either MaskBench JSON files (instances
 * serialized as Python's {@code json.dumps} would and tokenized with the vocabulary's
 * tokenizer) or a pre-tokenized JSONL file.
 */
final class MaskBenchInput {
    private MaskBenchInput() {}

    /** One test instance: its serialized text and the tokens to feed. */
    record Test(boolean valid, String text, int[] tokens) {}

    /** One schema; {@code error} is set when the file itself could not be read or tokenized. */
    record Schema(String file, String grammarText, List<Test> tests, String error) {}

    /** Expands files and directories (recursively, *.json, sorted) into a list of files. */
    static List<Path> expand(List<Path> inputs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    s.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".json"))
                            .sorted().forEach(files::add);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new java.nio.file.NoSuchFileException(p.toString());
            }
        }
        return files;
    }

    /** MaskBench JSON files: {@code {"schema": ..., "tests": [{"valid": bool, "data": ...}]}}. */
    static Iterator<Schema> files(List<Path> files, Tokenizer tokenizer, SourceFormat format) {
        Iterator<Path> it = files.iterator();
        return new Iterator<>() {
            @Override public boolean hasNext() { return it.hasNext(); }
            @Override public Schema next() { return readFile(it.next(), tokenizer, format); }
        };
    }

    static Schema readFile(Path file, Tokenizer tokenizer, SourceFormat format) {
        String name = file.getFileName().toString();
        JsonNode root;
        try {
            root = PythonJson.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | UncheckedIOException e) {
            return new Schema(name, null, List.of(), "cannot read " + name + ": " + Errors.describe(e));
        }
        JsonNode schema = root.get("schema");
        if (schema == null) return new Schema(name, null, List.of(), "no \"schema\" in " + name);
        String grammarText = format != SourceFormat.JSON_SCHEMA && schema.isTextual() ? schema.textValue() : PythonJson.dumps(schema);
        List<Test> tests = new ArrayList<>();
        JsonNode ts = root.get("tests");
        if (ts != null) {
            for (JsonNode t : ts) {
                String text = PythonJson.dumps(t.has("data") ? t.get("data") : com.fasterxml.jackson.databind.node.NullNode.getInstance());
                int[] tokens;
                try {
                    tokens = tokenizer.encode(text);
                } catch (RuntimeException e) {
                    return new Schema(name, grammarText, List.of(), "cannot tokenize a test of " + name + ": " + Errors.describe(e));
                }
                tests.add(new Test(t.path("valid").asBoolean(), text, tokens));
            }
        }
        return new Schema(name, grammarText, tests, null);
    }

    /**
     * Pre-tokenized JSONL: {@code {"file", "schema" (a JSON string), "tests": [{"valid", "text", "tokens"}]}}
     * per line. The reader is closed when the last line has been read.
     */
    static Iterator<Schema> tokenized(Path jsonl) throws IOException {
        BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8);
        return new Iterator<>() {
            int lineNo;
            String line = advance();

            private String advance() {
                try {
                    String l;
                    while ((l = in.readLine()) != null) {
                        lineNo++;
                        if (!l.isBlank()) return l;
                    }
                    in.close();
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override public boolean hasNext() { return line != null; }

            @Override public Schema next() {
                if (line == null) throw new NoSuchElementException();
                String l = line;
                int n = lineNo;
                line = advance();
                return parseTokenizedLine(l, jsonl.getFileName() + ":" + n);
            }
        };
    }

    static Schema parseTokenizedLine(String line, String where) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(line);
        } catch (IOException e) {
            return new Schema(where, null, List.of(), "cannot parse " + where + ": " + e.getMessage());
        }
        String name = root.path("file").asText(where);
        JsonNode schema = root.get("schema");
        if (schema == null) return new Schema(name, null, List.of(), "no \"schema\" in " + where);
        String grammarText = schema.isTextual() ? schema.textValue() : PythonJson.dumps(schema);
        List<Test> tests = new ArrayList<>();
        for (JsonNode t : root.path("tests")) {
            JsonNode tok = t.path("tokens");
            int[] tokens = new int[tok.size()];
            for (int i = 0; i < tokens.length; i++) tokens[i] = tok.get(i).asInt();
            tests.add(new Test(t.path("valid").asBoolean(), t.path("text").asText(""), tokens));
        }
        return new Schema(name, grammarText, tests, null);
    }
}
