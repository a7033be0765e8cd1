package dev.domino.cli;

import java.util.function.IntConsumer;

/** A progress counter on stderr, shown only on an interactive terminal (quiet when piped). */
public final class Progress implements IntConsumer {
    private final String label;
    private final boolean enabled;
    private volatile long lastPrint;

    private Progress(String label, boolean enabled) { this.label = label; this.enabled = enabled; }

    public static Progress forTerminal(String label) { return new Progress(label, System.console() != null); }

    @Override public void accept(int done) {
        if (!enabled) return;
        long now = System.nanoTime();
        if (now - lastPrint < 100_000_000L) return;
        lastPrint = now;
        System.err.print("\r" + label + ": " + done + " scanner states");
        System.err.flush();
    }

    /** Schema-count progress (bench). */
    public void schemas(int n, String name) {
        if (!enabled) return;
        long now = System.nanoTime();
        if (now - lastPrint < 100_000_000L) return;
        lastPrint = now;
        String shown = name.length() > 60 ? name.substring(0, 60) : name;
        System.err.print("\r\033[K" + label + ": " + n + " schemas (" + shown + ")");
        System.err.flush();
    }

    public void done() {
        if (enabled && lastPrint != 0) { System.err.print("\r\033[K"); System.err.flush(); }
    }
}
