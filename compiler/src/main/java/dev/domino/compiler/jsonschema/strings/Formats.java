package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;

import java.util.Map;
import java.util.Set;

/**
 * {@code format} values as whole-match regexes over the decoded string, and which formats are defined by
 * a specification at all.
 *
 * <p>Three kinds of names: (1) formats a specification defines and that are enforced here, exactly
 * ({@link #REGEXES}; those that describe rather than constrain a string, such as OpenAPI's {@code password}
 * or the numeric formats {@code int32}/{@code int64}/{@code float}/{@code double}, which apply to numbers
 * only, are "any string"); (2) formats a specification defines that are not enforced ({@link #NOT_ENFORCED},
 * e.g. {@code regex}: always a compile error, since validators check them and "any string" would accept
 * invalid instances); (3) every other name, defined by no specification ({@code path}, {@code url},
 * {@code mongoId}): validators treat such a format as an annotation (JSON Schema: "implementations SHOULD
 * ignore" an unknown format), so {@code --unknown-formats ignore} ignoring it is exact, and the default
 * {@code error} names it. The specifications: JSON Schema drafts 4 to 2020-12 and the OpenAPI 2.0/3.x data
 * types; draft 3's own names ({@link #DRAFT3_ONLY}) count as specified in draft 3 schemas only.
 */
public final class Formats {
    private Formats() {}

    /** Full dates with per-month day counts and Gregorian leap years. */
    private static final String DATE = "(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))"
        + "|(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)";
    /**
     * RFC 3339's full-time without leap seconds: the names "time" and "date-time" stand for these regexes here,
     * but {@link #format} gives their languages with second 60 where it is valid ({@link TimeAutomaton}).
     */
    private static final String TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
    private static final String DUR_TIME = "T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)";
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
    /**
     * A host name's label: letters, digits and hyphens, 63 at most, neither first nor last a hyphen (RFC 1123
     * section 2.1), and not hyphens in both the third and fourth places: RFC 5890 section 2.3.1 reserves those
     * labels ("R-LDH") for A-labels ("xn--"), whose validity (Punycode, then IDNA2008's rules per code point
     * and context) no automaton here expresses, so they are left out (the JSON-Schema-Test-Suite's
     * hostname.json: "xn--X" and "XN--aa---o47jg78q" invalid; its valid A-labels are rejected).
     */
    private static final String AN = "[A-Za-z0-9]", LDH = "[A-Za-z0-9-]";
    private static final String HOST_LABEL = AN + "(?:" + AN + "|" + LDH + AN + "|" + LDH + "(?:" + AN + AN + "|-" + AN + ")|"
        + LDH + "(?:" + AN + LDH + "|-" + AN + ")" + LDH + "{0,58}" + AN + ")?";
    /** RFC 1034 section 3.1: at most 255 octets on the wire, so 253 characters as text (the suite: "exceeds maximum overall length"). */
    static final int HOSTNAME_MAX_LENGTH = 253;

    // RFC 3986 appendix A (URIs) and RFC 3987 section 2.2 (IRIs: the same productions, with ucschar among the
    // unreserved characters and iprivate in queries). A set of characters is written without brackets so
    // that the IRI productions can add to it.
    private static final String PCT = "%[0-9A-Fa-f]{2}";
    private static final String UCS = "\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}"
        + "\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}"
        + "\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}";
    private static final String IPRIVATE = "\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}";
    private static final String UNRESERVED = "A-Za-z0-9._~\\-";
    private static final String SUB_DELIMS = "!$&'()*+,;=";
    private static final String SCHEME = "[A-Za-z][A-Za-z0-9+.-]*";
    // ABNF strings are case-insensitive: the "v" of IPvFuture and the hex digits in either case
    private static final String IP_LITERAL = "\\[(?:" + IPV6 + "|[Vv][0-9A-Fa-f]+\\.[" + UNRESERVED + SUB_DELIMS + ":]+)\\]";

