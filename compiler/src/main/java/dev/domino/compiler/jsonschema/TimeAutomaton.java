package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.Expr;

import java.util.HashMap;
import java.util.Map;

/**
 * RFC 3339's full-time ({@code time-hour ":" time-minute ":" time-second [time-secfrac] time-offset}) with
 * leap seconds exactly: second 60 only where the time, after applying its offset, is 23:59:60 UTC (RFC 3339
 * section 5.7; the JSON-Schema-Test-Suite's optional/format time.json and date-time.json: "01:29:60+01:30"
 * and "15:59:60-08:00" valid, "23:58:60Z" and "23:59:60+01:00" invalid). Z and z, offsets up to 23:59 and
 * -00:00 (section 4.3), any number of fraction digits.
 *
 * <p>Built directly as a code point automaton: the language is regular (for each local hour and minute,
 * exactly one positive and one negative offset lead to 23:59 UTC) but its automaton must remember the local
 * hour and minute from the minute's last digit until the offset (1,440 values over six positions, about
 * 11,000 states). As a regular expression of 1,440 alternatives its subset construction took seconds, and
 * as parser alternatives it made 1,440 terminals.
 */
final class TimeAutomaton {
    private TimeAutomaton() {}

    private static final int MINUTES_PER_DAY = 24 * 60;
    private static final int LAST_MINUTE_UTC = MINUTES_PER_DAY - 1;

    /** The language of full-time, built once. */
    static final Expr FULL_TIME = new Expr.Automaton(build());

    private static CodePointAutomaton build() {
        return new Construction().build();
    }

    /** One deterministic automaton, state by state (the builder minimizes it). */
    private static final class Construction {
        final CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        final int start = b.addState(false);
        final int accept = b.addState(true);
        final int anyOffset = b.addState(false);
        /** States where the rest of the text must be exactly the key (the offset of a leap second). */
        final Map<String, Integer> exactly = new HashMap<>(Map.of("", accept));

        CodePointAutomaton build() {
            // time-numoffset of an ordinary second: ("+" / "-") time-hour ":" time-minute
            int hourTens01 = b.addState(false), hourTens2 = b.addState(false), offsetHour = b.addState(false);
            int offsetColon = b.addState(false), offsetMinuteTens = b.addState(false);
            b.addRange(anyOffset, '0', '1', hourTens01);
            b.addRange(anyOffset, '2', '2', hourTens2);
            b.addRange(hourTens01, '0', '9', offsetHour);
            b.addRange(hourTens2, '0', '3', offsetHour);
            b.addRange(offsetHour, ':', ':', offsetColon);
            b.addRange(offsetColon, '0', '5', offsetMinuteTens);
            b.addRange(offsetMinuteTens, '0', '9', accept);
            // an ordinary second (00 to 59), its fraction and offset: the same after every hour and minute
            int secondTens = b.addState(false), second = b.addState(false), dot = b.addState(false), fraction = b.addState(false);
            b.addRange(secondTens, '0', '9', second);
            fractionThen(second, dot, fraction);
            zone(second);
            zone(fraction);
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
                        b.addRange(secondStart, '0', '5', secondTens);
                        int six = b.addState(false), leap = b.addState(false);
                        b.addRange(secondStart, '6', '6', six);
                        b.addRange(six, '0', '0', leap);
                        int leapDot = b.addState(false), leapFraction = b.addState(false);
                        fractionThen(leap, leapDot, leapFraction);
                        leapZone(leap, local);
                        leapZone(leapFraction, local);
                    }
                }
            }
            return b.build(start);
        }

        /** An optional fraction after {@code second}: "." then one or more digits. */
        void fractionThen(int second, int dot, int fraction) {
            b.addRange(second, '.', '.', dot);
            b.addRange(dot, '0', '9', fraction);
            b.addRange(fraction, '0', '9', fraction);
        }

        /** time-offset of an ordinary second: Z, z or any time-numoffset. */
        void zone(int from) {
            b.addRange(from, 'Z', 'Z', accept);
            b.addRange(from, 'z', 'z', accept);
            b.addRange(from, '+', '+', anyOffset);
            b.addRange(from, '-', '-', anyOffset);
        }

        /**
         * time-offset of a leap second at local minute {@code local}: the one positive offset (local = UTC +
         * offset) and the one negative offset (local = UTC - offset) that make it 23:59 UTC; Z at 23:59 only.
         */
        void leapZone(int from, int local) {
            int plus = Math.floorMod(local - LAST_MINUTE_UTC, MINUTES_PER_DAY);
            int minus = Math.floorMod(LAST_MINUTE_UTC - local, MINUTES_PER_DAY);
            b.addRange(from, '+', '+', exactly(clock(plus)));
            b.addRange(from, '-', '-', exactly(clock(minus)));
            if (local == LAST_MINUTE_UTC) {
                b.addRange(from, 'Z', 'Z', accept);
                b.addRange(from, 'z', 'z', accept);
            }
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
