package dev.domino.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected strings come from CPython 3: {@code json.dumps(json.loads(x), indent=None, ensure_ascii=False)}. */
class MaskBenchPythonJsonTest {
    private static String py(String json) { return PythonJson.dumps(PythonJson.parse(json)); }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1e-05|1e-05", "0.00001|1e-05", "1.0|1.0", "1|1", "0.1|0.1", "1e16|1e+16", "1E+16|1e+16",
            "1e15|1000000000000000.0", "123456789012345678|123456789012345678", "1.5e300|1.5e+300",
            "5e-324|5e-324", "0.30000000000000004|0.30000000000000004", "2e23|2e+23", "-0.0|-0.0", "-0|0",
            "100.0|100.0", "1E2|100.0", "1e22|1e+22", "1.7976931348623157e308|1.7976931348623157e+308",
            "0.0001|0.0001", "12345.678|12345.678", "1e-7|1e-07", "1.10|1.1", "3.141592653589793238|3.141592653589793",
            "12345678901234567890123|12345678901234567890123", "-12345678901234567890123|-12345678901234567890123",
            "1e400|Infinity", "-1e400|-Infinity", "0.0|0.0", "2.5|2.5", "-1.5e-10|-1.5e-10", "123e-2|1.23",
            "9007199254740993.0|9007199254740992.0", "1e-4|0.0001", "0.000123|0.000123", "1234567890123456789.0|1.2345678901234568e+18"})
    void numbersAsPythonPrintsThem(String in, String expected) {
        assertThat(py(in)).isEqualTo(expected);
    }

    @Test
    void structuresAndSeparators() {
        assertThat(py("{\"a\":[1,2.5,{\"b\":null,\"c\":true}],\"e\":[],\"f\":{},\"g\":false}"))
                .isEqualTo("{\"a\": [1, 2.5, {\"b\": null, \"c\": true}], \"e\": [], \"f\": {}, \"g\": false}");
        assertThat(py("[ [ ], { } , \"\" ]")).isEqualTo("[[], {}, \"\"]");
    }

    @Test
    void stringsEscapeOnlyWhatPythonEscapes() {
        // json.dumps({"é": "x\"\\\n\t\x01\x7f\u2028ü😀"}, ensure_ascii=False)
        String in = "{\"\\u00e9\": \"x\\\"\\\\\\n\\t\\u0001\\u007f\\u2028\\u00fc\\ud83d\\ude00\\r\\b\\f\\u001F/\"}";
        assertThat(py(in)).isEqualTo("{\"é\": \"x\\\"\\\\\\n\\t\\u0001\u007f\u2028ü\uD83D\uDE00\\r\\b\\f\\u001f/\"}");
    }

    @Test
    void duplicateKeysKeepFirstPositionAndLastValue() {
        // json.dumps(json.loads('{"a": 1, "b": 2, "a": 3}')) == '{"a": 3, "b": 2}'
        assertThat(py("{\"a\": 1, \"b\": 2, \"a\": 3}")).isEqualTo("{\"a\": 3, \"b\": 2}");
    }

    @Test
    void floatReprRoundTrips() {
        java.util.Random rnd = new java.util.Random(7);
        for (int i = 0; i < 5_000; i++) {
            double d = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isNaN(d) || Double.isInfinite(d)) continue;
            String s = PythonJson.floatRepr(d);
            assertThat(Double.parseDouble(s)).as(s).isEqualTo(d);
            // never longer than Java's own (non-shortest on 17) repr's digits
            assertThat(s.replaceAll("e.*", "").replaceAll("[-.]", "").replaceAll("^0+", "").length()).isLessThanOrEqualTo(17);
        }
    }
}
