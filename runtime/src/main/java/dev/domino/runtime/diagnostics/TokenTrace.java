package dev.domino.runtime.diagnostics;

import dev.domino.runtime.*;
import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Explains one token at a matcher's current position, for inspection and debugging: the
 * subterminal sequences its bytes traverse from the live configurations, whether it survives,
 * and, when it does not, which terminal or parser expectation failed at which byte.
 *
 * <p>Bytes are stepped with the matcher's kernel ({@link ByteStep}: byte by byte over the deduplicated
 * configuration set, terminals ending lazily when the next byte arrives), so the verdict is exact; the traces
 * kept per configuration are capped at {@link #MAX_TRACES} (they can be exponentially many in
 * lexically ambiguous grammars). Never changes the matcher.
 *
 * <p>Static methods only; safe on any thread for a matcher that thread owns (matchers are not thread-safe).
 */
public final class TokenTrace {
    public static final int MAX_TRACES = 8;

    /** How a subterminal relates to the token: see the design notes on trees. */
    public enum Kind {
        /** the terminal began before the token and goes on after it */
        CONTINUATION,
        /** the terminal began before the token and ends inside it */
        END,
        /** the terminal begins and ends inside the token */
        FULL,
        /** the terminal begins inside the token and goes on after it */
        START;

        public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** One subterminal: bytes {@code [from, to)} of the token lie in terminal {@code terminal}. */
    public record Segment(int terminal, String name, Kind kind, int from, int to) {
        @Override public String toString() { return name + "[" + kind.label() + "]"; }
    }

    /**
     * @param viable     the token's bytes keep at least one configuration alive
     * @param traces     up to {@link #MAX_TRACES} subterminal sequences of the surviving configurations
     * @param failedAt   byte offset in the token where every configuration died, or -1
     * @param reason     why it died (null when viable)
     * @param liveAfter  configurations alive after the token (0 when not viable)
     */
    public record Result(boolean viable, List<List<Segment>> traces, int failedAt, String reason, int liveAfter) {
        /** True when some surviving trace spans more than one terminal. */
        public boolean bridge() {
            for (List<Segment> t : traces) if (t.size() > 1) return true;
            return false;
        }
    }

    private TokenTrace() {}

    /** Explains token {@code id} at the matcher's current position (EOS and special tokens included). */
    public static Result explainToken(Matcher matcher, int id) {
        Vocabulary v = matcher.artifact().vocabulary();
        if (id < 0 || id >= v.size()) throw new IllegalArgumentException("token id " + id + " outside the vocabulary (size " + v.size() + ")");
        if (matcher.isTerminated()) return new Result(false, List.of(), 0, "the output is already terminated (EOS accepted)", 0);
        if (matcher.isStopToken(id) && matcher.isAccepting()) return new Result(true, List.of(), -1, null, RuntimeAccess.get().configurations(matcher).size());
        if (v.isSpecial(id) || matcher.isStopToken(id)) {
            if (matcher.isAllowed(id)) return new Result(true, List.of(), -1, null, RuntimeAccess.get().configurations(matcher).size()); // a token reference
            return new Result(false, List.of(), 0, matcher.isStopToken(id) ? "EOS is only allowed after a complete sentence"
                    : "special token: never matches grammar text, and no token reference allows it here", 0);
        }
        if (v.bytes(id).length == 0) return new Result(false, List.of(), 0, "token has no bytes", 0);
        return explainBytes(matcher, v.bytes(id));
    }

    /** Explains raw bytes at the matcher's current position. */
    public static Result explainBytes(Matcher matcher, byte[] bytes) {
        ArtifactInternals a = RuntimeAccess.of(matcher.artifact());
        Configurations start = RuntimeAccess.get().configurations(matcher);
        Map<Conf, List<List<Seg>>> cur = new LinkedHashMap<>();
        for (int i = 0; i < start.size(); i++) {
            int q = start.scanStates[i];
            List<Seg> path = q == ScannerStates.BETWEEN ? List.of() : List.of(new Seg(a.stateTerminal(q), 0, -1, true));
            add(cur, new Conf(start.parsers[i], q), path);
        }
        if (cur.isEmpty()) return new Result(false, List.of(), 0, "no live configuration (the output is not viable)", 0);
        ByteStep kernel = new ByteStep(a.scanner(), a.parser());
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xFF;
            Map<Conf, List<List<Seg>>> next = new LinkedHashMap<>();
            for (Map.Entry<Conf, List<List<Seg>>> e : cur.entrySet()) step(kernel, e.getKey(), e.getValue(), b, i, next);
            if (next.isEmpty()) return new Result(false, List.of(), i, reason(a, cur.keySet(), b, i), 0);
            cur = next;
        }
        Set<List<Segment>> traces = new LinkedHashSet<>();
        for (List<List<Seg>> paths : cur.values()) {
            for (List<Seg> p : paths) {
                if (traces.size() >= MAX_TRACES) break;
                traces.add(finish(a, p, bytes.length));
            }
        }
        return new Result(true, List.copyOf(traces), -1, null, cur.size());
    }

    // ------------------------------------------------------------------ stepping

    private record Conf(EarleyState parser, int scanState) {}

    /** A subterminal under construction: {@code to == -1} while open. */
    private record Seg(int terminal, int from, int to, boolean startedBefore) {}

    private static void add(Map<Conf, List<List<Seg>>> map, Conf c, List<Seg> path) {
        List<List<Seg>> paths = map.computeIfAbsent(c, k -> new ArrayList<>());
        if (paths.size() < MAX_TRACES) paths.add(path);
    }

