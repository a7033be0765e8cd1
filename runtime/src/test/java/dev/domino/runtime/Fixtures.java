package dev.domino.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The committed artifacts the runtime's tests load: {@code grammars/json.gbnf} against the first
 * 4,096 tokens of o200k_base plus an EOS token (id 4096), lazy (trees built on first use) and eager.
 * Compiled and checked against a fresh compile by the compiler's {@code RuntimeFixturesTest},
 * which also regenerates it.
 */
final class Fixtures {
    static final Path JSON = Path.of("src", "test", "resources", "fixtures", "json-4k.domino");
    static final Path JSON_EAGER = Path.of("src", "test", "resources", "fixtures", "json-4k-eager.domino");

    private Fixtures() {}

    /** A fresh load of the lazy JSON fixture (its own parser states and lazy trees). */
    static Artifact json() { return load(JSON); }

    /** A fresh load of the eager JSON fixture (every tree stored). */
    static Artifact jsonEager() { return load(JSON_EAGER); }

    private static Artifact load(Path path) {
        try {
            return Artifact.load(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A random JSON value of the grammar's shape (compact or with a little whitespace), nested at most {@code depth} deep. */
    static String randomJson(Random random, int depth) {
        StringBuilder sb = new StringBuilder();
        object(sb, random, depth);
        return sb.toString();
    }

    private static void value(StringBuilder sb, Random random, int depth) {
        switch (depth <= 0 ? 2 + random.nextInt(3) : random.nextInt(5)) {
            case 0 -> object(sb, random, depth - 1);
            case 1 -> {
                sb.append('[');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) sb.append(random.nextBoolean() ? ", " : ",");
                    value(sb, random, depth - 1);
                }
                sb.append(']');
            }
            case 2 -> string(sb, random);
            case 3 -> sb.append(random.nextBoolean() ? "-" : "").append(random.nextInt(100_000)).append(random.nextBoolean() ? ".5" : "");
            default -> sb.append(new String[] {"true", "false", "null"}[random.nextInt(3)]);
        }
    }

    private static void object(StringBuilder sb, Random random, int depth) {
        sb.append('{');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(random.nextBoolean() ? ", " : ",");
            string(sb, random);
            sb.append(random.nextBoolean() ? ": " : ":");
            value(sb, random, depth);
        }
        sb.append('}');
    }

    private static void string(StringBuilder sb, Random random) {
        String[] words = {"name", "id", "x", "déjà", "a b", "\\n", "\\u00e9", "日本", "value"};
        sb.append('"').append(words[random.nextInt(words.length)]).append('"');
    }

    /** The text's UTF-8 bytes cut into chunks of 1 to 4 bytes (as tokens would be). */
    static byte[][] chunks(String text, Random random) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        java.util.List<byte[]> out = new java.util.ArrayList<>();
        for (int i = 0; i < b.length; ) {
            int n = Math.min(b.length - i, 1 + random.nextInt(4));
            out.add(java.util.Arrays.copyOfRange(b, i, i + n));
            i += n;
        }
        return out.toArray(new byte[0][]);
    }
}
