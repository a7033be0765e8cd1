/**
 * Read-only figures for tools and profilers: artifact sizes ({@link dev.domino.runtime.diagnostics.ArtifactStats},
 * {@link dev.domino.runtime.diagnostics.ArtifactDiagnostics}), per-matcher mask work
 * ({@link dev.domino.runtime.diagnostics.MatcherStats}) and token traces. Data flows one way: these classes read
 * artifacts and matchers (through {@code RuntimeAccess}); nothing in the runtime reads them back.
 */
package dev.domino.runtime.diagnostics;
