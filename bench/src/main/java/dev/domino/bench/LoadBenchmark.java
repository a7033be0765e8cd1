package dev.domino.bench;

import dev.domino.runtime.Artifact;
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

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** {@code Artifact.load} of a compiled artifact held in memory (no disk I/O), in a warm JVM. */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss64m"})
@State(Scope.Thread)
public class LoadBenchmark {
    @Param({Fixtures.DEFAULT_VOCAB}) public String vocab;
    @Param({"json"}) public String grammar;
    @Param({"false"}) public boolean lazy;

    byte[] bytes;

    @Setup(Level.Trial) public void setUp() {
        Artifact a = Fixtures.compile(grammar, vocab, lazy);
        bytes = Fixtures.bytes(a);
        System.out.printf("%n[%s, %s] artifact: %d bytes%n", grammar, vocab, bytes.length);
    }

    @Benchmark public Artifact load() throws IOException {
        return Artifact.load(new ByteArrayInputStream(bytes));
    }
}
