package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.Expr;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * RFC 3339's full-time ({@code time-hour ":" time-minute ":" time-second [time-secfrac] time-offset}) with
 * leap seconds exactly: second 60 only where the time, after applying its offset, is 23:59:60 UTC (RFC 3339
 * section 5.7; the JSON-Schema-Test-Suite's optional/format time.json and date-time.json: "01:29:60+01:30"
 * and "15:59:60-08:00" valid, "23:58:60Z" and "23:59:60+01:00" invalid). Z and z, any number of fraction digits.
 *
 * <p>Built directly as code point automata: the language is regular (for each local hour and minute, exactly
 * one positive and one negative offset lead to 23:59 UTC) but its automaton must remember the local hour and
 * minute from the minute's last digit until the offset (1,440 values over six positions, about 11,000
 * states). As a regular expression of 1,440 alternatives its subset construction took seconds, and as parser
 * alternatives it made 1,440 terminals.
 *
 * <p>{@code time}: offsets up to 23:59 and -00:00 (section 4.3; time.json: "23:29:60+23:30" and
 * "12:34:56-00:00" valid). {@code date-time} is narrower, where the suite does not decide and the independent
 * validator (networknt, java.time) is stricter: offsets up to 18:00, no -00:00, and a leap second only at the
 * end of a UTC day that had one ({@link #LEAP_SECOND_DAYS}; RFC 3339 section 5.7: leap seconds
 * are announced, not computed) and read at or behind UTC (a positive offset puts it on the next local day,
 * which networknt refuses). So date-time is two alternatives: any date with an ordinary second, and a
 * leap-second day with a leap second.
 */
final class TimeAutomaton {
    private TimeAutomaton() {}

    private static final int MINUTES_PER_DAY = 24 * 60;
    private static final int LAST_MINUTE_UTC = MINUTES_PER_DAY - 1;
    /** The largest offset java.time (and so networknt's date-time) accepts: 18:00. */
    private static final int DATE_TIME_MAX_OFFSET = 18 * 60;

    /**
     * UTC days ending in a positive leap second, 1972 to 2016 (IERS Bulletin C; none since), except 1979-12-31
     * and 1987-12-31: networknt's table lacks those two and the test suite does not decide, so they are left out.
     */
    static final List<LocalDate> LEAP_SECOND_DAYS = List.of(
        "1972-06-30", "1972-12-31", "1973-12-31", "1974-12-31", "1975-12-31", "1976-12-31", "1977-12-31", "1978-12-31",
        "1981-06-30", "1982-06-30", "1983-06-30", "1985-06-30", "1989-12-31", "1990-12-31",
        "1992-06-30", "1993-06-30", "1994-06-30", "1995-12-31", "1997-06-30", "1998-12-31", "2005-12-31", "2008-12-31",
        "2012-06-30", "2015-06-30", "2016-12-31").stream().map(LocalDate::parse).toList();

    /** The language of full-time ({@code format: time}), built once. */
    static final Expr FULL_TIME = new Expr.Automaton(new Construction(
        (sign, minutes) -> true,
        local -> leapOffsets(local, MINUTES_PER_DAY - 1, true, true)).build());

    /** The language of {@code format: date-time}, given the regex of full-date, built once. */
    static Expr dateTime(String fullDate) {
        Expr t = RegexParser.parse("[Tt]", RegexParser.Flavor.ECMA);
        List<Expr> sameDay = new ArrayList<>();
        for (LocalDate d : LEAP_SECOND_DAYS) sameDay.add(Expr.literal(d.toString()));
        return new Expr.Alt(List.of(
            new Expr.Seq(List.of(RegexParser.parse(fullDate, RegexParser.Flavor.ECMA), t, DateTimeParts.ORDINARY)),
            new Expr.Seq(List.of(new Expr.Alt(sameDay), t, DateTimeParts.LEAP_SAME_DAY))));
    }

    private static boolean dateTimeOffset(char sign, int minutes) { return minutes <= DATE_TIME_MAX_OFFSET && !(sign == '-' && minutes == 0); }

    /** The time parts of date-time, built on first use. */
    private static final class DateTimeParts {
        static final Expr ORDINARY = new Expr.Automaton(new Construction(TimeAutomaton::dateTimeOffset, local -> List.of()).build());
        /** Leap seconds with a zero or negative offset: the local date is the UTC day of the leap second. */
        static final Expr LEAP_SAME_DAY = new Expr.Automaton(new Construction((sign, minutes) -> false,
            local -> leapOffsets(local, DATE_TIME_MAX_OFFSET, false, true)).build());
    }

    /**
     * The offsets ("Z", "+hh:mm", "-hh:mm") that make local minute {@code local} 23:59 UTC, up to {@code max}
     * minutes: the positive one (local = UTC + offset; crosses midnight unless it is zero) with {@code ahead},
     * the negative or zero ones (Z, +00:00, and -00:00 where {@code max} allows it) with {@code behind}.
     */
    private static List<String> leapOffsets(int local, int max, boolean ahead, boolean behind) {
        List<String> out = new ArrayList<>();
        int plus = Math.floorMod(local - LAST_MINUTE_UTC, MINUTES_PER_DAY);
        int minus = Math.floorMod(LAST_MINUTE_UTC - local, MINUTES_PER_DAY);
        if (plus == 0 && behind) {
            out.add("Z");
            out.add("z");
            out.add("+00:00");
            if (max == MINUTES_PER_DAY - 1) out.add("-00:00");
        }
        if (plus > 0 && plus <= max && ahead) out.add("+" + clock(plus));
        if (minus > 0 && minus <= max && behind) out.add("-" + clock(minus));
        return out;
    }

    private interface OffsetRule { boolean allows(char sign, int minutes); }

    /** One deterministic automaton, state by state (the builder minimizes it). */
    private static final class Construction {
        final OffsetRule ordinary;
        final IntFunction<List<String>> leap;
        final CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        final int start = b.addState(false);
        final int accept = b.addState(true);
        /** Trie states of the ordinary offsets, by the text read so far. */
        final Map<String, Integer> ordinaryPrefix = new HashMap<>();
        /** States where the rest of the text must be exactly the key (the offset of a leap second). */
        final Map<String, Integer> exactly = new HashMap<>(Map.of("", accept));

        Construction(OffsetRule ordinary, IntFunction<List<String>> leap) {
            this.ordinary = ordinary;
            this.leap = leap;
        }

        CodePointAutomaton build() {
            // an ordinary second (00 to 59), its fraction and offset: the same after every hour and minute
            int secondTens = b.addState(false), second = b.addState(false), dot = b.addState(false), fraction = b.addState(false);
            b.addRange(secondTens, '0', '9', second);
            fractionThen(second, dot, fraction);
            int zone = ordinaryZone();
            for (int from : new int[] {second, fraction}) {
                // the zone's first character, from both places a second may end
                b.addRange(from, 'Z', 'Z', accept);
                b.addRange(from, 'z', 'z', accept);
                for (char sign : new char[] {'+', '-'}) {
                    Integer q = ordinaryPrefix.get(String.valueOf(sign));
                    if (q != null) b.addRange(from, sign, sign, q);
                }
            }
            // the local hour and minute, remembered until the offset
            int[] tens = {b.addState(false), b.addState(false), b.addState(false)};
            for (int t = 0; t <= 2; t++) b.addRange(start, '0' + t, '0' + t, tens[t]);
            for (int hour = 0; hour < 24; hour++) {
                int afterHour = b.addState(false), colon = b.addState(false);
                b.addRange(tens[hour / 10], '0' + hour % 10, '0' + hour % 10, afterHour);
                b.addRange(afterHour, ':', ':', colon);
                for (int minuteTens = 0; minuteTens <= 5; minuteTens++) {
                    int afterTens = b.addState(false);
                    b.addRange(colon, '0' + minuteTens, '0' + minuteTens, afterTens);
                    for (int units = 0; units <= 9; units++) {
                        int local = hour * 60 + minuteTens * 10 + units;
                        int afterMinute = b.addState(false), secondStart = b.addState(false);
                        b.addRange(afterTens, '0' + units, '0' + units, afterMinute);
                        b.addRange(afterMinute, ':', ':', secondStart);
                        if (zone >= 0) b.addRange(secondStart, '0', '5', secondTens);
                        List<String> leapZones = leap.apply(local);
                        if (leapZones.isEmpty()) continue;
                        int six = b.addState(false), sixty = b.addState(false);
                        b.addRange(secondStart, '6', '6', six);
                        b.addRange(six, '0', '0', sixty);
                        int leapDot = b.addState(false), leapFraction = b.addState(false);
                        fractionThen(sixty, leapDot, leapFraction);
                        for (int from : new int[] {sixty, leapFraction}) {
                            Map<Character, List<String>> byFirst = new HashMap<>();
                            for (String z : leapZones) byFirst.computeIfAbsent(z.charAt(0), c -> new ArrayList<>()).add(z.substring(1));
                            for (Map.Entry<Character, List<String>> e : byFirst.entrySet()) {
                                // "+00:00" and "+hh:mm" start alike only at 23:59, where + has one offset: one rest per first character
                                b.addRange(from, e.getKey(), e.getKey(), exactly(e.getValue().get(0)));
                            }
                        }
                    }
                }
            }
            return b.build(start);
        }

        /** The trie of the ordinary offsets the rule allows ("+hh:mm", "-hh:mm"); -1 if none. */
        int ordinaryZone() {
            int any = -1;
            for (char sign : new char[] {'+', '-'}) {
                for (int m = 0; m < MINUTES_PER_DAY; m++) {
                    if (!ordinary.allows(sign, m)) continue;
                    String text = sign + clock(m);
                    int state = -2;
                    for (int i = 1; i <= text.length(); i++) {
                        String prefix = text.substring(0, i);
                        Integer s = ordinaryPrefix.get(prefix);
                        boolean last = i == text.length();
                        if (s == null) {
                            s = last ? accept : b.addState(false);
                            if (!last) ordinaryPrefix.put(prefix, s);
                            if (state != -2) b.addRange(state, text.charAt(i - 1), text.charAt(i - 1), s);
                        }
                        state = s;
                    }
                    any = 0;
                }
            }
            return any;
        }

        /** An optional fraction after {@code second}: "." then one or more digits. */
        void fractionThen(int second, int dot, int fraction) {
            b.addRange(second, '.', '.', dot);
            b.addRange(dot, '0', '9', fraction);
            b.addRange(fraction, '0', '9', fraction);
        }

        int exactly(String text) {
            Integer q = exactly.get(text);
            if (q != null) return q;
            int s = b.addState(false);
            exactly.put(text, s);
            b.addRange(s, text.charAt(0), text.charAt(0), exactly(text.substring(1)));
            return s;
        }
    }

    private static String clock(int minutes) { return String.format("%02d:%02d", minutes / 60, minutes % 60); }
}