    /**
     * URI-reference (RFC 3986 section 4.1) or, with {@code absolute}, URI (section 3); IRI-reference and IRI
     * (RFC 3987) with {@code international}. IPv4 hosts are reg-names too, so host = IP-literal / reg-name.
     */
    private static String uri(boolean absolute, boolean international) {
        String unreserved = UNRESERVED + (international ? UCS : "");
        String pchar = "(?:[" + unreserved + SUB_DELIMS + ":@]|" + PCT + ")";
        String pathAbempty = "(?:/" + pchar + "*)*";
        String pathAbsolute = "/(?:" + pchar + "+" + pathAbempty + ")?";
        String authority = "(?:(?:[" + unreserved + SUB_DELIMS + ":]|" + PCT + ")*@)?"
            + "(?:" + IP_LITERAL + "|(?:[" + unreserved + SUB_DELIMS + "]|" + PCT + ")*)(?::[0-9]*)?";
        String query = "(?:\\?(?:" + pchar + "|[/?" + (international ? IPRIVATE : "") + "])*)?";
        String fragment = "(?:#(?:" + pchar + "|[/?])*)?";
        String hierPart = "(?://" + authority + pathAbempty + "|" + pathAbsolute + "|" + pchar + "+" + pathAbempty + ")";
        // an empty hier-part (path-empty) is followed by a query or nothing, not by a fragment alone: "a:#f" is
        // RFC 3986's, but java.net.URI (the independent validator's parser) refuses it and the test suite does
        // not decide, so it is left out
        String queryPart = "\\?(?:" + pchar + "|[/?" + (international ? IPRIVATE : "") + "])*";
        String full = SCHEME + ":(?:" + hierPart + query + fragment + "|" + queryPart + fragment + ")?";
        if (absolute) return full;
        String pathNoscheme = "(?:[" + unreserved + SUB_DELIMS + "@]|" + PCT + ")+" + pathAbempty;
        String relativeRef = "(?://" + authority + pathAbempty + "|" + pathAbsolute + "|" + pathNoscheme + ")?" + query + fragment;
        return "(?:" + full + "|" + relativeRef + ")";
    }

    /**
     * RFC 5321 section 4.1.2's Mailbox (what JSON Schema's "email" names): a Dot-string or a Quoted-string
     * (qtextSMTP and quoted-pairSMTP), "@", then a Domain or an address literal: IPv4, or "IPv6:" and an IPv6 address
     * (ABNF strings are case-insensitive, but networknt, the independent validator, reads the tag as written and
     * the test suite does not decide: the tag as written only). General-address-literal needs a tag registered with IANA, and
     * IPv6 is the only one, so it adds nothing.
     *
     * <p>Written as two alternatives, local "@" Domain | local "@" literal, not local "@" (Domain | literal):
     * the same language, but the factored form splits the host names into terminals whose trees cross each
     * other (tokens checked at run time, larger trees), the distributed one does not.
     */
    private static final String EMAIL_LOCAL = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
        + "|\"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\x20-\\x7E])*\")";
    private static final String EMAIL = "(?:" + EMAIL_LOCAL + "@" + HOSTNAME
        + "|" + EMAIL_LOCAL + "@\\[(?:" + IPV4 + "|IPv6:" + IPV6 + ")\\])";

    private static final String JSON_POINTER = "(?:/(?:[^~/]|~[01])*)*";

    // RFC 6570 section 2 (level 4): literals, and expressions "{" [operator] varspec *("," varspec) "}"
    private static final String URI_TEMPLATE_LITERAL = "(?:[!#$&(-;=?-\\[\\]_a-z~" + UCS + IPRIVATE + "]|" + PCT + ")";
    private static final String VARCHAR = "(?:[A-Za-z0-9_]|" + PCT + ")";
    private static final String VARSPEC = VARCHAR + "(?:\\.?" + VARCHAR + ")*(?::[1-9][0-9]{0,3}|\\*)?";
    private static final String URI_TEMPLATE = "(?:" + URI_TEMPLATE_LITERAL + "|\\{[+#./;?&=,!@|]?" + VARSPEC + "(?:," + VARSPEC + ")*\\})*";
    private static final String ANY = "[\\s\\S]*";

