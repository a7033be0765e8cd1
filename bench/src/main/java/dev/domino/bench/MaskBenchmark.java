package dev.domino.bench;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One matcher at a representative state: full mask, commit (+ rollback), and the opportunistic
 * check of an allowed and of a refused token. Sample mode, so p50/p99 come with the mean.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss64m"})
@State(Scope.Thread)
public class MaskBenchmark {
    @Param({Fixtures.DEFAULT_VOCAB}) public String vocab;
    @Param({"json", "gsm8k_schema"}) public String grammar;
    @Param({"start", "key", "string", "number", "value"}) public String state;
    /** Lazy artifacts build a state's tree on first use (in warm-up here). */
    @Param({"false"}) public boolean lazy;

    Matcher matcher;
    int[] bitmask;
    int allowedToken;
    int refusedToken;

    @Setup(Level.Trial) public void setUp() {
        Artifact a = Fixtures.compile(grammar, vocab, lazy);
        Fixtures.Point p = Fixtures.point(grammar, state);
        matcher = Fixtures.matcherAfter(a, p.prefix());
        bitmask = new int[matcher.bitmaskInts()];
        allowedToken = Fixtures.tokenize(a.vocabulary(), p.continuation())[0];
        if (!matcher.isAllowed(allowedToken)) throw new IllegalStateException("continuation token refused at " + state);
        refusedToken = Fixtures.disallowedToken(matcher);
        System.out.printf("%n[%s/%s] allowed tokens: %d; allowed '%s', refused '%s'%n", grammar, state, matcher.countAllowed(),
                a.vocabulary().display(allowedToken), a.vocabulary().display(refusedToken));
    }

    /** Full mask into a vLLM-layout int row. */
    @Benchmark public int[] mask() {
        matcher.fillNextTokenBitmask(bitmask, 0);
        return bitmask;
    }

    /** Commit one token, then undo it (the state is the same for every invocation). */
    @Benchmark public boolean commit() {
        boolean ok = matcher.acceptToken(allowedToken);
        matcher.rollback(1);
        return ok;
    }

    /** Opportunistic check of the token the model proposed, when the grammar allows it. */
    @Benchmark public boolean checkAllowed() { return matcher.isAllowed(allowedToken); }

    /** Opportunistic check of a token the grammar refuses. */
    @Benchmark public boolean checkRefused() { return matcher.isAllowed(refusedToken); }
}
