import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Time to first mask of per-request schemas through ConstraintCache, as a server sees it: the cache's
 * defaults (1 s prebuilt, no background threads) against serving mode (backgroundTreeThreads(1)).
 * CPU = the compile's ({@link ConstraintCache.Stats#compileCpuNanos}) + the request thread's (request parse,
 * first mask), as {@code bench maskbench --profile} counts the mask thread; the background thread is not counted.
 * One fresh cache per schema and mode (closed after the first mask: its build stops); modes alternate.
 *
 * <pre>java -Xmx4g -cp cli/target/domino.jar bench/CacheTtfm.java VOCAB.json LIST.txt [WARMUP]</pre>
 */
public class CacheTtfm {
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Vocabulary vocab = VocabularyLoader.load(args[0], null).vocabulary();
        List<String> files = Files.readAllLines(Path.of(args[1])).stream().filter(s -> !s.isBlank()).toList();
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        ObjectMapper json = new ObjectMapper();
        List<List<Double>> cpu = List.of(new ArrayList<>(), new ArrayList<>()), wall = List.of(new ArrayList<>(), new ArrayList<>());
        int errors = 0;
        for (int i = -warmup; i < files.size(); i++) {
            String file = files.get(Math.floorMod(i, files.size()));
            JsonNode schema = json.readTree(Path.of(file).toFile()).get("schema");
            String request = "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"s\", \"schema\": " + json.writeValueAsString(schema) + "}}}";
            double[][] r = new double[2][];
            for (int k = 0; k < 2; k++) {
                int mode = (i + k) % 2 == 0 ? 0 : 1; // alternate which mode goes first
                r[mode] = ttfm(request, vocab, mode == 1);
            }
            if (i < 0) continue;
            if (r[0] == null || r[1] == null) { errors++; continue; }
            for (int m = 0; m < 2; m++) { cpu.get(m).add(r[m][0]); wall.get(m).add(r[m][1]); }
            System.out.printf("{\"file\": \"%s\", \"defaults_cpu_ms\": %.2f, \"serving_cpu_ms\": %.2f, \"defaults_wall_ms\": %.2f, \"serving_wall_ms\": %.2f}%n",
                    file, r[0][0], r[1][0], r[0][1], r[1][1]);
        }
        String[] names = {"defaults (prebuild 1000 ms, 0 background threads)", "serving (prebuild 0 ms, 1 background thread)"};
        for (int m = 0; m < 2; m++) {
            System.out.printf("%s: %d schemas, TTFM CPU ms p50 %.1f p90 %.1f p99 %.1f; wall ms p50 %.1f p90 %.1f%n", names[m], cpu.get(m).size(),
                    pct(cpu.get(m), 50), pct(cpu.get(m), 90), pct(cpu.get(m), 99), pct(wall.get(m), 50), pct(wall.get(m), 90));
        }
        System.out.println("errors (compile refused in both modes' options): " + errors);
    }

    /** {CPU ms, wall ms} from the request to its first mask, or null if the schema does not compile. */
    static double[] ttfm(String request, Vocabulary vocab, boolean serving) {
        ConstraintCache.Builder b = ConstraintCache.builder().compileThreads(1);
        if (serving) b.backgroundTreeThreads(1);
        try (ConstraintCache cache = b.build()) {
            long cpu0 = CPU.getCurrentThreadCpuTime(), t0 = System.nanoTime();
            Matcher m;
            try {
                m = dev.domino.constraints.Constraints.newMatcher(cache.artifact(request, vocab), vocab);
            } catch (ConstraintException e) {
                return null;
            }
            int[] bits = new int[(vocab.size() + 31) >>> 5];
            m.fillNextTokenBitmask(bits, 0);
            long wall = System.nanoTime() - t0, cpu = CPU.getCurrentThreadCpuTime() - cpu0;
            while (cache.stats().running() > 0) Thread.onSpinWait(); // the compile thread adds its CPU time just after the result
            cpu += cache.stats().compileCpuNanos();
            return new double[] {cpu / 1e6, wall / 1e6};
        }
    }

    static double pct(List<Double> xs, double p) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.isEmpty() ? Double.NaN : s.get(Math.min(s.size() - 1, Math.max(0, (int) Math.round(p / 100 * s.size() + 0.5) - 1)));
    }
}
