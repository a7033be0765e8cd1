package dev.domino.compiler;

/**
 * Scale of the randomized tests: the default run checks fewer, sharper cases so that {@code mvn verify}
 * stays fast; {@code -Ddomino.test.long=true} runs the long version (more outputs, every token).
 */
final class LongTests {
    static final boolean LONG = Boolean.getBoolean("domino.test.long");

    private LongTests() {}

    /** {@code normal} in the default run, {@code long_} with {@code -Ddomino.test.long=true}. */
    static int scale(int normal, int long_) { return LONG ? long_ : normal; }
}
