package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.Expr;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Process-wide cache of terminal automata, keyed by the (reference-free) expression's structure.
 * Generated grammars repeat the same terminals from schema to schema (JSON strings, numbers,
 * separators with whitespace); a server compiling schemas on request builds each once. Only
 * expressions small enough to be terminals get here, so structural hashing stays cheap.
 */
final class LanguageCache {
    private static final int CAPACITY = 4096;
    private static final Map<Expr, DfaBuilder.Language> CACHE = new LinkedHashMap<>(256, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Expr, DfaBuilder.Language> eldest) {
            return size() > CAPACITY;
        }
    };

    private LanguageCache() {}

    static synchronized DfaBuilder.Language get(Expr e) { return CACHE.get(e); }

    static synchronized void put(Expr e, DfaBuilder.Language language) { CACHE.put(e, language); }
}
