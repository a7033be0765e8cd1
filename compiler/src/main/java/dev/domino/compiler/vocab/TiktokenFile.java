package dev.domino.compiler.vocab;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.GptBytePairEncodingParams;
import dev.domino.runtime.Vocabulary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code .tiktoken} file: one {@code base64(tokenBytes) rank} line per token, id = rank.
 * The file carries no special tokens and no split pattern; we assume cl100k's pattern for encoding.
 */
final class TiktokenFile {
    private TiktokenFile() {}

    /** cl100k_base's pre-tokenizer split (as in tiktoken), used since the file does not say. */
    static final String CL100K_PATTERN =
            "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+";

    /** Cheap check of the first line, to tell a .tiktoken file from other text. */
    static boolean looksLikeTiktoken(String firstLine) {
        return firstLine != null && firstLine.matches("[A-Za-z0-9+/=]+ \\d+");
    }

    static Tokenizer load(Path file, int[] eosOverride) {
        Map<Integer, byte[]> byRank = new HashMap<>();
        int maxRank = -1;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) continue;
                int sp = line.indexOf(' ');
                try {
                    if (sp < 0) throw new IllegalArgumentException("missing rank");
                    byte[] bytes = Base64.getDecoder().decode(line.substring(0, sp));
                    int rank = TokenIds.parse(line.substring(sp + 1), "rank");
                    if (byRank.put(rank, bytes) != null) throw new IllegalArgumentException("duplicate rank " + rank);
                    maxRank = Math.max(maxRank, rank);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": bad .tiktoken line (" + e.getMessage() + ")", e);
                }
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(file + ": not a .tiktoken file (not UTF-8 text)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        TokenIds.checkNotEmpty(byRank.size(), file.toString());
        byte[][] bytes = new byte[maxRank + 1][];
        byRank.forEach((rank, b) -> bytes[rank] = b);

        int[] eos = eosOverride != null ? eosOverride.clone() : new int[0];
        TokenIds.checkEos(eos, bytes.length, file.getFileName().toString());
        String name = file.getFileName().toString();
        Vocabulary vocab = new Vocabulary(name, bytes, new BitSet(), eos);
        return new LoadedTokenizer(vocab, () -> encoder(name, byRank));
    }

    /** A jtokkit BPE over the file's ranks; ordinary text only (the file defines no specials). */
    private static TextEncoder encoder(String name, Map<Integer, byte[]> byRank) {
        Map<byte[], Integer> ranks = new HashMap<>();
        byRank.forEach((rank, b) -> ranks.put(b, rank));
        Pattern pattern = Pattern.compile(CL100K_PATTERN, Pattern.UNICODE_CHARACTER_CLASS);
        String encodingName = "domino-file:" + name;
        EncodingRegistry registry = Encodings.newLazyEncodingRegistry();
        registry.registerGptBytePairEncoding(new GptBytePairEncodingParams(encodingName, pattern, ranks, Map.of()));
        Encoding encoding = registry.getEncoding(encodingName)
                .orElseThrow(() -> new IllegalStateException("jtokkit did not register " + encodingName));
        return text -> encoding.encodeOrdinary(text).toArray();
    }
}
