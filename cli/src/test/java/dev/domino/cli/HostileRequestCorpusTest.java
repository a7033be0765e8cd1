package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Issue 37 item 8: the hostile-request corpus ({@code hostile-requests.jsonl}: malformed and
 * adversarial requests, each with its expected one-line error, or outputs its masks must accept and
 * refuse) through both {@code domino compile --spec} and {@link ConstraintCache}.
 */
class HostileRequestCorpusTest {
    record Case(String name, String request, String error, List<String> accept, List<String> reject) {}

    static Tokenizer tok;
    static List<Case> corpus;

    @BeforeAll static void load() throws Exception {
        tok = VocabularyLoader.load("o200k_base", null);
        corpus = new ArrayList<>();
        try (InputStream in = HostileRequestCorpusTest.class.getResourceAsStream("/hostile-requests.jsonl")) {
            ObjectMapper m = new ObjectMapper();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) continue;
                JsonNode n = m.readTree(line);
                corpus.add(new Case(n.get("name").asText(), n.get("request").asText(), n.path("error").asText(null),
                        strings(n.get("accept")), strings(n.get("reject"))));
            }
        }
        assertThat(corpus).hasSizeGreaterThan(40);
    }

    static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        if (a != null) for (JsonNode s : a) out.add(s.asText());
        return out;
    }

    /** True when every token of the output is in its mask and the output may end there. */
    static boolean accepts(Artifact a, String output) {
        Matcher m = a.newMatcher();
        for (int t : tok.encode(output)) {
            if (!m.nextTokenMask().get(t)) return false;
            assertThat(m.consumeToken(t)).isTrue();
        }
        return m.isAccepting();
    }

    static void checkMasks(Case c, Artifact a, String path) {
        for (String ok : c.accept()) assertThat(accepts(a, ok)).as("%s (%s) accepts %s", c.name(), path, ok).isTrue();
        for (String bad : c.reject()) assertThat(accepts(a, bad)).as("%s (%s) refuses %s", c.name(), path, bad).isFalse();
    }

    static void checkMessage(Case c, String message, String path) {
        assertThat(message).as("%s (%s)", c.name(), path).contains(c.error()).doesNotContain("\n").doesNotContain("[Source")
                .doesNotContain("com.fasterxml").doesNotContain("Exception");
    }

    @Test void throughConstraintCache() {
        try (ConstraintCache cache = ConstraintCache.builder().options(ConstraintOptions.defaults().withPrebuildMillis(0)).build()) {
            for (Case c : corpus) {
                Artifact a;
                try {
                    a = cache.artifact(c.request(), tok.vocabulary());
                } catch (ConstraintException e) {
                    if (c.error() == null) fail(c.name() + ": refused: " + e.getMessage());
                    checkMessage(c, e.getMessage(), "cache");
                    assertThat(e.reason()).as(c.name()).isIn(ConstraintException.Reason.INVALID_REQUEST, ConstraintException.Reason.COMPILE_ERROR);
                    continue;
                }
                if (c.error() != null) fail(c.name() + ": expected the error '" + c.error() + "', compiled");
                checkMasks(c, a, "cache");
            }
        }
    }

    @Test void throughCompileSpec(@TempDir Path dir) throws Exception {
        int i = 0;
        for (Case c : corpus) {
            Path request = dir.resolve("r" + i + ".json");
            Path artifact = dir.resolve("r" + i++ + ".domino");
            Files.writeString(request, c.request());
            StringWriter out = new StringWriter(), err = new StringWriter();
            int code = Main.run(new String[] {"compile", "--spec", request.toString(), "-o", artifact.toString()},
                    new PrintWriter(out, true), new PrintWriter(err, true));
            if (c.error() != null) {
                assertThat(code).as("%s: %s", c.name(), out).isNotZero();
                String e = err.toString().strip();
                assertThat(e).startsWith("error: ");
                checkMessage(c, e.substring("error: ".length()), "compile --spec");
            } else {
                assertThat(code).as("%s: %s", c.name(), err).isZero();
                checkMasks(c, Artifact.load(artifact), "compile --spec");
            }
        }
    }
}