    /** The kernel's successors of c after byte b (at offset i), each with the paths that lead there. */
    private static void step(ByteStep kernel, Conf c, List<List<Seg>> paths, int b, int i, Map<Conf, List<List<Seg>>> out) {
        List<List<Seg>> closed = null; // the paths with the current terminal ended before byte i
        kernel.reset(c.parser, c.scanState, b);
        while (kernel.next()) {
            Conf next = new Conf(kernel.parser(), kernel.state());
            if (kernel.started() < 0) {
                for (List<Seg> p : paths) add(out, next, p);
                continue;
            }
            List<List<Seg>> before = paths;
            if (kernel.crossed()) {
                if (closed == null) {
                    closed = new ArrayList<>();
                    for (List<Seg> p : paths) {
                        List<Seg> q = new ArrayList<>(p);
                        Seg last = q.remove(q.size() - 1);
                        q.add(new Seg(last.terminal, last.from, i, last.startedBefore));
                        closed.add(q);
                    }
                }
                before = closed;
            }
            for (List<Seg> path : before) {
                List<Seg> q = new ArrayList<>(path);
                q.add(new Seg(kernel.started(), i, -1, false));
                add(out, next, q);
            }
        }
    }

    private static List<Segment> finish(ArtifactInternals a, List<Seg> path, int length) {
        List<Segment> out = new ArrayList<>(path.size());
        for (Seg s : path) {
            boolean open = s.to < 0;
            Kind kind = s.startedBefore ? (open ? Kind.CONTINUATION : Kind.END) : (open ? Kind.START : Kind.FULL);
            out.add(new Segment(s.terminal, a.terminal(s.terminal).name(), kind, s.from, open ? length : s.to));
        }
        return List.copyOf(out);
    }

    // ------------------------------------------------------------------ reasons

    private static String reason(ArtifactInternals a, Set<Conf> confs, int b, int i) {
        String byteText = "byte '" + Vocabulary.displayBytes(new byte[] {(byte) b}) + "'";
        Set<String> reasons = new LinkedHashSet<>();
        for (Conf c : confs) {
            if (reasons.size() >= 4) break;
            if (c.scanState == ScannerStates.BETWEEN) {
                reasons.add(noStarter(a, c.parser, byteText));
                continue;
            }
            int t = a.stateTerminal(c.scanState);
            String name = a.terminal(t).name();
            Terminal dfa = a.terminal(t);
            int s = a.stateLocal(c.scanState);
            StringBuilder r = new StringBuilder("inside terminal " + name + " (state " + s + "): " + byteText + " cannot continue it");
            if (!dfa.isAccepting(s)) {
                r.append(", and ").append(name).append(" cannot end here (incomplete)");
            } else {
                EarleyState p2 = a.parser().scan(c.parser, t);
                if (p2 == a.parser().dead) r.append(", and the parser does not accept ").append(name).append(" here");
                else r.append("; after ").append(name).append(" ends, ").append(noStarter(a, p2, byteText));
            }
            reasons.add(r.toString());
        }
        String where = i == 0 ? "at the first byte" : "at byte " + i;
        return where + ": " + String.join("; or ", reasons);
    }

    private static String noStarter(ArtifactInternals a, EarleyState p, String byteText) {
        List<String> expected = expectedNames(a, p);
        if (expected.isEmpty()) return "the parser expects no further terminal (the sentence is complete)";
        return "no terminal the parser expects (expected: " + String.join(", ", expected) + ") can start with " + byteText;
    }

    /** Names of the terminals a parser state can scan next (ignored terminals left out), capped at 12. */
    private static List<String> expectedNames(ArtifactInternals a, EarleyState p) {
        List<String> names = new ArrayList<>();
        for (int t = 0; t < a.terminalCount(); t++) {
            if (p.expects(t) && !a.terminal(t).ignored()) {
                if (names.size() == 12) { names.add("..."); break; }
                names.add(a.terminal(t).name());
            }
        }
        return names;
    }

    /**
     * What any live configuration could do next: continue its current terminal ({@code NAME (continued)}),
     * or, once that terminal ends (or between terminals), start one the parser expects; {@code EOS}
     * when the output may end.
     */
    public static List<String> expectedNames(Matcher m) {
        Set<String> names = new LinkedHashSet<>();
        Configurations c = RuntimeAccess.get().configurations(m);
        ArtifactInternals a = RuntimeAccess.of(m.artifact());
        for (int i = 0; i < c.size(); i++) {
            int q = c.scanStates[i];
            if (q == ScannerStates.BETWEEN) {
                names.addAll(expectedNames(a, c.parsers[i]));
                if (c.parsers[i].isAccepting()) names.add("EOS");
                continue;
            }
            int t = a.stateTerminal(q);
            Terminal dfa = a.terminal(t);
            boolean canContinue = false;
            for (int b = 0; b < 256 && !canContinue; b++) canContinue = dfa.step(a.stateLocal(q), b) >= 0;
            if (canContinue) names.add(a.terminal(t).name() + " (continued)");
            if (dfa.isAccepting(a.stateLocal(q))) {
                EarleyState after = a.parser().scan(c.parsers[i], t);
                if (after != a.parser().dead) {
                    names.addAll(expectedNames(a, after));
                    if (after.isAccepting()) names.add("EOS");
                }
            }
        }
        return List.copyOf(names);
    }
}
