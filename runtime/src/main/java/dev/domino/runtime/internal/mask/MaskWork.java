package dev.domino.runtime.internal.mask;

/**
 * The work one matcher's masks did, counted only when a profiler asked for it
 * ({@code dev.domino.runtime.diagnostics.MatcherStats#count}): the matcher holds none until then, so
 * an unprofiled mask pays one null check per counted event. Belongs to one matcher and is written by
 * the thread that uses it, as the matcher is; not thread-safe.
 */
public final class MaskWork {
    /** Masks computed. */
    public long masks;
    /** Live configurations (parser state, scanner state) the masks walked. */
    public long configurations;
    /** Tree nodes visited by the walks. */
    public long treeNodes;
    /** Parser scans (Earley steps) taken by the walks. */
    public long earleyScans;
    /** Tokens checked at run time byte by byte (tree nodes too wide to precompute). */
    public long dynamicChecks;
    /** Groups (terminal or terminal class, token set) the walks looked at. */
    public long groupsSeen;
    /** Groups whose tokens the walks ORed into masks. */
    public long groupsOred;
    /** Tokens those groups held. */
    public long tokensOred;
}
