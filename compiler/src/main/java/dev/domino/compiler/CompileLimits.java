package dev.domino.compiler;

import dev.domino.compiler.ir.GrammarException;

import java.util.Locale;

/**
 * The compile budget: one named limit per resource a hostile or oversized grammar could exhaust,
 * checked as the compile goes so that passing one is a one-line error naming the limit and how to
 * raise it, never an OutOfMemoryError, a StackOverflowError or a compile that does not end.
 *
 * <p>The values of one compile are a {@link Values} record, passed in
 * {@link CompileOptions#limits()}: {@link DominoCompiler} (and {@link GrammarSources},
 * {@link GrammarCompiler}) put them in force for the compile's threads, so two compiles of one
 * process may have different limits. No system property is read here; the CLI reads
 * {@code -Ddomino.limit.NAME} and {@code --limit NAME=VALUE} into the record. The defaults leave
 * every grammar of the library, llama.cpp's grammars and the MaskBench schemas well inside (largest
 * MaskBench schema: about 0.2 MB of text).
 */
public enum CompileLimits {
    /** Bytes of grammar or schema text. */
    SOURCE_BYTES("source-bytes", 4L << 20, "bytes of grammar text"),
    /** Parentheses, brackets or groups open at once in grammar text (GBNF, Lark, regex). */
    NESTING_DEPTH("nesting-depth", 1000, "nested groups"),
    /** The largest count of a bounded repeat {@code {m,n}} or a length bound. */
    REPEAT_COUNT("repeat-count", 1_000_000, "repeat count"),
    /**
     * States of all terminals' byte automata together. Automata are byte ranges per state (a few
     * bytes each; only automata of up to 256 states keep dense 1 KB rows), and each state gets a
     * token tree: a 10,000-value JSON enum is 410,000 states and a 14 MB artifact, a GBNF
     * alternation of 120,000 words 736,000 states and 23 MB.
     */
    AUTOMATON_STATES("automaton-states", 1_000_000, "automaton states of all terminals"),
    /** Wall-clock seconds of one parse or compile step, checked as automata and trees are made. */
    COMPILE_SECONDS("compile-seconds", 300, "seconds of compile time");

    private final String id;
    private final long defaultValue;
    private final String what;

    CompileLimits(String id, long defaultValue, String what) {
        this.id = id;
        this.defaultValue = defaultValue;
        this.what = what;
    }

    public String id() { return id; }
    public long defaultValue() { return defaultValue; }

    /** The limit in force for the current compile ({@link Values#DEFAULTS} outside one). */
    public long value() { return current().get(this); }

    /** Throws {@link LimitExceededException} if {@code amount} is above the limit. */
    public void check(long amount) {
        long limit = value();
        if (amount > limit) throw new LimitExceededException(this, amount, limit, 0, 0);
    }

    /** As {@link #check(long)}, with the grammar position of the offending construct. */
    public void check(long amount, int line, int column) {
        long limit = value();
        if (amount > limit) throw new LimitExceededException(this, amount, limit, line, column);
    }

    /** When the current parse or compile started (inherited by the threads it starts). */
    private static final InheritableThreadLocal<long[]> CLOCK = new InheritableThreadLocal<>();

    /** Starts the {@link #COMPILE_SECONDS} clock for this thread and the threads it starts. */
    static void startClock() { CLOCK.set(new long[] {System.nanoTime()}); }

    /** Throws if the current compile has run longer than {@link #COMPILE_SECONDS}; cheap enough to call per automaton or tree. */
    public static void checkClock() {
        long[] start = CLOCK.get();
        if (start != null) COMPILE_SECONDS.check((System.nanoTime() - start[0]) / 1_000_000_000L);
    }

