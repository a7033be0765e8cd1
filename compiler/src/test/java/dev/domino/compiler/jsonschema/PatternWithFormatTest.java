package dev.domino.compiler.jsonschema;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * {@code pattern} next to a {@code format} whose own automaton is large (date-time with leap seconds,
 * which remembers the local time until the offset): the product is built from the pattern's
 * automaton and only the format states it reaches, then trimmed, instead of refusing the pattern.
 */
class PatternWithFormatTest {
    @Test void aUtcPatternNextToDateTimeKeepsBothExact() {
        JsonSchemaComplementTest.check(
            "{'type':'string','format':'date-time','pattern':'\\\\d\\\\d\\\\d\\\\d-\\\\d\\\\d-\\\\d\\\\dT\\\\d\\\\d:\\\\d\\\\d:\\\\d\\\\dZ'}",
            List.of("'2016-01-05T16:51:00Z'", "'1998-12-31T23:59:60Z'", "'2016-02-29T00:00:00Z'"),
            List.of("'2016-01-05T16:51:60Z'", "'2016-01-05T16:51:00+01:00'", "'2015-02-29T00:00:00Z'", "'2016-01-05T16:51:00.5Z'"));
    }
}
