package dev.domino.cli.bench;

import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintException;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;

import java.time.Duration;
import java.util.Random;

/**
 * Hostile requests from a seed, for {@code bench fuzz --requests}: a small valid request (every
 * constraint shape: response_format, tools, regex, choice, grammar, structural tags, vLLM and
 * llama.cpp fields) mutated at random, both as text ({@link Fuzz#mutate}) and with edits aimed at the
 * request boundary: duplicate keys, trailing content, lone surrogates, deep nesting, constraint fields
 * with odd values. Each case goes through one shared {@link ConstraintCache}; the only exception it
 * may raise is a {@link ConstraintException} for the request or its grammar (a BAD_INPUT); a compile past
 * the budget is a TIMEOUT, anything else (another exception type, RESOURCES or INTERNAL) a CRASH. A request
 * that compiles has a few masks walked, every allowed token accepted.
 */
final class RequestFuzz {
    private RequestFuzz() {}

    static final String[] REQUESTS = {
            "{\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"p\",\"schema\":{\"type\":\"object\","
                    + "\"properties\":{\"name\":{\"type\":\"string\",\"maxLength\":8},\"age\":{\"type\":\"integer\"}},\"required\":[\"name\"]}}}}",
            "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"tree\",\"parameters\":{\"type\":\"object\",\"properties\":{\"v\":"
                    + "{\"type\":\"integer\"},\"kids\":{\"type\":\"array\",\"items\":{\"$ref\":\"#\"}}},\"required\":[\"v\"]}}}],\"tool_choice\":\"required\"}",
            "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"p\":"
                    + "{\"$ref\":\"#/definitions/P\"}},\"definitions\":{\"P\":{\"enum\":[\"a\",\"b\"]}}}}}],"
                    + "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"f\"}}}",
            "{\"regex\":\"[a-z]+@[a-z]+\\\\.(com|org)\"}",
            "{\"choice\":[\"yes\",\"no\",\"maybe\"]}",
            "{\"grammar\":\"root ::= \\\"a\\\" [0-9]{1,3}\"}",
            "{\"structured_outputs\":{\"json\":{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"maxItems\":3},\"disable_any_whitespace\":true}}",
            "{\"guided_json\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"boolean\"}}},\"disable_additional_properties\":true}",
            "{\"json\":\"{\\\"type\\\":\\\"string\\\",\\\"pattern\\\":\\\"^[a-z]{1,5}$\\\"}\"}",
            "{\"structural_tag\":{\"type\":\"structural_tag\",\"format\":{\"type\":\"triggered_tags\",\"triggers\":[\"<f>\"],"
                    + "\"tags\":[{\"begin\":\"<f>\",\"content\":{\"type\":\"json_schema\",\"json_schema\":{\"type\":\"integer\"}},\"end\":\"</f>\"}]}}}",
            "{\"response_format\":{\"type\":\"json_object\",\"schema\":{\"type\":\"object\",\"properties\":{\"x\":{\"const\":1}}}}}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.5,\"response_format\":{\"type\":\"json_object\"}}",
    };
    static final String[] FIELDS = {"regex", "choice", "grammar", "json", "json_object", "structural_tag", "response_format", "tools",
            "tool_choice", "parallel_tool_calls", "guided_json", "guided_regex", "guided_choice", "guided_grammar", "guided_foo",
            "whitespace_pattern", "disable_any_whitespace", "disable_additional_properties", "grammar_lazy", "grammar_triggers",
            "json_schema", "structured_outputs", "functions", "x-guidance", "$ref", "$defs", "definitions", "type", "properties"};
    static final String[] VALUES = {"true", "false", "null", "0", "-1", "1e999", "\"\"", "\"a\"", "\"\\ud800\"", "\"\\udfff x\"",
            "[]", "{}", "[\"a\",\"a\"]", "{\"type\":\"json_schema\"}", "\"required\"", "\"#\"", "{\"$ref\":\"#\"}", "\"root ::= x\"",
            "{\"gbnf\":\"root ::= \\\"a\\\"\"}", "\"[\"", "\"(a|\"", "\"a{99999}\""};

    private static volatile ConstraintCache cache;

    static ConstraintCache cache() {
        if (cache == null) {
            synchronized (RequestFuzz.class) {
                if (cache == null) {
                    cache = ConstraintCache.builder().options(ConstraintOptions.defaults().withPrebuildMillis(0)).maxBytes(64L << 20)
                            .compileBudget(Duration.ofSeconds(20)).compileThreads(2).build();
                }
            }
        }
        return cache;
    }

    static String mutate(String request, Random rnd) {
        String s = request;
        int edits = 1 + rnd.nextInt(3);
        for (int i = 0; i < edits; i++) {
            switch (rnd.nextInt(7)) {
                case 0 -> s = Fuzz.mutate(s, rnd);
                case 1 -> { // a key twice: a field inserted after the first brace, maybe the same as one already there
                    String f = FIELDS[rnd.nextInt(FIELDS.length)];
                    s = "{\"" + f + "\":" + VALUES[rnd.nextInt(VALUES.length)] + "," + s.substring(1);
                }
                case 2 -> s = s + (rnd.nextBoolean() ? " {\"regex\":\"b\"}" : rnd.nextBoolean() ? " garbage" : "]");
                case 3 -> { // a lone surrogate (escaped or raw) inside some string
                    int q = s.indexOf('"', rnd.nextInt(Math.max(1, s.length())));
                    if (q >= 0) s = s.substring(0, q + 1) + (rnd.nextBoolean() ? "\\ud800" : "\uDC00") + s.substring(q + 1);
                }
                case 4 -> { // deep nesting under a field
                    int depth = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 3000 : 50);
                    String open = rnd.nextBoolean() ? "[" : "{\"a\":";
                    String close = open.equals("[") ? "]" : "}";
                    s = "{\"x\":" + open.repeat(depth) + "1" + close.repeat(depth) + "," + s.substring(1);
                }
                case 5 -> { // a value replaced inside the request
                    int colon = s.indexOf(':', rnd.nextInt(Math.max(1, s.length())));
                    if (colon >= 0) s = s.substring(0, colon + 1) + VALUES[rnd.nextInt(VALUES.length)] + "," + s.substring(colon + 1);
                }
                default -> s = Fuzz.mutateJson(s, rnd);
            }
        }
        return s;
    }

    /** Runs request case {@code seed}; never throws. */
    static Fuzz.Result run(long seed, Vocabulary vocab) {
        Random rnd = new Random(seed);
        String input = REQUESTS[rnd.nextInt(REQUESTS.length)];
        try {
            if (rnd.nextInt(8) != 0) input = mutate(input, rnd);
            Artifact a;
            try {
                a = cache().artifact(input, vocab);
            } catch (ConstraintException e) {
                return switch (e.reason()) {
                    case INVALID_REQUEST, COMPILE_ERROR -> e.getMessage() != null && !e.getMessage().contains("\n") && !e.getMessage().contains("[Source")
                            ? new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.BAD_INPUT, input, e)
                            : new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.CRASH, input, new IllegalStateException("not a one-line message: " + e.getMessage(), e));
                    case TIME_BUDGET -> new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.TIMEOUT, input, e);
                    default -> new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.CRASH, input, e);
                };
            }
            Fuzz.walkMasks(a, rnd, true);
            return new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.OK, input, null);
        } catch (Throwable e) {
            return new Fuzz.Result(Fuzz.Kind.REQUEST, Fuzz.Outcome.CRASH, input, e);
        }
    }
}
