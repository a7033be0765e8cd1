package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official JSON-Schema-Test-Suite (a pinned copy under {@code src/test/resources/json-schema-test-suite},
 * see its README) through the whole pipeline: each case's schema compiled to an artifact (a tiny vocabulary,
 * lazy trees: acceptance needs no masks), each instance accepted iff the matcher accepts its bytes and ends
 * accepting. A valid instance must be accepted and an invalid one rejected; a schema the compiler refuses
 * (one-line error) counts as neither, except the error that no instance satisfies the schema (its language is
 * empty: {@code false}, {@code not: {}}), which rejects every instance. Drafts without {@code $schema} in their cases are compiled in their own
 * dialect ({@link JsonSchemaOptions#withDefaultDialect}), the suite's {@code remotes/} in the schema registry, the
 * required tests with {@code format} an annotation and {@code optional/format} with it asserted.
 *
 * <p>Hard rule: no invalid instance accepted, in the required tests and in {@code optional/format} (every
 * format the compiler enforces is asserted). Ratchet: the cases listed in {@code json-schema-test-suite-passing.txt}
 * must stay right; {@code -Ddomino.suiteRatchet=write} rewrites the list after an improvement. The per-draft
 * totals are printed; every case not right is written to {@code target/json-schema-test-suite.txt}.
 */
class JsonSchemaTestSuiteTest {
    static final Path SUITE = Path.of("src", "test", "resources", "json-schema-test-suite", "tests");
    static final Path RATCHET = Path.of("src", "test", "resources", "json-schema-test-suite-passing.txt");
    static final ObjectMapper M = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    /** Folders of the suite and the dialect of their schemas. */
    static final Map<String, JsonSchemaOptions.Dialect> DRAFTS = new java.util.LinkedHashMap<>();
    static {
        DRAFTS.put("draft2020-12", JsonSchemaOptions.Dialect.DRAFT_2020_12);
        DRAFTS.put("draft2019-09", JsonSchemaOptions.Dialect.DRAFT_2019_09);
        DRAFTS.put("draft7", JsonSchemaOptions.Dialect.DRAFT_07);
        DRAFTS.put("draft6", JsonSchemaOptions.Dialect.DRAFT_06);
        DRAFTS.put("draft4", JsonSchemaOptions.Dialect.DRAFT_04);
    }

    static Vocabulary vocab;
    /** The suite's {@code remotes/} folder, served at http://localhost:1234/ as the suite's README prescribes. */
    static SchemaRegistry remotes;

    @BeforeAll static void load() throws URISyntaxException {
        remotes = SchemaRegistry.builder().addDirectory(SUITE.resolveSibling("remotes"), "http://localhost:1234/").build();
        Path tiny = Path.of(JsonSchemaTestSuiteTest.class.getResource("/vocab/tiny-bytelevel-tokenizer.json").toURI());
        vocab = VocabularyLoader.load(tiny.toString(), null).vocabulary();
    }

    /** Counts of one part of the suite. */
    static final class Tally {
        int validAccepted, validRejected, invalidRejected, invalidAccepted, refusedValid, refusedInvalid;

        int right() { return validAccepted + invalidRejected; }
        int total() { return validAccepted + validRejected + invalidRejected + invalidAccepted + refusedValid + refusedInvalid; }

        @Override public String toString() {
            return String.format("%d of %d right (valid accepted %d, invalid rejected %d; valid rejected %d, invalid accepted %d; refused schemas' cases %d)",
                right(), total(), validAccepted, invalidRejected, validRejected, invalidAccepted, refusedValid + refusedInvalid);
        }
    }

    /** One file's cases through the pipeline; right cases go to {@code passing}, the others to {@code wrong}. */
    static void runFile(Path file, String id, JsonSchemaOptions options, Tally tally, Set<String> passing, List<String> wrong,
                        List<String> invalidAccepted) throws IOException {
        JsonNode groups = M.readTree(file.toFile());
        for (JsonNode group : groups) {
            String groupId = id + "\t" + group.get("description").asText();
            Artifact artifact = null;
            String refusal = null;
            try {
                var grammar = JsonSchemaGrammar.from(group.get("schema"), options).grammar();
                artifact = GrammarCompiler.compile(grammar, vocab, "suite", "json-schema", group.get("schema").toString(),
                    CompileOptions.defaults().withLazy(true).withThreads(1));
            } catch (GrammarException e) {
                refusal = e.getMessage();
            }
            // the compiler proved that no instance exists (false, not {}, an empty enum): every instance is rejected
            boolean empty = refusal != null && refusal.contains(EMPTY_LANGUAGE);
            for (JsonNode test : group.get("tests")) {
                String caseId = groupId + "\t" + test.get("description").asText();
                boolean valid = test.get("valid").asBoolean();
                if (artifact == null && !empty) {
                    if (valid) tally.refusedValid++; else tally.refusedInvalid++;
                    wrong.add("refused\t" + caseId + "\t" + refusal);
                    continue;
                }
                boolean accepted = !empty && accepts(artifact, M.writeValueAsString(test.get("data")));
                if (valid && accepted) tally.validAccepted++;
                else if (valid) tally.validRejected++;
                else if (accepted) tally.invalidAccepted++;
                else tally.invalidRejected++;
                if (valid == accepted) passing.add(caseId);
                else {
                    wrong.add((valid ? "valid rejected\t" : "invalid accepted\t") + caseId + "\t" + test.get("data"));
                    if (!valid) invalidAccepted.add(caseId + "\t" + test.get("data"));
                }
            }
        }
    }

    /** Start of the compile error of a schema no instance satisfies. */
    static final String EMPTY_LANGUAGE = "the grammar's language is empty";

    static boolean accepts(Artifact artifact, String json) {
        Matcher m = artifact.newMatcher();
        return m.acceptBytes(json.getBytes(StandardCharsets.UTF_8)) && m.isAccepting();
    }

    static List<Path> jsonFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    @Test void suite() throws IOException {
        Set<String> passing = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        List<String> invalidAccepted = new ArrayList<>();
        Map<String, Tally> tallies = new TreeMap<>();
        for (Map.Entry<String, JsonSchemaOptions.Dialect> draft : DRAFTS.entrySet()) {
            JsonSchemaOptions options = JsonSchemaOptions.defaults().withDefaultDialect(draft.getValue()).withSchemaRegistry(remotes);
            Tally required = new Tally(), formats = new Tally();
            // the required tests as the suite expects of a validator's default: format an annotation
            // (its format.json says so); the optional/format tests assert it
            JsonSchemaOptions annotated = options.withFormatMode(JsonSchemaOptions.FormatMode.ANNOTATION);
            for (Path f : jsonFiles(SUITE.resolve(draft.getKey()))) {
                runFile(f, draft.getKey() + "/" + f.getFileName(), annotated, required, passing, wrong, invalidAccepted);
            }
            for (Path f : jsonFiles(SUITE.resolve(draft.getKey()).resolve("optional").resolve("format"))) {
                runFile(f, draft.getKey() + "/optional/format/" + f.getFileName(), options, formats, passing, wrong, invalidAccepted);
            }
            tallies.put(draft.getKey() + " required", required);
            tallies.put(draft.getKey() + " optional/format", formats);
            System.out.println("JSON-Schema-Test-Suite " + draft.getKey() + " required: " + required);
            System.out.println("JSON-Schema-Test-Suite " + draft.getKey() + " optional/format: " + formats);
        }
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "json-schema-test-suite.txt"), wrong);
        if ("write".equals(System.getProperty("domino.suiteRatchet"))) Files.write(RATCHET, passing);
        List<String> regressed = new ArrayList<>();
        if (Files.exists(RATCHET)) {
            for (String c : Files.readAllLines(RATCHET)) if (!c.isBlank() && !passing.contains(c)) regressed.add(c);
        }
        assertThat(invalidAccepted).as("invalid instances accepted").isEmpty();
        assertThat(regressed).as("cases of the ratchet (" + RATCHET + ") no longer right").isEmpty();
    }
}
