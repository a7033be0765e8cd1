package dev.domino.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Issue 37 item 4: {@link ArtifactRegistry#loadDirectory} on a folder of hostile files returns,
 * loads the good artifact, and names each bad file with its reason.
 */
class ArtifactRegistryHostileFilesTest {
    @TempDir Path dir;

    /** A header: magic, this runtime's format version, the payload length it claims, a checksum. */
    static byte[] header(long payloadLength) throws Exception {
        byte[] real = Files.readAllBytes(Fixtures.JSON);
        byte[] h = new byte[24];
        System.arraycopy(real, 0, h, 0, 24);
        ByteBuffer.wrap(h).putLong(12, payloadLength);
        return h;
    }

    @Test void hostileFilesAreNamedAndNeverOpened() throws Exception {
        Files.copy(Fixtures.JSON, dir.resolve("good.domino"));
        boolean fifo = new ProcessBuilder("mkfifo", dir.resolve("fifo.domino").toString()).start().waitFor() == 0;
        boolean device = Files.exists(Path.of("/dev/zero"));
        if (device) Files.createSymbolicLink(dir.resolve("device.domino"), Path.of("/dev/zero"));
        Files.createSymbolicLink(dir.resolve("dangling.domino"), dir.resolve("missing-target"));
        Files.createDirectory(dir.resolve("folder.domino"));
        Files.write(dir.resolve("lying.domino"), header(1L << 30)); // 24 bytes claiming a 1 GB payload
        try (RandomAccessFile sparse = new RandomAccessFile(dir.resolve("sparse.domino").toFile(), "rw")) {
            sparse.write(header((1L << 30) - 24));
            sparse.setLength(1L << 30); // a sparse gigabyte whose size agrees with its header
        }
        try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            socket.bind(UnixDomainSocketAddress.of(dir.resolve("socket.domino")));

            long t0 = System.nanoTime();
            ArtifactRegistry r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> ArtifactRegistry.loadDirectory(dir));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("loadDirectory on hostile files: " + ms + " ms; " + r.failures());

            assertThat(r.artifacts()).containsOnlyKeys("good");
            assertThat(r.failures().get("dangling")).contains("dangling.domino").contains("dangling symbolic link").contains("missing-target");
            assertThat(r.failures().get("folder")).contains("folder.domino").contains("is a directory");
            assertThat(r.failures().get("lying")).contains("lying.domino").contains("truncated artifact (0 of 1073741824 payload bytes");
            assertThat(r.failures().get("sparse")).contains("sparse.domino").contains("zero bytes");
            assertThat(r.failures().get("socket")).contains("socket.domino").contains("a socket");
            if (fifo) assertThat(r.failures().get("fifo")).contains("fifo.domino").contains("a FIFO");
            if (device) assertThat(r.failures().get("device")).contains("device.domino").contains("a character device");
            for (String reason : r.failures().values()) assertThat(reason).doesNotContain("\n");
        }
    }

    @Test void loadingOneSpecialFileFailsAtOnce() throws Exception {
        if (new ProcessBuilder("mkfifo", dir.resolve("f.domino").toString()).start().waitFor() != 0) return;
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> assertTimeoutPreemptively(Duration.ofSeconds(20), () -> Artifact.load(dir.resolve("f.domino"))))
                .isInstanceOf(ArtifactFormatException.class).hasMessageContaining("a FIFO");
    }
}