    /** The limit named {@code id} ({@code nesting-depth}, ...). */
    public static CompileLimits byId(String id) {
        for (CompileLimits l : values()) if (l.id.equals(id.trim().toLowerCase(Locale.ROOT))) return l;
        StringBuilder known = new StringBuilder();
        for (CompileLimits l : values()) known.append(known.length() == 0 ? "" : ", ").append(l.id);
        throw new IllegalArgumentException("unknown limit '" + id + "' (known: " + known + ")");
    }

    /**
     * The limit values of a compile, one per {@link CompileLimits} constant; immutable.
     *
     * @param sourceBytes     bytes of grammar or schema text
     * @param nestingDepth    groups open at once in grammar text
     * @param repeatCount     the largest count of a bounded repeat or a length bound
     * @param automatonStates states of all terminals' byte automata together
     * @param compileSeconds  wall-clock seconds of one parse or compile step
     */
    public record Values(long sourceBytes, long nestingDepth, long repeatCount, long automatonStates, long compileSeconds) {
        public static final Values DEFAULTS = new Values(SOURCE_BYTES.defaultValue, NESTING_DEPTH.defaultValue,
                REPEAT_COUNT.defaultValue, AUTOMATON_STATES.defaultValue, COMPILE_SECONDS.defaultValue);

        public Values {
            for (long v : new long[] {sourceBytes, nestingDepth, repeatCount, automatonStates, compileSeconds}) {
                if (v <= 0) throw new IllegalArgumentException("compile limits must be positive");
            }
        }

        public long get(CompileLimits limit) {
            return switch (limit) {
                case SOURCE_BYTES -> sourceBytes;
                case NESTING_DEPTH -> nestingDepth;
                case REPEAT_COUNT -> repeatCount;
                case AUTOMATON_STATES -> automatonStates;
                case COMPILE_SECONDS -> compileSeconds;
            };
        }

        public Values with(CompileLimits limit, long value) {
            if (value <= 0) throw new IllegalArgumentException("--limit " + limit.id + " must be positive");
            return new Values(limit == SOURCE_BYTES ? value : sourceBytes, limit == NESTING_DEPTH ? value : nestingDepth,
                    limit == REPEAT_COUNT ? value : repeatCount, limit == AUTOMATON_STATES ? value : automatonStates,
                    limit == COMPILE_SECONDS ? value : compileSeconds);
        }

        /** With {@code ID=VALUE} (what {@code --limit ID=VALUE} means), e.g. {@code repeat-count=5000}. */
        public Values with(String idEqualsValue) {
            int eq = idEqualsValue.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("--limit expects NAME=VALUE, got '" + idEqualsValue + "'");
            CompileLimits l = byId(idEqualsValue.substring(0, eq));
            long v;
            try {
                v = Long.parseLong(idEqualsValue.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--limit " + l.id + ": '" + idEqualsValue.substring(eq + 1) + "' is not an integer");
            }
            return with(l, v);
        }
    }

    /** The values in force on this thread and the threads it starts (a compile's workers). */
    private static final InheritableThreadLocal<Values> CURRENT = new InheritableThreadLocal<>();

    static Values current() {
        Values v = CURRENT.get();
        return v != null ? v : Values.DEFAULTS;
    }

    /** Runs {@code work} with {@code values} in force (for its thread and the threads it starts). */
    public static <T> T in(Values values, java.util.function.Supplier<T> work) {
        Values before = CURRENT.get();
        CURRENT.set(values);
        try {
            return work.get();
        } finally {
            if (before == null) CURRENT.remove(); else CURRENT.set(before);
        }
    }

    /** A compile budget passed: a grammar problem (exit code 2) whose message names the limit. */
    public static final class LimitExceededException extends GrammarException {
        private final CompileLimits limit;

        LimitExceededException(CompileLimits limit, long amount, long value, int line, int column) {
            super(limit.what + ": " + amount + " exceeds the limit " + limit.id + "=" + value
                    + " (raise it with --limit " + limit.id + "=N, or CompileOptions.limits())", line, column);
            this.limit = limit;
        }

        public CompileLimits limit() { return limit; }
    }
}
