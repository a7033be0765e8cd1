package dev.domino.runtime.diagnostics;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.internal.parse.EarleyState;
import dev.domino.runtime.internal.mask.MaskWork;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.TreeBuildCounter;

import java.util.ArrayList;
import java.util.List;

/**
 * Counters of the work one matcher's masks do, for profiling ({@code bench maskbench --profile}).
 * A matcher counts nothing until {@link #count(Matcher)} is called for it (then its masks pay one
 * field read and an add per counted event); other matchers, of this artifact or another, are not
 * affected. Read as the matcher is, by the thread that uses it. {@link #treeBuilds(Artifact)} gives
 * the artifact's lazy tree builds (on any thread; always counted).
 */
public final class MatcherStats {
    private final MaskWork work;

    private MatcherStats(MaskWork work) { this.work = work; }

    /** Starts counting the work of this matcher's masks (from now on; a second call changes nothing). */
    public static MatcherStats count(Matcher matcher) {
        return new MatcherStats(RuntimeAccess.get().countWork(matcher));
    }

    /** The counters so far. */
    public Snapshot snapshot() {
        MaskWork w = work;
        return new Snapshot(w.masks, w.configurations, w.treeNodes, w.earleyScans, w.dynamicChecks, w.groupsSeen,
                w.groupsOred, w.tokensOred);
    }

    /** Lazy trees the artifact built so far, on any thread, and the nanoseconds their builds took. */
    public static TreeBuilds treeBuilds(Artifact artifact) {
        TreeBuildCounter c = RuntimeAccess.of(artifact).treeBuilds();
        return new TreeBuilds(c.trees(), c.nanos(), c.givenUp(), c.givenUpNanos());
    }

    /**
     * Parser states that {@code artifact} and the {@code live} matchers keep reachable (a graph
     * walk: for soak tests and leak hunting, not for a hot path). Bounded by the artifact's
     * shared-state budget plus what the live matchers reach.
     */
    public static long reachableParserStates(Artifact artifact, Iterable<Matcher> live) {
        List<EarleyState> roots = new ArrayList<>();
        for (Matcher m : live) RuntimeAccess.get().collectParserStates(m, roots);
        return RuntimeAccess.of(artifact).parser().reachableStates(roots);
    }

    /**
     * @param masks          masks computed
     * @param configurations live configurations (parser state, scanner state) the masks walked
     * @param treeNodes      tree nodes visited by the walks
     * @param earleyScans    parser scans (Earley steps) taken by the walks
     * @param dynamicChecks  tokens checked at run time byte by byte (tree nodes too wide to precompute)
     * @param groupsSeen     groups (terminal or terminal class, token set) the walks looked at
     * @param groupsOred     groups whose tokens the walks ORed into masks
     * @param tokensOred     tokens those groups held
     */
    public record Snapshot(long masks, long configurations, long treeNodes, long earleyScans, long dynamicChecks,
                           long groupsSeen, long groupsOred, long tokensOred) {
        public static final Snapshot ZERO = new Snapshot(0, 0, 0, 0, 0, 0, 0, 0);

        /** This minus an earlier snapshot. */
        public Snapshot minus(Snapshot o) {
            return new Snapshot(masks - o.masks, configurations - o.configurations, treeNodes - o.treeNodes,
                    earleyScans - o.earleyScans, dynamicChecks - o.dynamicChecks, groupsSeen - o.groupsSeen,
                    groupsOred - o.groupsOred, tokensOred - o.tokensOred);
        }

        /** This plus another matcher's figures. */
        public Snapshot plus(Snapshot o) {
            return new Snapshot(masks + o.masks, configurations + o.configurations, treeNodes + o.treeNodes,
                    earleyScans + o.earleyScans, dynamicChecks + o.dynamicChecks, groupsSeen + o.groupsSeen,
                    groupsOred + o.groupsOred, tokensOred + o.tokensOred);
        }
    }

    /** Lazy trees built and the nanoseconds their builds took; builds masks gave up over their budget and their CPU nanoseconds. */
    public record TreeBuilds(long trees, long nanos, long givenUp, long givenUpNanos) {
        /** This minus an earlier reading. */
        public TreeBuilds minus(TreeBuilds o) { return new TreeBuilds(trees - o.trees, nanos - o.nanos, givenUp - o.givenUp, givenUpNanos - o.givenUpNanos); }
    }
}
