package dev.domino.compiler.jsonschema;

import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;

import java.util.Map;

/** {@code format} values as whole-match regexes over the decoded string. */
final class Formats {
    private Formats() {}

    /** Full dates with per-month day counts and Gregorian leap years. */
    private static final String DATE = "(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))"
        + "|(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)";
    private static final String TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
    private static final String OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
    private static final String IPV4 = OCTET + "(?:\\." + OCTET + "){3}";
    private static final String H16 = "[0-9A-Fa-f]{1,4}";
    private static final String LS32 = "(?:" + H16 + ":" + H16 + "|" + IPV4 + ")";
    private static final String IPV6 = "(?:"
        + "(?:" + H16 + ":){6}" + LS32
        + "|::(?:" + H16 + ":){5}" + LS32
        + "|(?:" + H16 + ")?::(?:" + H16 + ":){4}" + LS32
        + "|(?:(?:" + H16 + ":){0,1}" + H16 + ")?::(?:" + H16 + ":){3}" + LS32
        + "|(?:(?:" + H16 + ":){0,2}" + H16 + ")?::(?:" + H16 + ":){2}" + LS32
        + "|(?:(?:" + H16 + ":){0,3}" + H16 + ")?::" + H16 + ":" + LS32
        + "|(?:(?:" + H16 + ":){0,4}" + H16 + ")?::" + LS32
        + "|(?:(?:" + H16 + ":){0,5}" + H16 + ")?::" + H16
        + "|(?:(?:" + H16 + ":){0,6}" + H16 + ")?::)";
    private static final String LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
    private static final String HOSTNAME = LABEL + "(?:\\." + LABEL + ")*";

    static final Map<String, String> REGEXES = Map.of(
        "date", DATE,
        "time", TIME,
        "date-time", DATE + "[Tt ]" + TIME,
        "duration", "P(?:(?:\\d+Y(?:\\d+M)?(?:\\d+D)?|\\d+M(?:\\d+D)?|\\d+D)(?:T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))?|T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S)|\\d+W)",
        "email", "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@" + HOSTNAME,
        "uuid", "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        "uri", "[A-Za-z][A-Za-z0-9+.-]*:[^\\x00-\\x20\"<>\\\\^`{|}\\x7F-\\uFFFF]*",
        "ipv4", IPV4,
        "ipv6", IPV6,
        "hostname", HOSTNAME);

    /** The format's language, or null if unknown. */
    static Expr format(String name) {
        String re = REGEXES.get(name);
        return re == null ? null : RegexParser.parse(re, RegexParser.Flavor.ECMA);
    }
}
