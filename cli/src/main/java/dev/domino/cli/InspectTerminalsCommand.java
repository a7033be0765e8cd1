package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.Terminal;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@Command(name = "terminals", mixinStandardHelpOptions = true,
        description = "Every terminal with its regular expression and the scanner states it owns.")
final class InspectTerminalsCommand extends InspectSubcommand {
    @Override int execute() throws Exception {
        Artifact a = load();
        ArtifactInternals ai = RuntimeAccess.of(a);
        PrintWriter w = out();
        if (json) {
            List<Object> list = new ArrayList<>();
            for (int t = 0; t < ai.terminalCount(); t++) {
                Map<String, Object> m = terminalJson(a, t);
                ByteDfa dfa = ai.terminal(t).dfa();
                List<Object> states = new ArrayList<>();
                for (int s = 0; s < dfa.stateCount(); s++) {
                    Map<String, Object> st = new LinkedHashMap<>();
                    int q = ai.stateOffset(t) + s;
                    st.put("id", q);
                    st.put("name", ai.stateName(q));
                    st.put("accepting", dfa.isAccepting(s));
                    st.put("start", s == dfa.start());
                    st.put("tree", ai.treeIndexOfState(q));
                    states.add(st);
                }
                m.put("scanner_states", states);
                list.add(m);
            }
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("between_state", Map.of("id", ScannerStates.BETWEEN, "name", ai.stateName(ScannerStates.BETWEEN), "tree", ai.treeIndexOfState(0)));
            o.put("terminals", list);
            w.println(Json.write(o));
            return 0;
        }
        w.printf("scanner state 0: between (tree %d)%n", ai.treeIndexOfState(0));
        for (int t = 0; t < ai.terminalCount(); t++) {
            Terminal term = ai.terminal(t);
            ByteDfa dfa = term.dfa();
            int first = ai.stateOffset(t);
            w.printf("%n%d  %s%s%n", t, term.name(), term.ignored() ? "  (ignored: allowed between any terminals)" : "");
            w.printf("   regex   %s%n", term.description());
            w.printf("   states  %d..%d (%d automaton states)%n", first, first + dfa.stateCount() - 1, dfa.stateCount());
            for (int s = 0; s < dfa.stateCount(); s++) {
                int q = first + s;
                w.printf("     %4d  %-20s %s%s tree %d%n", q, ai.stateName(q), s == dfa.start() ? "start " : "",
                        dfa.isAccepting(s) ? "accepting" : "", ai.treeIndexOfState(q));
            }
        }
        return 0;
    }
}
