package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The hostile and extreme inputs of issue 20, through the CLI: each ends within its time limit with
 * a correct result or a one-line error and exit code 2 (bad input) or 3 (bad artifact), no stack trace.
 * Grammars compile against a small .tiktoken vocabulary so the cases stay fast.
 */
class ExtremeInputsTest {
    @TempDir Path dir;

    record Run(int code, String out, String err) {}

    Run cli(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Run(code, out.toString(), err.toString());
        }, () -> String.join(" ", args) + ": over 30 s");
    }

    /** A .tiktoken vocabulary of the printable ASCII characters and a few pairs. */
    Path smallVocab() throws IOException {
        List<String> lines = new ArrayList<>();
        int rank = 0;
        for (char c = 32; c < 127; c++) lines.add(b64(String.valueOf(c)) + " " + rank++);
        for (String s : List.of("ab", "xx", "aa", "\"\"", "{}")) lines.add(b64(s) + " " + rank++);
        return write("small.tiktoken", String.join("\n", lines) + "\n");
    }

    static String b64(String s) { return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)); }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    /** Exit code {@code code} and a single "error: ..." line containing {@code fragment}. */
    static void assertOneLineError(Run r, int code, String fragment) {
        assertThat(r.err().strip()).as("stderr").startsWith("error: ").contains(fragment).doesNotContain("\n").doesNotContain("\tat ");
        assertThat(r.code()).as(r.err()).isEqualTo(code);
    }

    Run compile(Path grammar, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("compile", grammar.toString(), "--vocab", smallVocab().toString(),
                "-o", dir.resolve("out.domino").toString()));
        args.addAll(List.of(more));
        return cli(args.toArray(new String[0]));
    }

    // ---------------------------------------------------------------- nesting and recursion

    @Test void tenThousandNestedGroupsAreANestingLimitError() throws IOException {
        String n = "(".repeat(10_000);
        String c = ")".repeat(10_000);
        assertOneLineError(compile(write("deep.gbnf", "root ::= " + n + "\"a\"" + c + "\n")), 2, "nesting-depth=1000");
        assertOneLineError(compile(write("deep.lark", "start: " + n + "\"a\"" + c + "\n")), 2, "nesting-depth=1000");
        assertOneLineError(compile(write("deep.regex", n + "a" + c)), 2, "nesting-depth=1000");
    }

    @Test void aChainOfThreeThousandRulesCompiles() throws IOException {
        String g = "root ::= r0\n" + IntStream.range(0, 3000).mapToObj(i -> "r" + i + " ::= \"a\" r" + (i + 1) + "\n")
                .collect(Collectors.joining()) + "r3000 ::= \"b\"\n";
        Run r = compile(write("chain.gbnf", g));
        assertThat(r.code()).as(r.err()).isZero();
    }

    /**
     * {@code s ::= s s | "a"}: Earley looks at about n² items at byte n. Exact while a step stays within
     * the parser's work limit; past it (near byte 800) the commit fails with the limit's name, exit 2.
     */
    @Test void aHighlyAmbiguousGrammarStopsAtTheParserWorkLimit() throws IOException {
        Run c = compile(write("amb.gbnf", "root ::= root root | \"a\"\n"));
        assertThat(c.code()).as(c.err()).isZero();
        Matcher m = ArtifactFormat.read(dir.resolve("out.domino")).newMatcher();
        assertThat(m.acceptString("a".repeat(200))).isTrue();
        assertThat(m.isAccepting()).isTrue();
        Run r = cli("mask", dir.resolve("out.domino").toString(), "--vocab", smallVocab().toString(), "--prefix", "a".repeat(3000));
        assertOneLineError(r, 2, "-Ddomino.parser.maxStepWork");
        assertThat(r.out()).contains("EOS not allowed");
    }

    // ---------------------------------------------------------------- bounds and sizes

    @Test void hugeRepeatCountsAreALimitError() throws IOException {
        assertOneLineError(compile(write("r.gbnf", "root ::= \"x\"{0,999999999}\n")), 2, "repeat-count=1000000");
        assertOneLineError(compile(write("r2.gbnf", "root ::= \"x\"{0,99999999}\n")), 2, "repeat-count=1000000");
        assertOneLineError(compile(write("s.json", "{\"type\":\"string\",\"minLength\":1000000000}")), 2, "repeat-count");
        assertOneLineError(compile(write("s2.json", "{\"type\":\"string\",\"minLength\":5,\"maxLength\":1000000000}")), 2,
                "repeat-count");
    }

    @Test void aRepeatBoundIsExactAtTheBound() throws IOException {
        Run r = compile(write("r.gbnf", "root ::= \"x\"{0,3000}\n"));
        assertThat(r.code()).as(r.err()).isZero();
        Artifact a = ArtifactFormat.read(dir.resolve("out.domino"));
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("x".repeat(3000))).isTrue();
        assertThat(m.isAccepting()).isTrue();
        assertThat(m.acceptString("x")).isFalse();
    }

    /** Bounds at any size: a billion with the limit raised compiles to O(log n) rules (it ran out of memory). */
    @Test void aBillionCompilesWhenTheLimitIsRaised() throws IOException {
        try {
            for (String text : new String[] {"root ::= \"x\"{0,999999999}\n", "{\"type\":\"string\",\"minLength\":5,\"maxLength\":1000000000}",
                    "{\"type\":\"array\",\"minItems\":1000000000}"}) {
                Run r = compile(write(text.startsWith("{") ? "b.json" : "b.gbnf", text), "--limit", "repeat-count=1000000000");
                assertThat(r.code()).as(text + ": " + r.err()).isZero();
                Matcher m = ArtifactFormat.read(dir.resolve("out.domino")).newMatcher();
                String start = text.startsWith("{\"type\":\"string") ? "\"" : text.startsWith("{") ? "[" : "";
                assertThat(m.acceptString(start)).isTrue();
                assertThat(m.isAccepting()).as(text).isEqualTo(text.startsWith("root"));
            }
        } finally {
            System.clearProperty("domino.limit.repeat-count");
        }
    }

    /** A 10,000-word alternation and a 3,000-value enum: one trie-shaped terminal each, sparse, exact at the words. */
    @Test void largeLiteralSetsAreCompactTerminals() throws IOException {
        List<String> words = IntStream.range(0, 10_000).mapToObj(i -> "w" + Integer.toString(i * 7919 + 13, 36)).collect(Collectors.toList());
        Run r = compile(write("words.gbnf", "root ::= " + words.stream().map(w -> "\"" + w + "\"").collect(Collectors.joining(" | ")) + "\n"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.size(dir.resolve("out.domino"))).as("artifact bytes").isLessThan(4L << 20);
        Artifact a = ArtifactFormat.read(dir.resolve("out.domino"));
        assertThat(dev.domino.runtime.internal.RuntimeAccess.of(a).terminalCount()).isEqualTo(1);
        for (String w : List.of(words.get(0), words.get(4321), words.get(9999))) {
            Matcher m = a.newMatcher();
            assertThat(m.acceptString(w)).as(w).isTrue();
            assertThat(m.isAccepting()).as(w).isTrue();
            assertThat(m.acceptString("-")).isFalse();
        }
        assertThat(a.newMatcher().acceptString("wzzzzzzzz")).isFalse();

        String values = words.subList(0, 3000).stream().map(w -> "\"" + w + "\"").collect(Collectors.joining(","));
        Run e = compile(write("enum.json", "{\"enum\": [" + values + "]}"));
        assertThat(e.code()).as(e.err()).isZero();
        Artifact b = ArtifactFormat.read(dir.resolve("out.domino"));
        assertThat(dev.domino.runtime.internal.RuntimeAccess.of(b).terminalCount()).isLessThan(10);
        Matcher m = b.newMatcher();
        assertThat(m.acceptString("\"" + words.get(2999) + "\"")).isTrue();
        assertThat(m.isAccepting()).isTrue();
        assertThat(b.newMatcher().acceptString("\"" + words.get(3000) + "\"")).isFalse();
    }

    @Test void aSourceOverTheSizeLimitIsRefusedEarly() throws IOException {
        Path big = write("big.gbnf", "root ::= \"" + "a".repeat(5_000_000) + "\"\n");
        assertOneLineError(compile(big), 2, "source-bytes");
    }

    @Test void limitsCanBeRaisedOnTheCommandLine() throws IOException {
        String n = "(".repeat(1500);
        String c = ")".repeat(1500);
        Run r = compile(write("deep.gbnf", "root ::= " + n + "\"a\"" + c + "\n"), "--limit", "nesting-depth=2000");
        assertThat(r.code()).as(r.err()).isZero();
        assertOneLineError(compile(write("x.gbnf", "root ::= \"a\"\n"), "--limit", "no-such-limit=3"), 2, "unknown limit");
    }

    // ---------------------------------------------------------------- vocabularies

    @Test void vocabularyProblemsAreClearErrors() throws IOException {
        Path g = write("ok.gbnf", "root ::= \"ab\"\n");
        Path out = dir.resolve("v.domino");
        String tok = "{\"model\":{\"type\":\"BPE\",\"vocab\":%s,\"merges\":[]},\"added_tokens\":%s,\"pre_tokenizer\":{\"type\":\"ByteLevel\"}}";
        Object[][] cases = {
                {"empty.tiktoken", "", "is empty"},
                {"big.tiktoken", "YQ== 0\nYg== 2000000000\n", "exceeds the largest supported id"},
                {"neg.tiktoken", "YQ== 0\nYg== -5\n", "negative token id -5"},
                {"dup.json", String.format(tok, "{\"a\":0,\"b\":0}", "[]"), "id 0 is also given to"},
                {"clash.json", String.format(tok, "{\"a\":0,\"b\":1}", "[{\"id\":1,\"content\":\"zz\"}]"), "which the model vocabulary gives to"},
                {"emptyv.json", String.format(tok, "{}", "[]"), "has no tokens"},
                {"bigid.json", String.format(tok, "{\"a\":0,\"b\":2000000000}", "[]"), "exceeds the largest supported id"},
                {"negid.json", String.format(tok, "{\"a\":0,\"b\":-5}", "[]"), "negative token id -5"},
        };
        for (Object[] c : cases) {
            Path v = write((String) c[0], (String) c[1]);
            assertOneLineError(cli("compile", g.toString(), "--vocab", v.toString(), "-o", out.toString()), 2, (String) c[2]);
        }
        assertOneLineError(cli("compile", g.toString(), "--vocab", smallVocab().toString(), "--eos", "-5", "-o", out.toString()), 2,
                "EOS id -5");
    }

    // ---------------------------------------------------------------- files

    @Test void invalidUtf8IsAnErrorWithLineAndColumn() throws IOException {
        Path g = dir.resolve("bad.gbnf");
        Files.write(g, new byte[] {'r', 'o', 'o', 't', ' ', ':', ':', '=', ' ', '"', 'a', '"', '\n', '|', ' ', '"', (byte) 0xC3, (byte) 0xA9,
                (byte) 0xFF, '"', '\n'});
        assertOneLineError(compile(g), 2, "line 2, column 5");
    }

    @Test void outputRefusesNonRegularTargetsAndTheInput() throws IOException {
        Path g = write("ok.gbnf", "root ::= \"ab\"\n");
        Path target = write("real.domino", "keep");
        Path link = dir.resolve("link.domino");
        Files.createSymbolicLink(link, target);
        String vocab = smallVocab().toString();
        assertOneLineError(cli("compile", g.toString(), "--vocab", vocab, "-o", link.toString()), 2, "symbolic link");
        assertThat(Files.readString(target)).isEqualTo("keep");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertOneLineError(cli("compile", g.toString(), "--vocab", vocab, "-o", dir.toString()), 2, "not a regular file");
        assertOneLineError(cli("compile", g.toString(), "--vocab", vocab, "-o", g.toString()), 2, "the input file itself");
        assertThat(Files.readString(g)).isEqualTo("root ::= \"ab\"\n");
        if (Files.isDirectory(Path.of("/proc/self"))) { // no file can be made there, even by root: the error names the target
            Run r = cli("compile", g.toString(), "--vocab", vocab, "-o", "/proc/x.domino");
            assertOneLineError(r, 2, "/proc/x.domino: cannot create a file in /proc");
            assertThat(r.err()).doesNotContain(".tmp");
        }
        if (Files.exists(Path.of("/dev/null"))) {
            assertOneLineError(cli("compile", g.toString(), "--vocab", vocab, "-o", "/dev/null"), 2, "not a regular file");
        }
    }

    @Test void aFailedCompileLeavesNoTemporaryFile() throws IOException {
        Path g = write("bad.gbnf", "root ::= (\n");
        assertThat(compile(g).code()).isEqualTo(2);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp"))).isEmpty();
        }
    }

    @Test void artifactsGetTheUmasksMode() throws IOException {
        Path g = write("ok.gbnf", "root ::= \"ab\"\n");
        assertThat(compile(g).code()).isZero();
        Path probe = Files.createFile(dir.resolve("probe")); // what the umask gives a new file
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(Files.getPosixFilePermissions(dir.resolve("out.domino"))).isEqualTo(Files.getPosixFilePermissions(probe));
        }
    }

    // ---------------------------------------------------------------- runtime API

    @Test void loneSurrogatesAndHugeRowsAreRefused() {
        Matcher m = TestArtifacts.artifact().newMatcher();
        assertThatThrownBy(() -> m.acceptString("{\"a\uD800")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("surrogate");
        assertThat(m.committedTokens()).isZero();
        int[] buf = new int[m.bitmaskInts() * 2];
        int hugeRow = (int) ((1L << 32) / m.bitmaskInts()) + 1; // row * ints wraps around to a small positive int
        assertThatThrownBy(() -> m.fillNextTokenBitmask(buf, hugeRow)).isInstanceOf(IllegalArgumentException.class);
        assertThat(buf).containsOnly(0);
    }
}
