package dev.domino.compiler;

import dev.domino.runtime.RuntimeCaches;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.util.ProcessCaches;
import dev.domino.runtime.internal.vocab.VocabTrie;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 37 item 3: every process-wide cache of the compiler and the runtime is bounded in bytes and
 * listed by {@link RuntimeCaches}. Enumerates, by reflection, the static fields of every class of
 * both modules that hold a mutable map, collection or {@link BoundedCache}; each must be a cache
 * RuntimeCaches lists (and clears), or one of the few non-cache fields named below with the reason.
 */
class StaticCachesTest {
    /** Static mutable state that is not a cache: field, why. */
    static final Map<String, String> NOT_CACHES = Map.of(
            "dev.domino.runtime.internal.util.ProcessCaches.REGISTERED", "the registry of caches RuntimeCaches reads",
            "dev.domino.runtime.internal.format.VocabularySection.KNOWN", "weak references to live vocabularies, cleared by RuntimeCaches.clear()",
            "dev.domino.runtime.BatchMasks$Mailbox.BY_EXECUTOR", "weak keys: one mailbox per live executor",
            "dev.domino.runtime.internal.format.AtomicFiles.PENDING", "temporary files being written, removed when written",
            "dev.domino.runtime.internal.trees.TerminalWalks.DEFAULT_MAX", "settings: one bound per cache name",
            "dev.domino.runtime.internal.trees.UnitRun.LOOPS", "the loop automata runs are recognized over: the first 8 seen, 64 states at most each",
            "dev.domino.compiler.DeepStack.IDLE", "idle compile threads: at most one per core, each ends after 10 s idle");

    static List<Path> classRoots() throws URISyntaxException {
        return List.of(Path.of(GrammarCompiler.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
                Path.of(RuntimeCaches.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    @Test void everyStaticCacheIsListedByRuntimeCaches() throws Exception {
        List<Object[]> found = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path root : classRoots()) {
            // a classes directory (mvn test) or a jar (mvn verify, where the reactor hands over packaged modules)
            java.nio.file.FileSystem jar = Files.isDirectory(root) ? null : java.nio.file.FileSystems.newFileSystem(root);
            if (jar != null) root = jar.getPath("/");
            List<Path> files;
            try (Stream<Path> s = Files.walk(root)) {
                files = s.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().equals("module-info.class")
                        && !p.toString().contains("META-INF")).toList();
            }
            for (Path f : files) {
                String name = root.relativize(f).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                Class<?> c = Class.forName(name, true, getClass().getClassLoader());
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) continue;
                    boolean cacheType = Map.class.isAssignableFrom(field.getType()) || Collection.class.isAssignableFrom(field.getType())
                            || BoundedCache.class.isAssignableFrom(field.getType());
                    if (!cacheType) continue;
                    field.setAccessible(true);
                    Object v = field.get(null);
                    if (v == null || immutable(v)) continue;
                    checked++;
                    String id = c.getName() + "." + field.getName();
                    if (NOT_CACHES.containsKey(id)) continue;
                    found.add(new Object[] {id, v});
                }
            }
        }
        // after the scan: a compiler cache registers when its class initializes
        Set<String> listed = new java.util.HashSet<>();
        for (RuntimeCaches.CacheInfo c : RuntimeCaches.caches()) listed.add(c.name());
        for (Object[] f : found) {
            if (f[1] instanceof BoundedCache<?, ?> b && listed.contains(b.name())
                    && (b == VocabTrie.CACHE || ProcessCaches.registered().contains(b))) continue;
            missing.add(f[0] + " (" + f[1].getClass().getName() + ")");
        }
        assertThat(checked).isPositive();
        assertThat(missing).as("static caches not listed by RuntimeCaches").isEmpty();
    }

    @Test void compilerCachesAreListedFirstAndCleared() throws Exception {
        Class.forName("dev.domino.compiler.lexer.LanguageCache", true, getClass().getClassLoader());
        List<String> names = RuntimeCaches.caches().stream().map(RuntimeCaches.CacheInfo::name).toList();
        assertThat(names.indexOf("terminal automata")).isNotNegative().isLessThan(names.indexOf("vocabulary tries"));
        RuntimeCaches.CacheInfo automata = RuntimeCaches.caches().get(names.indexOf("terminal automata"));
        assertThat(automata.maxBytes()).isEqualTo(64L << 20);
        RuntimeCaches.setMaxBytes("terminal automata", 1L << 20);
        assertThat(RuntimeCaches.caches().get(names.indexOf("terminal automata")).maxBytes()).isEqualTo(1L << 20);
        RuntimeCaches.setMaxBytes("terminal automata", 64L << 20);
        RuntimeCaches.clear();
        assertThat(RuntimeCaches.caches().get(names.indexOf("terminal automata")).bytes()).isZero();
    }

    static boolean immutable(Object v) {
        String n = v.getClass().getName();
        return n.startsWith("java.util.ImmutableCollections") || n.startsWith("java.util.Collections$Unmodifiable")
                || n.startsWith("java.util.Collections$Empty") || n.startsWith("java.util.Collections$Singleton")
;
    }
}
