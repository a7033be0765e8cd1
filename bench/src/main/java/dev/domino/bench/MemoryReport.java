package dev.domino.bench;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.openjdk.jol.info.GraphLayout;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Retained heap of a loaded artifact and of a matcher's per-request state, measured two ways:
 * JOL's object-graph walk (exact, per object) and used-heap deltas after repeated System.gc().
 *
 * <pre>java -Djdk.attach.allowAttachSelf=true -cp bench/target/benchmarks.jar dev.domino.bench.MemoryReport [VOCAB] [GRAMMAR]</pre>
 */
public final class MemoryReport {
    private MemoryReport() {}

    public static void main(String[] args) throws Exception {
        String vocab = args.length > 0 ? args[0] : Fixtures.DEFAULT_VOCAB;
        String grammar = args.length > 1 ? args[1] : "json";
        byte[] bytes = Fixtures.bytes(Fixtures.compile(grammar, vocab, false));
        System.out.printf("grammar %s, vocabulary %s: artifact file %,d bytes%n", grammar, vocab, bytes.length);

        // 1. heap deltas: hold k loaded copies
        int copies = 5;
        long before = usedAfterGc();
        List<Artifact> held = new ArrayList<>();
        for (int i = 0; i < copies; i++) held.add(Artifact.load(new ByteArrayInputStream(bytes)));
        long after = usedAfterGc();
        System.out.printf("heap delta per loaded artifact (GC, %d copies): %,d bytes%n", copies, (after - before) / copies);
        Artifact a = held.get(0);
        held = null;

        // 2. JOL graph walk
        GraphLayout fresh = GraphLayout.parseInstance(a);
        GraphLayout vocabOnly = GraphLayout.parseInstance(a.vocabulary());
        System.out.printf("JOL retained, freshly loaded artifact: %,d bytes in %,d objects (vocabulary: %,d bytes)%n",
                fresh.totalSize(), fresh.totalCount(), vocabOnly.totalSize());

        // 3. matcher per-request state: the matcher's graph minus everything the artifact reaches
        Matcher m = a.newMatcher();
        System.out.printf("fresh matcher: %,d bytes own state%n", own(m, a));
        int[] tokens = Fixtures.tokenize(a.vocabulary(), Fixtures.document(grammar));
        for (int i = 0; i < tokens.length; i++) {
            if (!m.acceptToken(tokens[i])) throw new IllegalStateException("token " + i + " refused");
            if (i + 1 == 10 || i + 1 == tokens.length) {
                System.out.printf("matcher after %d tokens: %,d bytes own state (%,d per committed token)%n",
                        i + 1, own(m, a), own(m, a) / (i + 1));
            }
        }
        Matcher fork = m.fork();
        System.out.printf("a fork of it: %,d bytes of its own (the history is shared)%n",
                GraphLayout.parseInstance(fork, m, a).totalSize() - GraphLayout.parseInstance(m, a).totalSize());
        int[] row = new int[m.bitmaskInts()];
        System.out.printf("one bitmask row: %,d bytes (caller-owned); computeMask garbage per mask: long[%d] = %,d bytes%n",
                (long) row.length * 4, (a.vocabulary().size() + 63) / 64, 16L + 8L * ((a.vocabulary().size() + 63) / 64));

        // 4. the artifact after use: parser states reached by requests stay memoized on the artifact
        GraphLayout used = GraphLayout.parseInstance(a);
        System.out.printf("artifact after one document (%d tokens): %,d bytes (+%,d)%n", tokens.length, used.totalSize(),
                used.totalSize() - fresh.totalSize());
        for (int doc = 0; doc < 20; doc++) {
            Matcher r = a.newMatcher();
            for (int t : tokens) r.acceptToken(t);
        }
        GraphLayout again = GraphLayout.parseInstance(a);
        System.out.printf("artifact after 20 more copies of the document: %,d bytes (+%,d)%n", again.totalSize(),
                again.totalSize() - used.totalSize());
        // masks along a document (walk memo)
        Matcher r = a.newMatcher();
        for (int t : tokens) { r.fillNextTokenBitmask(row, 0); r.acceptToken(t); }
        GraphLayout masked = GraphLayout.parseInstance(a);
        System.out.printf("artifact after masks at every step of the document: %,d bytes (+%,d)%n", masked.totalSize(),
                masked.totalSize() - again.totalSize());
        String varied = Fixtures.document(grammar).replace("42", "4242").replace("Smith", "Smithson");
        int[] other = Fixtures.tokenize(a.vocabulary(), varied);
        Matcher v = a.newMatcher();
        for (int t : other) { v.fillNextTokenBitmask(row, 0); v.acceptToken(t); }
        GraphLayout variedLayout = GraphLayout.parseInstance(a);
        System.out.printf("artifact after a slightly different document (%d tokens): %,d bytes (+%,d)%n", other.length,
                variedLayout.totalSize(), variedLayout.totalSize() - masked.totalSize());
    }

    private static long own(Matcher m, Artifact a) {
        // sizes, not address sets: a GC between two walks would move objects and spoil subtract()
        return GraphLayout.parseInstance(m, a).totalSize() - GraphLayout.parseInstance(a).totalSize();
    }

    private static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            System.gc();
            Thread.sleep(50);
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }
}
