package dev.domino.cli;

import dev.domino.compiler.CompileLimits;
import dev.domino.runtime.RuntimeLimits;

/**
 * The one place the command line reads {@code -Ddomino.*} system properties: as defaults, turned
 * into values that are passed on (the compiler and runtime read no system property).
 */
public final class SystemPropertyDefaults {
    private SystemPropertyDefaults() {}

    /** {@link CompileLimits.Values#DEFAULTS}, with each {@code -Ddomino.limit.NAME=N} given. */
    static CompileLimits.Values compileLimits() {
        CompileLimits.Values v = CompileLimits.Values.DEFAULTS;
        for (CompileLimits l : CompileLimits.values()) {
            String p = System.getProperty("domino.limit." + l.id());
            if (p != null) v = v.with(l.id() + "=" + p.trim());
        }
        return v;
    }

    /** {@link RuntimeLimits#DEFAULTS}, with each {@code -Ddomino.parser.*}, {@code -Ddomino.cache.*}, ... given. */
    public static RuntimeLimits runtimeLimits() {
        RuntimeLimits d = RuntimeLimits.DEFAULTS;
        return new RuntimeLimits(
                Long.getLong("domino.parser.maxStepWork", d.parserMaxStepWork()),
                Long.getLong("domino.parser.sharedBytes", d.parserSharedBytes()),
                Long.getLong("domino.cache.trieBytes", d.trieCacheBytes()),
                Long.getLong("domino.cache.walkBytes", d.walkCacheBytes()),
                Long.getLong("domino.cache.sharedWalkBytes", d.sharedWalkCacheBytes()),
                Long.getLong("domino.cache.coreBelowBytes", d.coreBelowCacheBytes()),
                Long.getLong("domino.cache.loopCoreBytes", d.loopCoreCacheBytes()),
                Long.getLong("domino.cache.enteredBytes", d.enteredCacheBytes()),
                Integer.getInteger("domino.dfa.denseMaxStates", d.denseMaxStates()),
                Long.getLong("domino.batch.lingerMicros", d.batchLingerMicros()));
    }
}
