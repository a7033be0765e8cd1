package dev.domino.runtime;

import java.io.IOException;

/** An artifact file that cannot be used: foreign, truncated, corrupted, or another format version. */
public class ArtifactFormatException extends IOException {
    public ArtifactFormatException(String message) { super(message); }
    public ArtifactFormatException(String message, Throwable cause) { super(message, cause); }
}
