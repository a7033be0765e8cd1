package dev.domino.bench;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.BatchMasks;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Masks for a batch of requests ({@code batch} matchers at different prefixes of one document):
 * one thread filling them in turn vs {@link BatchMasks} on a {@code poolThreads}-thread pool.
 * Throughput ratio = sequential time / parallel time.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss64m"})
@State(Scope.Thread)
public class BatchBenchmark {
    @Param({Fixtures.DEFAULT_VOCAB}) public String vocab;
    @Param({"json"}) public String grammar;
    @Param({"false"}) public boolean lazy;
    @Param({"64"}) public int batch;
    @Param({"2"}) public int poolThreads;
    /** Executor tasks per call (the calling thread helps too). */
    @Param({"1", "2"}) public int tasks;
    /**
     * Idle time before each batch (not measured), like a model's forward pass between decode
     * steps: 0 = batches back to back; longer than the helpers' linger (200 µs) = every batch
     * wakes parked pool threads.
     */
    @Param({"0"}) public int gapMicros;

    Matcher[] matchers;
    int[] bitmask;
    ExecutorService pool;

    @Setup(Level.Trial) public void setUp() {
        Artifact a = Fixtures.compile(grammar, vocab, lazy);
        int[] tokens = Fixtures.tokenize(a.vocabulary(), Fixtures.document(grammar));
        matchers = new Matcher[batch];
        Matcher walker = a.newMatcher();
        int done = 0;
        for (int i = 0; i < batch; i++) {
            int target = (int) ((long) i * tokens.length / batch);
            while (done < target) {
                if (!walker.acceptToken(tokens[done++])) throw new IllegalStateException("document token " + (done - 1) + " refused");
            }
            matchers[i] = walker.fork();
        }
        bitmask = new int[batch * matchers[0].bitmaskInts()];
        pool = Executors.newFixedThreadPool(poolThreads, r -> {
            Thread t = new Thread(r, "batch-masks");
            t.setDaemon(true);
            return t;
        });
        System.out.printf("%n[%s] %d matchers at token offsets 0..%d of %d%n", grammar, batch, done, tokens.length);
    }

    @Setup(Level.Invocation) public void gap() {
        if (gapMicros > 0) java.util.concurrent.locks.LockSupport.parkNanos(gapMicros * 1000L);
    }

    @TearDown(Level.Trial) public void tearDown() { pool.shutdownNow(); }

    @Benchmark public int[] sequential() {
        for (int i = 0; i < matchers.length; i++) matchers[i].fillNextTokenBitmask(bitmask, i);
        return bitmask;
    }

    @Benchmark public int[] parallel() {
        BatchMasks.fillNextTokenBitmasks(matchers, bitmask, pool, tasks);
        return bitmask;
    }
}
