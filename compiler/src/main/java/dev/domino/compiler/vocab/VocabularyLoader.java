package dev.domino.compiler.vocab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Turns a user's vocabulary spec into a {@link Tokenizer}. A spec is one of
 * <ul>
 *   <li>a tiktoken encoding name: {@code o200k_base}, {@code cl100k_base}, {@code p50k_base}, {@code r50k_base};</li>
 *   <li>a path to a HuggingFace {@code tokenizer.json} (byte-level or SentencePiece-style BPE);</li>
 *   <li>a path to a {@code .tiktoken} rank file.</li>
 * </ul>
 * Files are recognised by their content, not their name.
 */
public final class VocabularyLoader {
    private VocabularyLoader() {}

    /**
     * @param spec        encoding name or file path
     * @param eosOverride ids that end the output, replacing the vocabulary's own; {@code null} to keep them
     * @throws IllegalArgumentException for an unknown spec or an unreadable/unsupported file
     */
    public static Tokenizer load(String spec, int[] eosOverride) {
        if (spec == null || spec.isBlank()) throw unknown(String.valueOf(spec));
        String s = spec.strip();
        if (BuiltinEncodings.isKnown(s)) return BuiltinEncodings.load(s, eosOverride);

        Path file;
        try {
            file = Path.of(s);
        } catch (RuntimeException e) {
            throw unknown(s);
        }
        if (!Files.isRegularFile(file)) {
            if (s.endsWith(".json") || s.endsWith(".tiktoken")) {
                throw new IllegalArgumentException("vocabulary file not found: " + s);
            }
            throw unknown(s);
        }
        String first = firstNonBlankLine(file);
        if (first == null) throw new IllegalArgumentException("vocabulary file " + s + " is empty (or holds only blank lines)");
        if (first != null && first.replace("\uFEFF", "").stripLeading().startsWith("{")) {
            JsonNode root = readJson(file);
            if (HfTokenizerJson.looksLikeTokenizerJson(root)) return HfTokenizerJson.load(file, root, eosOverride);
            throw new IllegalArgumentException(file + ": JSON file is not a HuggingFace tokenizer.json (no \"model\" object)");
        }
        if (TiktokenFile.looksLikeTiktoken(first)) return TiktokenFile.load(file, eosOverride);
        throw unknown(s);
    }

    private static IllegalArgumentException unknown(String spec) {
        return new IllegalArgumentException("unknown vocabulary '" + spec
                + "': expected o200k_base, cl100k_base, a tokenizer.json or a .tiktoken file");
    }

    private static String firstNonBlankLine(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) if (!line.isBlank()) return line;
            return null;
        } catch (java.nio.charset.MalformedInputException e) {
            return ""; // binary file: neither JSON nor .tiktoken
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static JsonNode readJson(Path file) {
        try {
            return new ObjectMapper().enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                    .readTree(file.toFile());
        } catch (JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(file + ": invalid JSON: " + dev.domino.compiler.JsonParserMessages.plain(e.getOriginalMessage())
                    + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
