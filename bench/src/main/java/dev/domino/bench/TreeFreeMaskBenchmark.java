package dev.domino.bench;

import dev.domino.compiler.CompileOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.internal.mask.MaskServing;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.TreeDemand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The same mask served two ways (issue 34): {@link #tree} walks the subterminal trees of an
 * eagerly compiled artifact; {@link #treeFree} walks the vocabulary trie directly
 * ({@code DirectMask}) on a lazy artifact in {@link TreeDemand.Mode#DIRECT_ONLY}, which never
 * builds or uses a tree. The states are those of {@link Fixtures#point}: {@code start} (before the
 * document's first value; json.gbnf's root is an object), {@code string} (inside a string body),
 * {@code colon} (right after a key's colon), {@code number} (inside a number), {@code value}
 * (after a comma inside an array).
 *
 * <p>The setup checks, once per state, that both ways give the same mask and that each was served
 * the way its name says (no configuration walked directly for {@code tree}, no tree for
 * {@code treeFree}, none built by either); the tear-down checks that no tree was built while
 * measuring, and that the tree mask walked nothing directly. A wrong setting fails the run
 * instead of measuring something else.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss64m"})
@State(Scope.Thread)
public class TreeFreeMaskBenchmark {
    @Param({Fixtures.DEFAULT_VOCAB}) public String vocab;
    @Param({"json"}) public String grammar;
    @Param({"start", "string", "colon", "number", "value"}) public String state;

    Matcher withTrees;
    Matcher treeFree;
    int[] bitmask;
    long[] servedAtSetup;

    @Setup(Level.Trial) public void setUp() {
        Artifact eager = Fixtures.compile(grammar, vocab, false);
        // Its own artifact: the tree demand is a per-artifact setting, and no other benchmark may see it.
        Artifact lazy = Fixtures.compileNew(grammar, vocab, CompileOptions.builder().lazy(true).prebuildMillis(0).build());
        RuntimeAccess.of(lazy).treeDemand().setMode(TreeDemand.Mode.DIRECT_ONLY);
        RuntimeAccess.of(lazy).treeDemand().setBuildAfterUses(0);

        Fixtures.Point p = Fixtures.point(grammar, state);
        withTrees = Fixtures.matcherAfter(eager, p.prefix());
        treeFree = Fixtures.matcherAfter(lazy, p.prefix());
        bitmask = new int[withTrees.bitmaskInts()];

        int[] expected = maskServed(withTrees, false);
        int[] direct = maskServed(treeFree, true);
        if (!Arrays.equals(expected, direct)) {
            throw new IllegalStateException("tree-free mask differs from the tree mask at " + state + " ('" + p.prefix() + "')");
        }
        int continuation = Fixtures.tokenize(eager.vocabulary(), p.continuation())[0];
        if ((expected[continuation >>> 5] & (1 << continuation)) == 0) {
            throw new IllegalStateException("the continuation's first token is refused at " + state);
        }
        int allowed = 0;
        for (int w : expected) allowed += Integer.bitCount(w);
        System.out.printf("%n[%s/%s] same mask both ways: %d of %d tokens allowed%n", grammar, state, allowed, eager.vocabulary().size());
        servedAtSetup = MaskServing.snapshot();
    }

    /** One mask of m, checked to be served by trees only ({@code direct} false) or by direct walks only. */
    private int[] maskServed(Matcher m, boolean direct) {
        long[] before = MaskServing.snapshot();
        int[] mask = new int[m.bitmaskInts()];
        m.fillNextTokenBitmask(mask, 0);
        long[] after = MaskServing.snapshot();
        long walked = after[MaskServing.DIRECT] - before[MaskServing.DIRECT];
        long built = after[MaskServing.BUILT] - before[MaskServing.BUILT] + after[MaskServing.WAITED] - before[MaskServing.WAITED];
        if (built != 0 || (direct ? walked == 0 : walked != 0)) {
            throw new IllegalStateException(state + ": the " + (direct ? "tree-free" : "tree") + " mask walked " + walked
                    + " configurations directly and built " + built + " trees");
        }
        if (m.isError()) throw new IllegalStateException(state + ": matcher in error: " + m.errorReason());
        return mask;
    }

    @TearDown(Level.Trial) public void servedAsNamed(BenchmarkParams params) {
        long[] now = MaskServing.snapshot();
        if (now[MaskServing.BUILT] != servedAtSetup[MaskServing.BUILT] || now[MaskServing.WAITED] != servedAtSetup[MaskServing.WAITED]) {
            throw new IllegalStateException(state + ": a tree was built while measuring");
        }
        if (params.getBenchmark().endsWith(".tree") && now[MaskServing.DIRECT] != servedAtSetup[MaskServing.DIRECT]) {
            throw new IllegalStateException(state + ": the tree mask walked configurations directly while measuring");
        }
    }

    /** The mask from the eager artifact's trees. */
    @Benchmark public int[] tree() {
        withTrees.fillNextTokenBitmask(bitmask, 0);
        return bitmask;
    }

    /** The same mask walked directly over the vocabulary trie, without any tree. */
    @Benchmark public int[] treeFree() {
        treeFree.fillNextTokenBitmask(bitmask, 0);
        return bitmask;
    }
}
