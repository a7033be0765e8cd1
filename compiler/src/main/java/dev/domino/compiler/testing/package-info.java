/**
 * Test support that shares no code with the fast engine: {@link dev.domino.compiler.testing.ByteEarleyOracle}
 * (a byte-level Earley recognizer for viable prefixes and sentences) and
 * {@link dev.domino.compiler.testing.SentenceSampler} (random sentences and mutations). Both read the
 * grammar IR directly; both treat {@code Grammar.ignored()} text as allowed at the start, at the end and
 * after every terminal occurrence (a Ref to a lexical rule, or a Literal/Chars directly in a
 * non-lexical rule). This is byte-level semantics: there is no longest-match lexing, so e.g.
 * {@code NUMBER NUMBER} accepts {@code "12"} split as {@code "1" "2"}.
 */
package dev.domino.compiler.testing;
