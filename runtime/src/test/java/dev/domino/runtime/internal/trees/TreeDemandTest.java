package dev.domino.runtime.internal.trees;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreeDemandTest {
    /** The cost rule: a tree is built once direct walks after the first have cost the budget. */
    @Test void costRuleSkipsTheFirstWalkAndBuildsAtTheBudget() {
        TreeDemand d = new TreeDemand(2, 1);
        d.setBuildAfterDirectMicros(100);
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 5_000_000, true); // the first walk computed terminal walks a build reuses: not charged
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 60_000, false);
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 60_000, true);
        assertThat(d.useTree(0)).isTrue();
        assertThat(d.useTree(1)).isFalse(); // slots are apart
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 1, true);
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 200_000, false);
        assertThat(d.useRoot(0)).isTrue();
    }

    /** A first walk that computed no terminal walks and cost the budget is charged: such a state is built on its second use. */
    @Test void anExpensiveFirstWalkComputingNoWalksIsCharged() {
        TreeDemand d = new TreeDemand(1, 1);
        d.setBuildAfterDirectMicros(100);
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 30_000_000, false);
        assertThat(d.useTree(0)).isTrue();
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 30_000_000, true); // it computed walks: not charged
        assertThat(d.useRoot(0)).isFalse();
        TreeDemand cheap = new TreeDemand(1, 1);
        cheap.setBuildAfterDirectMicros(100);
        assertThat(cheap.useTree(0)).isFalse();
        cheap.chargeTree(0, 50_000, false); // under the budget: a first walk like any other, not charged
        assertThat(cheap.useTree(0)).isFalse();
        cheap.chargeTree(0, 50_000, false);
        assertThat(cheap.useTree(0)).isFalse();
        cheap.chargeTree(0, 50_000, false);
        assertThat(cheap.useTree(0)).isTrue();
    }

    /** A mask's build gets what direct walks have cost as its budget; given up, the next try waits for twice that. */
    @Test void aBuildGivenUpWaitsForTwiceTheCost() {
        TreeDemand d = new TreeDemand(1, 1);
        d.setBuildAfterDirectMicros(100);
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 50_000, true);
        assertThat(d.useTree(0)).isFalse();
        d.chargeTree(0, 150_000, true);
        assertThat(d.useTree(0)).isTrue();
        assertThat(d.treeBudgetNanos(0)).isEqualTo(150_000);
        d.treeBuildGivenUp(0);
        d.chargeTree(0, 100_000, true);
        assertThat(d.useTree(0)).isFalse(); // 250 µs of 300
        d.chargeTree(0, 50_000, true);
        assertThat(d.useTree(0)).isTrue();
        assertThat(d.treeBudgetNanos(0)).isEqualTo(300_000);
        assertThat(d.rootBudgetNanos(0)).isEqualTo(100_000); // never charged: the configured budget
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 400_000, true); // the first walk: not charged
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 400_000, true);
        assertThat(d.useRoot(0)).isTrue();
        d.rootBuildGivenUp(0);
        assertThat(d.useRoot(0)).isFalse();
        d.chargeRoot(0, 400_000, true);
        assertThat(d.useRoot(0)).isTrue();
    }

    /** Fixed use counts and a zero budget build whatever the build costs. */
    @Test void fixedCountsAndZeroBudgetsBuildUnbounded() {
        TreeDemand d = new TreeDemand(1, 1);
        d.setBuildAfterUses(2);
        assertThat(d.treeBudgetNanos(0)).isEqualTo(BuildBudget.NONE);
        d.setBuildAfterDirectMicros(0);
        assertThat(d.rootBudgetNanos(0)).isEqualTo(BuildBudget.NONE);
    }

    @Test void zeroBudgetBuildsOnTheSecondUse() {
        TreeDemand d = new TreeDemand(1, 1);
        d.setBuildAfterDirectMicros(0);
        assertThat(d.useTree(0)).isFalse();
        assertThat(d.useTree(0)).isTrue();
    }

    @Test void fixedCountsReplaceTheCostRule() {
        TreeDemand d = new TreeDemand(1, 1);
        d.setBuildAfterUses(3);
        d.chargeTree(0, 1_000_000_000, false);
        assertThat(d.useTree(0)).isFalse();
        assertThat(d.useTree(0)).isFalse();
        assertThat(d.useTree(0)).isTrue();
        d.setBuildAfterUses(0);
        assertThat(d.useTree(0)).isFalse();
    }

    /** Direct walks are charged in the mask thread's CPU time: time the thread spends off the CPU is not a walk's cost. */
    @Test void theClockIsTheThreadsCpuTime() throws InterruptedException {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled());
        long before = TreeDemand.clockNanos();
        Thread.sleep(200);
        long slept = TreeDemand.clockNanos() - before;
        assertThat(slept).isBetween(0L, 100_000_000L);
    }
}
