/**
 * JSON semantics beside the parser that no context-free grammar states: {@code uniqueItems}
 * ({@link dev.domino.runtime.internal.json.UniqueArrays}, {@link dev.domino.runtime.internal.json.UniqueState}) over
 * the canonical form of JSON values ({@link dev.domino.runtime.internal.json.CanonicalJson}). The matcher feeds it the
 * committed configurations and asks whether an array item may end here; it reads parse and scan and steps
 * bytes with the mask kernel.
 */
package dev.domino.runtime.internal.json;
