package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactFormatException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Counted terminals with final weights in the artifact (format 15): they survive a round trip
 * with the same masks, and a damaged terminals section (weights included), copies or terminal classes section is a clear
 * {@link ArtifactFormatException} or an artifact whose masks still run, never a crash or a hang.
 */
class AmbiguousCountsArtifactTest {
    private static final int HEADER = 24;
    private static Vocabulary vocabulary;
    private static Artifact artifact;

    @BeforeAll static void compile() {
        vocabulary = RuntimeFixturesTest.smallVocabulary();
        Grammar g = GbnfParser.parse("root ::= \"<\" ((\"a\" | \"aab\" | \"b\" | [0-9]+){0,20}){0,15} \">\"\n");
        artifact = GrammarCompiler.compile(g, vocabulary, "t", "gbnf", "t", CompileOptions.defaults().withLazy(false).withThreads(1));
    }

    @Test void weightsSurviveARoundTrip() throws Exception {
        byte[] bytes = ArtifactFormat.toBytes(artifact);
        Artifact read = ArtifactFormat.read(new ByteArrayInputStream(bytes));
        assertThat(ArtifactFormat.toBytes(read)).isEqualTo(bytes);
        Matcher a = artifact.newMatcher(), b = read.newMatcher();
        for (String piece : new String[] {"<", "aa", "b12", "aab", "a"}) {
            assertThat(b.nextTokenMask()).isEqualTo(a.nextTokenMask());
            assertThat(a.acceptString(piece)).isTrue();
            assertThat(b.acceptString(piece)).isTrue();
        }
    }

    @Test void damagedTerminalsNeverCrashTheReader() { damagedSectionNeverCrashesTheReader(artifact, "terminals", 16, "<aab1"); }

    /** The pool of the counted trees' copies (format 16): ids as gaps in runs, checked against their token sets. */
    @Test void damagedCopiesNeverCrashTheReader() throws Exception {
        Grammar g = GbnfParser.parse("root ::= \"[\" (\"\\\"\" [a-z ]{2,1000} \"\\\"\" \",\"?){0,4} \"]\"\n");
        Artifact strings = GrammarCompiler.compile(g, vocabulary, "t", "gbnf", "t", CompileOptions.defaults().withLazy(false).withThreads(1));
        byte[] bytes = ArtifactFormat.toBytes(strings);
        assertThat(ArtifactFormat.toBytes(ArtifactFormat.read(new ByteArrayInputStream(bytes)))).isEqualTo(bytes);
        damagedSectionNeverCrashesTheReader(strings, "copies", 1_000, "[\"ab c");
    }

    /** The pool of terminal classes (format 16): the whitespace before each of an object's optional keys. */
    @Test void damagedTerminalClassesNeverCrashTheReader() throws Exception {
        StringBuilder schema = new StringBuilder("{\"type\": \"object\", \"properties\": {");
        for (int i = 0; i < 12; i++) schema.append(i == 0 ? "" : ", ").append("\"key").append(i).append("\": {\"type\": \"integer\"}");
        schema.append("}, \"additionalProperties\": false}");
        GrammarSources.Parsed parsed = GrammarSources.parse(schema.toString(), SourceFormat.JSON_SCHEMA, dev.domino.compiler.jsonschema.JsonSchemaOptions.defaults());
        Artifact keys = GrammarCompiler.compile(parsed.grammar(), vocabulary, "keys.json", "json-schema", schema.toString(),
                parsed.applyTo(CompileOptions.defaults().withLazy(false).withThreads(1)));
        byte[] bytes = ArtifactFormat.toBytes(keys);
        assertThat(ArtifactFormat.toBytes(ArtifactFormat.read(new ByteArrayInputStream(bytes)))).isEqualTo(bytes);
        damagedSectionNeverCrashesTheReader(keys, "terminal_classes", 20, "{\"key1\": 2, ");
    }

    private static void damagedSectionNeverCrashesTheReader(Artifact artifact, String section, long minimumBytes, String text) {
        byte[] original = ArtifactFormat.toBytes(artifact);
        Map<String, Long> sections = ArtifactFormat.sectionSizes(artifact);
        long start = 0, size = 0;
        for (Map.Entry<String, Long> e : sections.entrySet()) {
            if (e.getKey().equals(section)) { size = e.getValue(); break; }
            start += e.getValue();
        }
        assertThat(size).as(section + " bytes").isGreaterThan(minimumBytes);
        int rejected = 0;
        for (int seed = 0; seed < 300; seed++) {
            Random rnd = new Random(seed);
            byte[] b = original.clone();
            for (int i = 0, flips = 1 + rnd.nextInt(3); i < flips; i++) {
                int pos = (int) (start + rnd.nextInt((int) size));
                b[pos] = (byte) (rnd.nextBoolean() ? rnd.nextInt(256) : b[pos] ^ (1 << rnd.nextInt(8)));
            }
            CRC32C crc = new CRC32C();
            crc.update(b, HEADER, b.length - HEADER);
            ByteBuffer.wrap(b).putLong(12, b.length - HEADER).putInt(20, (int) crc.getValue());
            String what = "seed " + seed;
            Artifact a = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try {
                    return ArtifactFormat.read(new ByteArrayInputStream(b));
                } catch (ArtifactFormatException e) {
                    assertThat(e.getMessage()).as(what).startsWith("corrupted artifact");
                    return null;
                }
            }, what);
            if (a == null) { rejected++; continue; }
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                Matcher m = a.newMatcher();
                m.countAllowed();
                m.acceptString(text);
                m.countAllowed();
            }, what + ": masks of a loaded artifact");
        }
        assertThat(rejected).isGreaterThan(100);
    }

    @Test void weightsOutOfBoundsAreRefused() {
        int[] next = new int[2 * 256];
        Arrays.fill(next, -1);
        next['a'] = 1;
        next[256 + 'a'] = 1;
        ByteDfa loop = new ByteDfa(2, 0, new boolean[] {false, true}, next);
        boolean[] boundaries = {false, true};
        CountedLoop weighted = new CountedLoop(loop, boundaries, new int[] {0, 1}, 1, 5);
        // local state count * 2 + loop state: an end in loop state 1 counts one copy more
        assertThat(weighted.isAccepting(1)).isTrue();
        assertThat(weighted.isAccepting(4 * 2 + 1)).isTrue();
        assertThat(weighted.isAccepting(5 * 2 + 1)).isFalse();
        assertThat(weighted.unitsToFinish(0)).isEqualTo(1);
        for (int bad : new int[] {-1, CountedLoop.MAX_STATES + 1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> new CountedLoop(loop, boundaries, new int[] {0, bad}, 1, 5)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> new CountedLoop(loop, boundaries, new int[] {0}, 1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CountedLoop(loop, null, new int[] {0, 0}, 1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CountedLoop(loop, boundaries, new int[] {0, 0}, 1, CountedLoop.UNBOUNDED)).isInstanceOf(IllegalArgumentException.class);
    }
}
