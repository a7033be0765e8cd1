package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.internal.trees.TokenSets;
import dev.domino.runtime.internal.trees.TokenTree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One state's tree with per-node token counts, rendered three ways. */
final class TreeView {
    final Artifact a;
    final ArtifactInternals ai;
    final int state;
    final TokenTree tree;
    final int maxDepth;
    final int samples;
    final long[] own;      // tokens in the node's groups
    final long[] subtree;  // tokens in the node's subtree
    final int[] below;     // nodes in the subtree (itself included)

    TreeView(Artifact a, int state, int maxDepth, int samples) {
        this.a = a;
        this.ai = RuntimeAccess.of(a);
        this.state = state;
        this.tree = ai.treeOfState(state);
        this.maxDepth = maxDepth;
        this.samples = samples;
        int n = tree.nodeCount();
        own = new long[n];
        subtree = new long[n];
        below = new int[n];
        for (int node = n - 1; node >= 0; node--) { // children have larger ids than their parent
            for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) own[node] += tree.tokenSets().size(tree.groupSet(g));
            subtree[node] = own[node];
            below[node] = 1;
            for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
                subtree[node] += subtree[tree.edgeChild(e)];
                below[node] += below[tree.edgeChild(e)];
            }
        }
    }

    boolean insideTerminal() { return state != ScannerStates.BETWEEN; }

    String edgeKind(int node) { return node == 0 && insideTerminal() ? "end" : "full"; }

    String groupKind(int node) { return node == 0 && insideTerminal() ? "continuation" : "start"; }

    String name(int t) { return ai.terminal(t).name(); }

    /** A group's terminal, or "any of {a | b | ...}" for a terminal class. */
    String groupName(int g) {
        int[] ts = tree.groupTerminals(g);
        if (ts.length == 1) return name(ts[0]);
        StringBuilder sb = new StringBuilder("any of {");
        for (int i = 0; i < ts.length; i++) sb.append(i == 0 ? "" : " | ").append(name(ts[i]));
        return sb.append('}').toString();
    }

    List<String> sample(int set) {
        TokenSets sets = tree.tokenSets();
        List<String> out = new ArrayList<>();
        if (samples == 0) return out;
        int[] ids = sets.toArray(set);
        for (int i = 0; i < ids.length && out.size() < samples; i++) out.add(a.vocabulary().display(ids[i]));
        return out;
    }

    String header() {
        return "tree of scanner state " + state + " (" + ai.stateName(state) + "): tree #" + ai.treeIndexOfState(state) + ", "
                + tree.nodeCount() + " nodes, " + subtree[0] + " tokens" + (tree.dynamicTokenCount() > 0
                ? ", " + tree.dynamicTokenCount() + " dynamic tokens (checked at run time)" : "");
    }

    String text() {
        StringBuilder sb = new StringBuilder(header()).append('\n');
        sb.append("[0] ").append(ai.stateName(state)).append("  (").append(subtree[0]).append(" tokens)\n");
        textNode(sb, 0, 0, "  ");
        if (tree.dynamicTokenCount() > 0) {
            sb.append("dynamic: ");
            int[] d = tree.dynamicTokens();
            for (int i = 0; i < Math.min(samples, d.length); i++) sb.append(InspectSubcommand.quote(a.vocabulary().display(d[i]))).append(' ');
            sb.append('\n');
        }
        return sb.toString();
    }

    private void textNode(StringBuilder sb, int node, int d, String indent) {
        for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
            int set = tree.groupSet(g);
            sb.append(indent).append("tokens in ").append(groupName(g)).append(" [").append(groupKind(node))
                    .append("]: ").append(tree.tokenSets().size(set));
            List<String> s = sample(set);
            if (!s.isEmpty()) {
                sb.append("  e.g. ");
                for (String x : s) sb.append(InspectSubcommand.quote(x)).append(' ');
                if (tree.tokenSets().size(set) > s.size()) sb.append("...");
            }
            sb.append('\n');
        }
        for (int r = tree.firstRoot(node); r < tree.endRoot(node); r++) {
            sb.append(indent).append("root tree of ").append(name(tree.rootTerminal(r)))
                    .append(" [start]: shared, not counted here (see `inspect tree` of that terminal's start)\n");
        }
        for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
            int c = tree.edgeChild(e);
            sb.append(indent).append("edge ").append(name(tree.edgeTerminal(e))).append(" [").append(edgeKind(node))
                    .append("] -> [").append(c).append("]  (").append(subtree[c]).append(" tokens");
            if (d + 1 > maxDepth) {
                sb.append(", ").append(below[c]).append(" nodes below; raise --depth)\n");
                continue;
            }
            sb.append(")\n");
            textNode(sb, c, d + 1, indent + "  ");
        }
    }

    String dot() {
        StringBuilder sb = new StringBuilder("digraph tree {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n");
        sb.append("  label=").append(dq(header())).append(";\n  labelloc=t;\n");
        dotNode(sb, 0, 0);
        sb.append("}\n");
        return sb.toString();
    }

    private void dotNode(StringBuilder sb, int node, int d) {
        String label = (node == 0 ? ai.stateName(state) : "node " + node) + "\n" + subtree[node] + " tokens";
        sb.append("  n").append(node).append(" [shape=ellipse, label=").append(dq(label)).append("];\n");
        for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
            int set = tree.groupSet(g);
            StringBuilder l = new StringBuilder(groupName(g) + " [" + groupKind(node) + "]\n"
                    + tree.tokenSets().size(set) + " tokens");
            List<String> s = sample(set);
            if (!s.isEmpty()) {
                l.append('\n');
                for (String x : s) l.append(InspectSubcommand.quote(x)).append(' ');
            }
            sb.append("  g").append(g).append(" [shape=box, style=filled, fillcolor=\"#eef5ff\", label=").append(dq(l.toString())).append("];\n");
            sb.append("  n").append(node).append(" -> g").append(g).append(" [style=dashed, arrowhead=none];\n");
        }
        for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
            int c = tree.edgeChild(e);
            String el = name(tree.edgeTerminal(e)) + " [" + edgeKind(node) + "]";
            if (d + 1 > maxDepth) {
                sb.append("  n").append(c).append(" [shape=plaintext, label=").append(dq("... " + below[c] + " nodes, " + subtree[c] + " tokens")).append("];\n");
            } else {
                dotNode(sb, c, d + 1);
            }
            sb.append("  n").append(node).append(" -> n").append(c).append(" [label=").append(dq(el)).append("];\n");
        }
    }

    Map<String, Object> json() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("state", state);
        o.put("state_name", ai.stateName(state));
        o.put("tree", ai.treeIndexOfState(state));
        o.put("nodes", tree.nodeCount());
        o.put("tokens", subtree[0]);
        o.put("dynamic_tokens", tree.dynamicTokenCount());
        o.put("root", jsonNode(0, 0));
        return o;
    }

    private Map<String, Object> jsonNode(int node, int d) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("node", node);
        o.put("tokens_here", own[node]);
        o.put("tokens_subtree", subtree[node]);
        List<Object> groups = new ArrayList<>();
        for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("terminal", groupName(g));
            m.put("kind", groupKind(node));
            m.put("tokens", tree.tokenSets().size(tree.groupSet(g)));
            m.put("sample", sample(tree.groupSet(g)));
            groups.add(m);
        }
        o.put("groups", groups);
        List<Object> roots = new ArrayList<>();
        for (int r = tree.firstRoot(node); r < tree.endRoot(node); r++) roots.add(name(tree.rootTerminal(r)));
        o.put("root_trees", roots);
        List<Object> edges = new ArrayList<>();
        for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
            Map<String, Object> m = new LinkedHashMap<>();
            int c = tree.edgeChild(e);
            m.put("terminal", name(tree.edgeTerminal(e)));
            m.put("kind", edgeKind(node));
            if (d + 1 > maxDepth) {
                m.put("child", Map.of("node", c, "tokens_subtree", subtree[c], "nodes_below", below[c], "truncated", true));
            } else {
                m.put("child", jsonNode(c, d + 1));
            }
            edges.add(m);
        }
        o.put("edges", edges);
        return o;
    }

    private static String dq(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
