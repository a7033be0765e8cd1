package dev.domino.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exported packages ({@code dev.domino.runtime}, {@code dev.domino.runtime.diagnostics}) show
 * only exported types: no public or protected member, supertype or record component of an exported
 * type names a type of {@code dev.domino.runtime.internal} (which a server embedding the runtime
 * cannot even name; javac's {@code -Xlint:exports} check, as a test). And every exported type says
 * in its javadoc whether it is thread-safe.
 */
class PublicApiTest {
    private static final List<String> EXPORTED = List.of("dev.domino.runtime", "dev.domino.runtime.diagnostics");
    private static final Path SOURCES = Path.of("src", "main", "java");

    @Test void exportedTypesShowNoInternalType() throws Exception {
        Set<String> leaks = new TreeSet<>();
        for (Class<?> c : exportedTypes()) {
            List<Type> shown = new ArrayList<>();
            if (c.getGenericSuperclass() != null) shown.add(c.getGenericSuperclass());
            shown.addAll(List.of(c.getGenericInterfaces()));
            for (Field f : c.getDeclaredFields()) if (visible(f.getModifiers())) shown.add(f.getGenericType());
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (!visible(k.getModifiers())) continue;
                shown.addAll(List.of(k.getGenericParameterTypes()));
                shown.addAll(List.of(k.getGenericExceptionTypes()));
            }
            for (Method m : c.getDeclaredMethods()) {
                if (!visible(m.getModifiers()) || m.isSynthetic()) continue;
                shown.add(m.getGenericReturnType());
                shown.addAll(List.of(m.getGenericParameterTypes()));
                shown.addAll(List.of(m.getGenericExceptionTypes()));
            }
            for (Type t : shown) {
                for (Class<?> named : named(t)) {
                    if (!exportedOrJdk(named)) leaks.add(c.getName() + " shows " + named.getName());
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    @Test void exportedTypesSayWhetherTheyAreThreadSafe() throws Exception {
        Set<String> silent = new TreeSet<>();
        for (Class<?> c : exportedTypes()) {
            if (c.getEnclosingClass() != null) continue; // nested types: their outer type's javadoc speaks for them
            String source = Files.readString(SOURCES.resolve(c.getName().replace('.', '/') + ".java"));
            int decl = source.indexOf("public ");
            int doc = source.lastIndexOf("/**", decl);
            String javadoc = doc < 0 ? "" : source.substring(doc, source.indexOf("*/", doc));
            if (!javadoc.toLowerCase(java.util.Locale.ROOT).contains("thread")) silent.add(c.getName());
        }
        assertThat(silent).isEmpty();
    }

    @Test void internalsAreNotPublicOnTheApiClasses() throws Exception {
        // the accessors that used to be public on the API classes (now behind RuntimeAccess)
        for (String name : List.of("parser", "grammar", "terminal", "terminalCount", "terminalsArray", "treesArray", "treeOfStateArray",
                "followArray", "isStored", "treeOfState", "tree", "stateOffset", "stateTerminal", "stateLocal", "canonicalState")) {
            for (Method m : Artifact.class.getDeclaredMethods()) {
                if (m.getName().equals(name)) assertThat(Modifier.isPublic(m.getModifiers())).as("Artifact." + name).isFalse();
            }
        }
        for (Field f : Artifact.class.getDeclaredFields()) assertThat(Modifier.isPublic(f.getModifiers())).as("Artifact." + f.getName()).isFalse();
        for (Field f : Vocabulary.class.getDeclaredFields()) assertThat(Modifier.isPublic(f.getModifiers())).as("Vocabulary." + f.getName()).isFalse();
        for (String name : List.of("configurations", "currentConfigurations", "collectParserStates", "liveConfigurations", "advance",
                "successors")) {
            for (Method m : Matcher.class.getDeclaredMethods()) {
                if (m.getName().equals(name)) assertThat(Modifier.isPublic(m.getModifiers())).as("Matcher." + name).isFalse();
            }
        }
    }

    @Test void artifactsAreLoadedAndSavedThroughTheApi() throws Exception {
        // the one way in and out of an artifact file: no caller needs the internal ArtifactFormat
        assertThat(Modifier.isPublic(Artifact.class.getMethod("load", Path.class).getModifiers())).isTrue();
        assertThat(Modifier.isPublic(Artifact.class.getMethod("load", java.io.InputStream.class).getModifiers())).isTrue();
        assertThat(Modifier.isPublic(Artifact.class.getMethod("save", Path.class).getModifiers())).isTrue();
        assertThat(Modifier.isPublic(Artifact.class.getMethod("write", java.io.OutputStream.class).getModifiers())).isTrue();
    }

    /** Counters live per matcher or per artifact: no exported type holds a public mutable static field. */
    @Test void exportedTypesHoldNoMutableStaticField() throws Exception {
        Set<String> mutable = new TreeSet<>();
        for (Class<?> c : exportedTypes()) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) && visible(m) && !Modifier.isFinal(m)) mutable.add(c.getName() + "." + f.getName());
            }
        }
        assertThat(mutable).isEmpty();
    }

    /** Diagnostics read the API classes, never the other way: no cycle Artifact -> MatcherStats -> Matcher. */
    @Test void apiAndInternalsDoNotNameDiagnostics() throws Exception {
        Set<String> naming = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES.resolve("dev/domino/runtime"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!f.toString().endsWith(".java") || f.startsWith(SOURCES.resolve("dev/domino/runtime/diagnostics"))) continue;
                for (String line : Files.readAllLines(f)) {
                    if (line.startsWith("import ") && line.contains("dev.domino.runtime.diagnostics")) naming.add(f.getFileName() + ": " + line);
                }
            }
        }
        assertThat(naming).isEmpty();
    }

    /** The token budget's API on Matcher: four methods of ints and booleans, nothing else (TokenBudget is package-private). */
    @Test void tokenBudgetApi() throws Exception {
        assertThat(Matcher.class.getMethod("setTokenBudget", int.class).getReturnType()).isEqualTo(boolean.class);
        assertThat(Matcher.class.getMethod("tokenBudget").getReturnType()).isEqualTo(int.class);
        assertThat(Matcher.class.getMethod("shortestCompletion").getReturnType()).isEqualTo(int.class);
        assertThat(Matcher.class.getMethod("budgetRestrictions").getReturnType()).isEqualTo(int.class);
        assertThat(Modifier.isPublic(TokenBudget.class.getModifiers())).isFalse();
    }

    private static boolean visible(int modifiers) { return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers); }

    private static boolean exportedOrJdk(Class<?> c) {
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return true;
        String pkg = c.getPackageName();
        return pkg.startsWith("java.") || pkg.startsWith("javax.") || EXPORTED.contains(pkg);
    }

    /** The classes a type names (type arguments, bounds and array components included). */
    private static List<Class<?>> named(Type t) {
        List<Class<?>> out = new ArrayList<>();
        if (t instanceof Class<?> c) out.add(c);
        else if (t instanceof ParameterizedType p) {
            out.addAll(named(p.getRawType()));
            for (Type a : p.getActualTypeArguments()) out.addAll(named(a));
        } else if (t instanceof GenericArrayType g) out.addAll(named(g.getGenericComponentType()));
        else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) out.addAll(named(b));
            for (Type b : w.getLowerBounds()) out.addAll(named(b));
        } else if (t instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) out.addAll(named(b));
        }
        return out;
    }

    /** Public types (top-level and nested in public types) of the exported packages, from the compiled classes. */
    private static List<Class<?>> exportedTypes() throws IOException, ClassNotFoundException {
        Path classes;
        try {
            classes = Path.of(Artifact.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : EXPORTED) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String file = f.getFileName().toString();
                    if (!file.endsWith(".class") || file.equals("package-info.class")) continue;
                    Class<?> c = Class.forName(pkg + "." + file.substring(0, file.length() - ".class".length()), false,
                            PublicApiTest.class.getClassLoader());
                    if (isPublicApi(c)) out.add(c);
                }
            }
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    private static boolean isPublicApi(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) return false;
        }
        return true;
    }
}
