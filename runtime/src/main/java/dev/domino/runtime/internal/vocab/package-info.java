/**
 * The vocabulary as masks walk it: a byte trie of the grammar tokens ({@link dev.domino.runtime.internal.vocab.VocabTrie})
 * with its per-walk visit counters, and forced bytes turned back into tokens
 * ({@link dev.domino.runtime.internal.vocab.ForcedTokens}). Built from the runtime's {@code Vocabulary}; read by tree
 * building and direct masks.
 */
package dev.domino.runtime.internal.vocab;
