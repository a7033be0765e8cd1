/**
 * Benchmark and fuzz tooling behind {@code domino bench} ({@code maskbench}, {@code speculate}, {@code soak},
 * {@code k}, {@code tools}, {@code cache-soak}, {@code fuzz}): workloads compiled through the compiler's front
 * door, measured through the runtime API and {@code dev.domino.runtime.diagnostics}, printed as JSON lines. Uses
 * {@code dev.domino.cli} helpers; nothing in {@code dev.domino.cli} but the {@code bench} command uses this package.
 */
package dev.domino.cli.bench;
