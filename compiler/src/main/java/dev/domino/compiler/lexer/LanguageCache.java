package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.util.ProcessCaches;

/**
 * Process-wide cache of terminal automata, keyed by the (reference-free) expression's structure.
 * Generated grammars repeat the same terminals from schema to schema (JSON strings, numbers,
 * separators with whitespace); a server compiling schemas on request builds each once. Only
 * expressions small enough to be terminals get here, so structural hashing stays cheap. Bounded in
 * bytes (an entry count let 50-string enums hold hundreds of MB) and listed, bounded and cleared by
 * {@link dev.domino.runtime.RuntimeCaches} as {@value #NAME}.
 */
final class LanguageCache {
    static final String NAME = "terminal automata";
    private static final BoundedCache<Expr, DfaBuilder.Language> CACHE = ProcessCaches.register(
            new BoundedCache<>(NAME, 64L << 20)); // RuntimeCaches.setMaxBytes(NAME, ...) changes the bound

    private LanguageCache() {}

    static DfaBuilder.Language get(Expr e) { return CACHE.get(e); }

    static void put(Expr e, DfaBuilder.Language language) {
        // the key is a small expression (terminals only); the automaton dominates
        long bytes = 256 + (language.dfa() == null ? 0 : language.dfa().estimatedBytes());
        CACHE.putIfAbsent(e, language, bytes);
    }
}
