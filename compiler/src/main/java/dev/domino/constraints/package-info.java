/**
 * Serving-side constraints: one call from an OpenAI-style request to an artifact
 * ({@link dev.domino.constraints.Constraints}), and {@link dev.domino.constraints.ConstraintCache} for a server
 * (single flight, a byte bound, a compile time budget). Sits above the compiler and below a server: request
 * → compiler → cached artifact → matchers.
 */
package dev.domino.constraints;
