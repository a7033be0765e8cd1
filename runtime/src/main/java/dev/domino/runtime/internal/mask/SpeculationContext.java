package dev.domino.runtime.internal.mask;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.parse.*;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * The (α, β) a count-based speculation model conditions on (DOMINO §3.6), as one 64-bit key.
 *
 * <ul>
 *   <li>α: the scanner state of each live configuration ("between terminals" or "inside
 *       terminal t at automaton state s"), i.e. the most recently read subterminal;</li>
 *   <li>β: the parser <em>core</em> of that configuration: the sorted dotted-rule ids of its
 *       Earley items whose next symbol is a terminal, ignoring their origin sets. The core
 *       says which grammar positions the next terminal can extend (in JSON: "object key" vs
 *       "array element"; in a schema: which property), and, unlike the full Earley set, it
 *       repeats across outputs and across iterations of a repetition, so counts generalize.</li>
 * </ul>
 * The key is a hash over the set of (α, β) pairs of all live configurations; collisions are
 * possible in principle (64 bits) and would only cost a wrong draft, never a wrong token,
 * because every proposal is checked against the grammar.
 */
public final class SpeculationContext {
    private SpeculationContext() {}

    /** The context key of the matcher's current state (0 after EOS). */
    public static long of(Matcher matcher) {
        if (matcher.isTerminated()) return 0;
        return of(matcher.artifact(), RuntimeAccess.get().configurations(matcher));
    }

    public static long of(Artifact artifact, Configurations c) {
        int[] ruleNext = RuntimeAccess.of(artifact).grammar().ruleNext;
        long[] pairs = new long[c.size()];
        for (int i = 0; i < c.size(); i++) {
            long h = 0x9E3779B97F4A7C15L;
            EarleyState p = c.parsers[i];
            for (int j = 0, n = p.itemCount(); j < n; j++) {
                int r = p.rule(j);
                int next = ruleNext[r];
                if (next != ParserGrammar.NONE && next < 0) h = mix(h ^ r);
            }
            pairs[i] = mix(h ^ ((long) c.scanStates[i] << 32));
        }
        Arrays.sort(pairs);
        long key = 0xC2B2AE3D27D4EB4FL;
        long prev = 0;
        for (int i = 0; i < pairs.length; i++) {
            if (i > 0 && pairs[i] == prev) continue; // same (α, β), different origins
            key = mix(key ^ pairs[i]);
            prev = pairs[i];
        }
        return key == 0 ? 1 : key;
    }

    /** SplitMix64 finalizer. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Human-readable α of the matcher's state, for diagnostics: scanner state names. */
    public static String describe(Matcher matcher) {
        if (matcher.isTerminated()) return "terminated";
        Configurations c = RuntimeAccess.get().configurations(matcher);
        ArtifactInternals a = RuntimeAccess.of(matcher.artifact());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.size(); i++) {
            if (i > 0) sb.append(' ');
            sb.append(a.stateName(c.scanStates[i]));
        }
        return sb.toString();
    }
}
