package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.diagnostics.ArtifactDiagnostics;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.diagnostics.ArtifactStats;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.Vocabulary;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@Command(name = "artifact", mixinStandardHelpOptions = true,
        description = "Format version, grammar source, vocabulary, terminals, trees, bytes by section, compile options.")
final class InspectArtifactCommand extends InspectSubcommand {
    @Override int execute() throws Exception {
        long t0 = System.nanoTime();
        Artifact a = load();
        ArtifactInternals ai = RuntimeAccess.of(a);
        double loadMs = (System.nanoTime() - t0) / 1e6;
        long fileBytes = Files.size(artifactPath);
        ArtifactInfo info = a.info();
        Vocabulary v = a.vocabulary();
        ArtifactStats s = ArtifactStats.of(a);
        Map<String, Long> sections = ArtifactDiagnostics.sectionSizes(a);
        PrintWriter w = out();
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("artifact", artifactPath.toString());
            o.put("format_version", ArtifactDiagnostics.formatVersion());
            o.put("file_bytes", fileBytes);
            o.put("load_ms", Math.round(loadMs * 10) / 10.0);
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("name", info.sourceName());
            g.put("format", info.sourceFormat());
            g.put("sha256", info.sourceSha256());
            o.put("grammar", g);
            Map<String, Object> voc = new LinkedHashMap<>();
            voc.put("name", v.name());
            voc.put("fingerprint", v.fingerprint());
            voc.put("size", v.size());
            voc.put("special", v.specialIds().cardinality());
            voc.put("eos", v.eosIds());
            o.put("vocabulary", voc);
            List<Object> terms = new ArrayList<>();
            for (int t = 0; t < ai.terminalCount(); t++) terms.add(terminalJson(a, t));
            o.put("terminals", terms);
            o.put("scanner_states", s.scannerStates());
            o.put("productions", s.productions());
            o.put("nonterminals", ai.grammar().nonterminalCount());
            o.put("trees", s.trees());
            o.put("tree_nodes", s.treeNodes());
            o.put("token_entries", s.tokenEntries());
            o.put("token_sets", s.tokenSets());
            o.put("dynamic_tokens", s.dynamicTokens());
            o.put("dynamic_cap", info.dynamicCap());
            o.put("bytes_by_section", sections);
            o.put("options", info.options());
            o.put("ignored_keywords", info.ignoredKeywords());
            w.println(Json.write(o));
            return 0;
        }
        w.printf("artifact        %s (%,d bytes, format version %d, loaded in %.1f ms)%n", artifactPath, fileBytes,
                ArtifactDiagnostics.formatVersion(), loadMs);
        w.printf("grammar         %s (%s), sha256 %s%n", info.sourceName(), info.sourceFormat(), info.sourceSha256());
        w.printf("vocabulary      %s: %,d tokens (%d special), fingerprint %s%n", v.name(), v.size(),
                v.specialIds().cardinality(), v.fingerprint());
        w.printf("EOS             %s%n", eosText(v));
        w.printf("terminals       %d%n", ai.terminalCount());
        for (int t = 0; t < ai.terminalCount(); t++) {
            Terminal term = ai.terminal(t);
            w.printf("  %3d  %-16s %4d states%s  %s%n", t, term.name(), term.dfa().stateCount(),
                    term.ignored() ? " (ignored)" : "", term.description());
        }
        w.printf("scanner states  %d (between + automaton states)%n", s.scannerStates());
        w.printf("parser          %d productions over %d nonterminals%n", s.productions(), ai.grammar().nonterminalCount());
        w.printf("trees           %d distinct, %,d nodes%n", s.trees(), s.treeNodes());
        w.printf("token entries   %,d in %d distinct sets%n", s.tokenEntries(), s.tokenSets());
        w.printf("dynamic tokens  %,d (cap %d traversals per token)%n", s.dynamicTokens(), info.dynamicCap());
        w.println("bytes by section");
        for (Map.Entry<String, Long> e : sections.entrySet()) {
            w.printf("  %-14s %,12d  %5.1f%%%n", e.getKey(), e.getValue(), 100.0 * e.getValue() / Math.max(1, fileBytes));
        }
        w.println("compile options " + (info.options().isEmpty() ? "(defaults)" : ""));
        new java.util.TreeMap<>(info.options()).forEach((k, val) -> w.printf("  %s = %s%n", k, val));
        w.println("ignored keywords " + (info.ignoredKeywords().isEmpty() ? "none" : String.join(", ", info.ignoredKeywords())));
        return 0;
    }

    private static String eosText(Vocabulary v) {
        List<String> parts = new ArrayList<>();
        for (int id : v.eosIds()) parts.add(String.valueOf(id));
        return parts.isEmpty() ? "none (EOS never allowed)" : String.join(", ", parts);
    }
}
