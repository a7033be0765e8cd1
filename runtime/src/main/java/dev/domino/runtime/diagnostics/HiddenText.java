package dev.domino.runtime.diagnostics;

import dev.domino.runtime.*;
import dev.domino.runtime.internal.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of an output that llguidance hides from it: the stop text of each lexeme with
 * {@code stop="..."} (its syntax reference, "Lazy lexemes"). The model writes the stop text, as the
 * masks require; llguidance then takes its tokens back, and the text the user sees goes on without it.
 * A caller that cannot take tokens back (most servers) removes these spans from the text it shows:
 * the visible text is then what llguidance's would be.
 *
 * <p>Static methods only; thread-safe (each call works on a fresh matcher of the artifact).
 */
public final class HiddenText {
    private HiddenText() {}

    /** One hidden span: bytes {@code [from, to)} of the output, the stop text of lexeme {@code lexeme}. */
    public record Span(String lexeme, int from, int to) {}

    /**
     * The hidden spans of {@code output} (bytes from the start of the generation), in order; empty
     * when the grammar has no lexeme with {@code stop=}. A lexeme's stop is counted once it is written
     * whole. Where the output can be lexed in several ways, the first lexing found is reported.
     *
     * @throws IllegalArgumentException when the output is not a viable prefix of the grammar's language
     */
    public static List<Span> spans(Artifact artifact, byte[] output) {
        ArtifactInternals a = RuntimeAccess.of(artifact);
        boolean any = false;
        for (int t = 0; t < a.terminalCount() && !any; t++) any = a.terminal(t).hiddenTail() > 0;
        if (!any || output.length == 0) return List.of();
        Matcher fresh = artifact.newMatcher();
        TokenTrace.Result r = TokenTrace.explainBytes(fresh, output);
        if (!r.viable()) throw new IllegalArgumentException("the output is not viable: " + r.reason());
        List<Span> out = new ArrayList<>();
        for (TokenTrace.Segment s : r.traces().get(0)) {
            int hidden = a.terminal(s.terminal()).hiddenTail();
            if (hidden == 0) continue;
            int end = s.kind() == TokenTrace.Kind.FULL || s.kind() == TokenTrace.Kind.END ? -2 : endState(a, s, output);
            boolean whole = end == -2 || end >= 0 && a.terminal(s.terminal()).isAccepting(end);
            if (whole && s.to() - s.from() >= hidden) out.add(new Span(s.name(), s.to() - hidden, s.to()));
        }
        return List.copyOf(out);
    }

    /** The automaton state of a segment's terminal after its bytes (a segment that runs to the end of the output). */
    private static int endState(ArtifactInternals a, TokenTrace.Segment s, byte[] output) {
        var terminal = a.terminal(s.terminal());
        int q = terminal.start();
        for (int i = s.from(); i < s.to() && q >= 0; i++) q = terminal.step(q, output[i] & 0xFF);
        return q;
    }
}
