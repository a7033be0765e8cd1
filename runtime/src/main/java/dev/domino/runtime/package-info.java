/**
 * The runtime API a server embeds: load an {@link dev.domino.runtime.Artifact} (a compiled grammar bound to one
 * {@link dev.domino.runtime.Vocabulary}), create one {@link dev.domino.runtime.Matcher} per request, fill token
 * masks and commit tokens; {@link dev.domino.runtime.BatchMasks}, {@link dev.domino.runtime.Speculator} and
 * {@link dev.domino.runtime.ArtifactRegistry} serve many requests. Data flows in from artifact bytes (written by
 * the compiler) and out as masks; the API classes reach their parts in {@code dev.domino.runtime.internal}
 * and never name {@code dev.domino.runtime.diagnostics}, which reads them.
 */
package dev.domino.runtime;
