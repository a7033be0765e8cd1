package dev.domino.bench;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

/**
 * Masks of a grammar with a lexeme limited in tokens (Lark {@code max_tokens=N}) as a prefix of forced
 * words nears the limit, in CPU time of the masking thread (the shared machines' wall time counts
 * other processes). Two figures per position:
 * <ul>
 *   <li><b>first</b>: on a fresh load of the artifact, after the JIT warmed up on earlier loads: what a
 *   configuration met for the first time costs (its walks are kept per artifact);</li>
 *   <li><b>kept</b>: the same prefix replayed on one artifact: the mean once every result is kept.</li>
 * </ul>
 * Each word is forced with {@code acceptString}, which counts as one token; '_' stands for a space.
 *
 * <pre>mvn -q -o -Pjmh -pl bench compile
 * java -cp cli/target/domino.jar:bench/target/classes dev.domino.bench.LexemeLimitMasks ARTIFACT WORD,WORD,... [LOADS] [REPLAYS]</pre>
 */
public final class LexemeLimitMasks {
    private LexemeLimitMasks() {}

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Path artifact = Path.of(args[0]);
        String[] words = args[1].split(",");
        int loads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int replays = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        for (int load = 0; load < loads; load++) {
            double[] us = masks(Artifact.load(artifact).newMatcher(), words);
            if (load >= loads - 3) System.out.println("first, load " + (load + 1) + ":" + row(us));
        }
        Artifact kept = Artifact.load(artifact);
        double[] sum = new double[words.length + 1];
        for (int r = 0; r < replays; r++) {
            double[] us = masks(kept.newMatcher(), words);
            if (r >= replays / 2) for (int i = 0; i < us.length; i++) sum[i] += us[i];
        }
        for (int i = 0; i < sum.length; i++) sum[i] /= replays - replays / 2;
        System.out.println("kept, mean of the last " + (replays - replays / 2) + " replays:" + row(sum));
    }

    /** CPU microseconds of the mask before each word and after the last. */
    private static double[] masks(Matcher m, String[] words) {
        int[] mask = new int[m.bitmaskInts()];
        double[] us = new double[words.length + 1];
        for (int i = 0; i <= words.length; i++) {
            long c0 = CPU.getCurrentThreadCpuTime();
            m.fillNextTokenBitmask(mask, 0);
            us[i] = (CPU.getCurrentThreadCpuTime() - c0) / 1e3;
            if (i < words.length && !m.acceptString(words[i].replace('_', ' '))) throw new IllegalArgumentException("refused: " + words[i]);
        }
        return us;
    }

    private static String row(double[] us) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < us.length; i++) sb.append(String.format(" %d tokens %.1f us;", i, us[i]));
        return sb.toString();
    }
}
