package dev.domino.runtime.internal.format;

import dev.domino.runtime.ArtifactFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.CRC32C;

/**
 * Reading an artifact file so that no file can hang or exhaust the reader: the file is checked to
 * be a regular file before it is opened (opening a FIFO blocks until a writer comes; a device may
 * never end), the header's payload length must equal the file's real size, and the checksum is
 * computed while streaming, before the payload is allocated (a file whose header claims a gigabyte
 * fails on its checksum with 64 KB in memory; a sparse one, on its first 64 KB of zeros).
 */
public final class ArtifactFiles {
    private ArtifactFiles() {}

    /** Why {@code path} cannot be an artifact file without opening it, or null when it is a regular file. */
    public static String notRegular(Path path) {
        try {
            if (Files.isSymbolicLink(path) && !Files.exists(path)) {
                String target;
                try {
                    target = Files.readSymbolicLink(path).toString();
                } catch (IOException e) {
                    target = "?";
                }
                return "dangling symbolic link (to " + target + ")";
            }
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            if (a.isRegularFile()) return null;
            if (a.isDirectory()) return "is a directory, not an artifact file";
            return "not a regular file (" + kind(path) + "); only regular files are read";
        } catch (NoSuchFileException e) {
            return "no such file";
        } catch (IOException e) {
            return "cannot read its attributes (" + e.getMessage() + ")";
        }
    }

    /** The kind of a special file, from its Unix mode where the platform gives it. */
    private static String kind(Path path) {
        try {
            Object mode = Files.getAttribute(path, "unix:mode");
            if (mode instanceof Integer m) {
                return switch (m & 0170000) {
                    case 0010000 -> "a FIFO";
                    case 0020000 -> "a character device";
                    case 0060000 -> "a block device";
                    case 0140000 -> "a socket";
                    default -> "a special file";
                };
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException ignored) {
            // not a Unix file system
        }
        return "a FIFO, device or socket";
    }

    /**
     * Reads and checks the payload of an artifact file; {@code header} parses the 24 header bytes into
     * {payload length, expected crc}. Errors name no path: the caller prefixes it.
     */
    static byte[] payload(Path path, int headerBytes, java.util.function.Function<byte[], long[]> header) throws IOException {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) throw new NoSuchFileException(path.toString()); // as opening would
        String bad = notRegular(path);
        if (bad != null) throw new ArtifactFormatException(bad);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < headerBytes) throw new ArtifactFormatException("not a Domino artifact (file shorter than its header)");
            ByteBuffer h = ByteBuffer.allocate(headerBytes);
            readFully(ch, h, 0);
            long[] lengthAndCrc = header.apply(h.array());
            long length = lengthAndCrc[0];
            if (length > size - headerBytes) {
                throw new ArtifactFormatException("truncated artifact (" + (size - headerBytes) + " of " + length + " payload bytes; "
                        + "the file is shorter than its header claims)");
            }
            if (length < size - headerBytes) {
                throw new ArtifactFormatException("corrupted artifact (trailing bytes after payload: the header claims " + length
                        + " bytes, the file holds " + (size - headerBytes) + ")");
            }
            // checksum first, streaming: nothing the size of the payload is allocated for a file that is not one
            CRC32C crc = new CRC32C();
            ByteBuffer chunk = ByteBuffer.allocate(1 << 16);
            for (long pos = headerBytes; pos < size; ) {
                chunk.clear();
                chunk.limit((int) Math.min(chunk.capacity(), size - pos));
                int r = ch.read(chunk, pos);
                if (r < 0) throw new ArtifactFormatException("truncated artifact (the file shrank while being read)");
                chunk.flip();
                if (pos == headerBytes && allZero(chunk)) {
                    // a payload opens with the artifact's fields, never with a run of zeros: a sparse or zero-filled
                    // file, refused before reading the rest of what may be a gigabyte of holes
                    throw new ArtifactFormatException("corrupted artifact (its payload begins with " + chunk.remaining()
                            + " zero bytes: a sparse or zero-filled file)");
                }
                crc.update(chunk);
                pos += r;
            }
            if ((int) crc.getValue() != (int) lengthAndCrc[1]) throw new ArtifactFormatException("corrupted artifact (checksum mismatch)");
            byte[] payload;
            try {
                payload = new byte[(int) length];
            } catch (OutOfMemoryError e) {
                throw new ArtifactFormatException("not enough heap to load a payload of " + length + " bytes");
            }
            readFully(ch, ByteBuffer.wrap(payload), headerBytes);
            CRC32C again = new CRC32C();
            again.update(payload);
            if ((int) again.getValue() != (int) lengthAndCrc[1]) throw new ArtifactFormatException("corrupted artifact (the file changed while being read)");
            return payload;
        }
    }

    private static boolean allZero(ByteBuffer b) {
        for (int i = b.position(); i < b.limit(); i++) if (b.get(i) != 0) return false;
        return b.remaining() >= 4096;
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, pos);
            if (r < 0) throw new ArtifactFormatException("truncated artifact (the file shrank while being read)");
            pos += r;
        }
    }
}
