package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.ArtifactFormatException;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A real artifact, corrupted and truncated at random: every case must end in
 * {@link ArtifactFormatException} with a clear message, quickly, and never in an
 * OutOfMemoryError, a hang, another exception, or a loaded artifact.
 */
class CorruptArtifactTest {
    static final int HEADER = 24;
    static final List<String> MESSAGES = List.of("not a Domino artifact", "truncated artifact", "corrupted artifact",
            "artifact format version");

    /** Reads the bytes; returns the exception (the test fails if the artifact loads or anything else happens). */
    static ArtifactFormatException readFails(byte[] bytes, String what) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                ArtifactFormat.read(new ByteArrayInputStream(bytes));
            } catch (ArtifactFormatException e) {
                assertThat(e.getMessage()).as(what).isNotBlank();
                assertThat(MESSAGES.stream().anyMatch(e.getMessage()::startsWith)).as(what + ": " + e.getMessage()).isTrue();
                return e;
            }
            return fail(what + ": a corrupted artifact loaded");
        }, what + ": took too long");
    }

    @Test void intactArtifactLoads() throws IOException {
        Artifact a = ArtifactFormat.read(new ByteArrayInputStream(TestArtifacts.bytes()));
        assertThat(a.vocabulary().fingerprint()).isEqualTo(TestArtifacts.artifact().vocabulary().fingerprint());
        assertThat(ArtifactFormat.toBytes(a)).isEqualTo(TestArtifacts.bytes());
    }

    @Test void randomByteCorruptionAnywhere() {
        byte[] original = TestArtifacts.bytes();
        for (int seed = 0; seed < 400; seed++) {
            Random rnd = new Random(seed);
            byte[] b = original.clone();
            int flips = 1 + rnd.nextInt(8);
            StringBuilder where = new StringBuilder();
            for (int i = 0; i < flips; i++) {
                // a quarter of the flips hit the header (magic, version, length, checksum)
                int pos = rnd.nextInt(4) == 0 ? rnd.nextInt(HEADER) : rnd.nextInt(b.length);
                byte old = b[pos];
                do { b[pos] = (byte) rnd.nextInt(256); } while (b[pos] == old);
                where.append(pos).append(' ');
            }
            readFails(b, "seed " + seed + ", bytes changed at " + where);
        }
    }

    @Test void everyHeaderByteMatters() {
        byte[] original = TestArtifacts.bytes();
        for (int pos = 0; pos < HEADER; pos++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] b = original.clone();
                b[pos] ^= (byte) (1 << bit);
                ArtifactFormatException e = readFails(b, "header byte " + pos + " bit " + bit);
                if (pos < 8) assertThat(e.getMessage()).startsWith("not a Domino artifact (bad magic bytes)");
                else if (pos < 12) assertThat(e.getMessage()).startsWith("artifact format version").contains("recompile");
            }
        }
    }

    @Test void truncationAtRandomLengths() {
        byte[] original = TestArtifacts.bytes();
        Random rnd = new Random(42);
        int[] fixed = {0, 1, 7, 8, 12, 23, HEADER, HEADER + 1, HEADER + 100, original.length / 2, original.length - 1};
        int[] lengths = Arrays.copyOf(fixed, fixed.length + 200);
        for (int i = fixed.length; i < lengths.length; i++) lengths[i] = rnd.nextInt(original.length);
        for (int n : lengths) {
            ArtifactFormatException e = readFails(Arrays.copyOf(original, n), "truncated to " + n + " bytes");
            if (n < HEADER) assertThat(e.getMessage()).isEqualTo("not a Domino artifact (file shorter than its header)");
            else assertThat(e.getMessage()).startsWith("truncated artifact (" + (n - HEADER) + " of ");
        }
    }

    @Test void trailingBytesAndForeignFiles() {
        byte[] original = TestArtifacts.bytes();
        byte[] longer = Arrays.copyOf(original, original.length + 5);
        assertThat(readFails(longer, "trailing bytes").getMessage()).contains("trailing bytes");
        readFails(new byte[0], "empty file");
        readFails("PK\u0003\u0004 a zip file, maybe a jar, surely not an artifact".getBytes(), "zip");
        readFails("{\"name\": \"a JSON file that is long enough for a header\"}".getBytes(), "json");
    }

    @Test void hugeDeclaredPayloadIsRejectedBeforeAllocating() {
        byte[] b = Arrays.copyOf(TestArtifacts.bytes(), 4096);
        ByteBuffer.wrap(b).putLong(12, Long.MAX_VALUE);
        assertThat(readFails(b, "payload length max").getMessage()).startsWith("corrupted artifact (payload length");
        ByteBuffer.wrap(b).putLong(12, (1L << 30) - 1);
        assertThat(readFails(b, "payload length 1 GiB").getMessage()).startsWith("truncated artifact");
    }

    @Test void fileReadErrorsNameThePath(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("cut.domino");
        Files.write(f, Arrays.copyOf(TestArtifacts.bytes(), 1000));
        assertThatThrownBy(() -> Artifact.load(f)).isInstanceOf(ArtifactFormatException.class)
                .hasMessageStartingWith(f + ": truncated artifact");
    }

    /**
     * Payload corrupted and the checksum forged to match (what a buggy writer or a hostile file
     * would give): the bounded reader must still fail cleanly with the documented exception, or
     * load a structurally valid artifact whose masks are computed without exceptions or hangs.
     * Mutations are aimed at each section, not only the (dominant) vocabulary.
     */
    @Test void forgedChecksumNeverCrashesTheReader() throws IOException {
        byte[] original = TestArtifacts.bytes();
        Map<String, Long> sections = ArtifactFormat.sectionSizes(TestArtifacts.artifact());
        assertThat(sections.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(original.length);
        long[] starts = new long[sections.size()];
        long[] sizes = new long[sections.size()];
        int k = 0;
        long at = 0;
        for (long size : sections.values()) { starts[k] = at; sizes[k] = size; at += size; k++; }
        int loaded = 0, rejected = 0;
        for (int seed = 0; seed < 600; seed++) {
            Random rnd = new Random(seed);
            byte[] b = original.clone();
            int section = 1 + rnd.nextInt(sections.size() - 1); // not the header
            int flips = 1 + rnd.nextInt(3);
            for (int i = 0; i < flips; i++) {
                int pos = (int) (starts[section] + rnd.nextInt((int) sizes[section]));
                b[pos] = (byte) (rnd.nextBoolean() ? rnd.nextInt(256) : b[pos] ^ (1 << rnd.nextInt(8)));
            }
            if (rnd.nextInt(5) == 0) { // sometimes also cut the payload short, with a consistent header
                int cut = HEADER + rnd.nextInt(b.length - HEADER);
                b = Arrays.copyOf(b, cut);
            }
            forgeHeader(b);
            String what = "seed " + seed + " (section " + sections.keySet().toArray()[section] + ")";
            byte[] input = b;
            Artifact a = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try {
                    return ArtifactFormat.read(new ByteArrayInputStream(input));
                } catch (ArtifactFormatException e) {
                    assertThat(e.getMessage()).as(what).startsWith("corrupted artifact");
                    return null;
                }
            }, what);
            if (a == null) { rejected++; continue; }
            loaded++;
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                Matcher m = a.newMatcher();
                m.countAllowed();
                m.acceptString("{\"a\": 1");
                m.countAllowed();
            }, what + ": masks of a loaded artifact");
        }
        assertThat(rejected).as("most forged payloads are rejected (loaded: %d)", loaded).isGreaterThan(300);
    }

    private static void forgeHeader(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b, HEADER, b.length - HEADER);
        ByteBuffer.wrap(b).putLong(12, b.length - HEADER).putInt(20, (int) crc.getValue());
    }

    // ------------------------------------------------------------------ writing

    @Test void failedWriteLeavesNoFileAndNoTemp(@TempDir Path dir) throws IOException {
        Artifact a = TestArtifacts.artifact();
        // the target is a non-empty directory: the final rename fails
        Path target = dir.resolve("out.domino");
        Files.createDirectories(target.resolve("occupied"));
        assertThatThrownBy(() -> ArtifactFormat.write(a, target)).isInstanceOf(IOException.class);
        assertThat(Files.isDirectory(target)).isTrue();
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("out.domino");
        }
        // the parent is a regular file: nothing can be created
        Path file = dir.resolve("plain");
        Files.writeString(file, "x");
        assertThatThrownBy(() -> ArtifactFormat.write(a, file.resolve("a.domino"))).isInstanceOf(IOException.class);
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test void failedWriteKeepsThePreviousArtifact(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("keep.domino");
        ArtifactFormat.write(TestArtifacts.artifact(), target);
        byte[] before = Files.readAllBytes(target);
        // a serializer failure (here: an artifact whose info cannot be written) happens before any file is touched
        assertThatThrownBy(() -> ArtifactFormat.write(null, target)).isInstanceOf(RuntimeException.class);
        assertThat(Files.readAllBytes(target)).isEqualTo(before);
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("keep.domino");
        }
        assertThat(Artifact.load(target).vocabulary().size()).isEqualTo(TestArtifacts.artifact().vocabulary().size());
    }

    @Test void cliReportsCorruptArtifactsInOneLine(@TempDir Path dir) throws IOException {
        byte[] b = TestArtifacts.bytes();
        b[b.length / 2] ^= 0x10;
        Path f = dir.resolve("bad.domino");
        Files.write(f, b);
        for (String[] args : new String[][] {{"inspect", "artifact", f.toString()}, {"inspect", "tree", f.toString(), "--state", "0"},
                {"inspect", "align", f.toString(), "--text", "{}"}, {"mask", f.toString(), "--prefix", "{"}}) {
            InspectCommandTest.Run r = InspectCommandTest.run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(3);
            assertThat(r.err().strip()).isEqualTo("error: " + f + ": corrupted artifact (checksum mismatch)");
        }
    }
}