    static final Map<String, String> REGEXES = Map.ofEntries(
        Map.entry("date", DATE),
        Map.entry("time", TIME),
        // RFC 3339 section 5.6: date-time = full-date "T" full-time (the ABNF is case-insensitive: t too)
        Map.entry("date-time", DATE + "[Tt]" + TIME),
        // RFC 3339 appendix A: dur-year = 1*DIGIT "Y" [dur-month], dur-month = 1*DIGIT "M" [dur-day], dur-hour =
        // 1*DIGIT "H" [dur-minute], dur-minute = 1*DIGIT "M" [dur-second]: no year then day, no hour then second
        Map.entry("duration", "P(?:(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)(?:" + DUR_TIME + ")?|" + DUR_TIME + "|\\d+W)"),
        Map.entry("email", EMAIL),
        Map.entry("uuid", "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"),
        Map.entry("uri", uri(true, false)),
        Map.entry("uri-reference", uri(false, false)),
        Map.entry("iri", uri(true, true)),
        Map.entry("iri-reference", uri(false, true)),
        Map.entry("json-pointer", JSON_POINTER),
        Map.entry("relative-json-pointer", "(?:0|[1-9][0-9]*)(?:#|" + JSON_POINTER + ")"),
        // OpenAPI's string formats that describe, not constrain: "binary" is any sequence of octets and
        // "password" a hint to obscure the input (OpenAPI 3.0.3, Data Types). "byte" is documented as base64,
        // but no validator checks it (networknt and Python's jsonschema treat it as an unknown annotation) and
        // real instances hold other text under it (Kubernetes' caBundle holds PEM certificates in the dev
        // set's valid instances), so it is an annotation too: enforcing base64 would reject valid outputs.
        Map.entry("binary", ANY),
        Map.entry("password", ANY),
        Map.entry("byte", ANY),
        // OpenAPI's numeric formats (int32, int64 of integers; float, double of numbers) do not apply to
        // strings: a string passes them, as a string passes "minimum" (type string + int64 is how Google's
        // discovery documents spell 64-bit integers; Github_medium---o58612)
        Map.entry("int32", ANY),
        Map.entry("int64", ANY),
        Map.entry("float", ANY),
        Map.entry("double", ANY),
        Map.entry("ipv4", IPV4),
        Map.entry("ipv6", IPV6),
        Map.entry("hostname", HOST_LABEL + "(?:\\." + HOST_LABEL + ")*"),
        Map.entry("uri-template", URI_TEMPLATE));

    /**
     * Formats a specification defines that are not enforced here, with the reason: a compile error whatever
     * {@code --unknown-formats} says (validators check them; only {@code --ignore-keyword format} skips them).
     * "regex": whether a string is a valid ECMA-262 regex is not a regular language (nested groups); as "any
     * string" it accepted the invalid "*" of Github_easy---o66309 (MaskBench invalid_accepted 2).
     */
    static final Map<String, String> NOT_ENFORCED = Map.of(
        "regex", "valid regular expressions are not a regular language",
        "idn-hostname", "internationalized host names (RFC 5890) are not expressed as an automaton here",
        "idn-email", "internationalized e-mail addresses (RFC 6531) are not expressed as an automaton here");

    /**
     * Draft 3's own names, which draft 4 dropped or renamed (host-name became hostname, ip-address ipv4): a
     * format of draft 3 schemas only (not enforced here: an error there), and in every later dialect a
     * name no specification defines (Python's jsonschema checks "host-name" under draft 3 only; the dev set's
     * four schemas that use it are draft 4 schemas).
     */
    static final Set<String> DRAFT3_ONLY = Set.of("host-name", "ip-address", "color", "style", "phone", "utc-millisec");

    /** Start of the detail of a format defined by no specification (skipped under {@code --unknown-formats ignore}). */
    public static final String UNKNOWN = "unknown format ";
    /** Start of the detail of a draft 3 name: unknown unless the schema is a draft 3 schema. */
    public static final String UNKNOWN_DRAFT3 = UNKNOWN + "of draft 3 ";

    /** Why the format is refused (null when it is enforced); an unknown format's detail starts with {@link #UNKNOWN}. */
    public static String refusal(String name) {
        if (REGEXES.containsKey(name)) return null;
        String why = NOT_ENFORCED.get(name);
        if (why != null) return "format '" + name + "' is not enforced: " + why;
        String ignore = "; --unknown-formats ignore treats it as an annotation)";
        if (DRAFT3_ONLY.contains(name)) return UNKNOWN_DRAFT3 + "'" + name + "' (not enforced in draft 3 schemas; later drafts do not define it" + ignore;
        return UNKNOWN + "'" + name + "' (no specification defines it" + ignore;
    }

    /** The most characters a string of the format may have (its length bound beside its regex), or -1 for no bound. */
    public static int maxLength(String name) { return name.equals("hostname") ? HOSTNAME_MAX_LENGTH : -1; }

    /** Whether the format accepts every string (then it constrains nothing and combines with any other keyword). */
    public static boolean isAnyString(String name) { return ANY.equals(REGEXES.get(name)); }

    /** The format's language, or null if unknown. */
    public static Expr format(String name) {
        if (name.equals("time")) return TimeAutomaton.FULL_TIME;
        // RFC 3339 section 5.6: date-time = full-date "T" full-time (the ABNF is case-insensitive: t too)
        if (name.equals("date-time")) return TimeAutomaton.dateTime(DATE);
        String re = REGEXES.get(name);
        return re == null ? null : RegexParser.parse(re, RegexParser.Flavor.ECMA);
    }
}
