/**
 * The door to the runtime's internals: {@link dev.domino.runtime.internal.RuntimeAccess} (the API classes'
 * "shared secrets") and {@link dev.domino.runtime.internal.ArtifactInternals} (what the compiler and tools see
 * of an artifact). The sub-packages hold the parts: {@code parse}, {@code scan}, {@code mask}, {@code trees},
 * {@code vocab}, {@code format}, {@code json}, {@code util}. Data flows from the compiler (which builds the
 * parts) through {@code format} (bytes) to the API classes, which read the parts to compute masks. Exported only
 * to the compiler and the CLI; no compatibility promise.
 */
package dev.domino.runtime.internal;
