package dev.domino.compiler.frontend;

import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * llguidance's substring languages ({@code %regex {"substring_chunks": [...]}} and its word and
 * character forms): the texts {@code chunks[n] + ... + chunks[m-1]} for {@code 0 <= n <= m <= k}, the
 * empty text included. Built as one deterministic automaton over code points, not as an expression:
 * the expression (a union over start chunks of nested optional tails) is quadratic in the number of
 * chunks, while the subset construction here reads the chunks' text once per reachable set of
 * positions (the positions where a text that started at a chunk boundary can stand).
 */
final class SubstringLanguage {
    private SubstringLanguage() {}

    /** Substring automata above this many states are refused (a huge text with many repeats of its words). */
    static final int MAX_STATES = 200_000;

    static Expr of(List<String> chunks) {
        StringBuilder all = new StringBuilder();
        List<Integer> boundaries = new ArrayList<>();
        for (String c : chunks) {
            boundaries.add(all.codePointCount(0, all.length()));
            all.append(c);
        }
        int[] text = all.toString().codePoints().toArray();
        boundaries.add(text.length);
        boolean[] boundary = new boolean[text.length + 1];
        for (int b : boundaries) boundary[b] = true;

        // a state: the sorted positions where the text read so far may end
        CodePointAutomaton.Builder dfa = new CodePointAutomaton.Builder();
        Map<List<Integer>, Integer> index = new HashMap<>();
        List<int[]> sets = new ArrayList<>();
        int[] start = boundaries.stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
        index.put(key(start), dfa.addState(true));
        sets.add(start);
        for (int s = 0; s < sets.size(); s++) {
            CompileLimits.checkClock();
            int[] from = sets.get(s);
            // group the positions by the code point that follows them
            Map<Integer, List<Integer>> byNext = new java.util.TreeMap<>();
            for (int p : from) if (p < text.length) byNext.computeIfAbsent(text[p], k -> new ArrayList<>()).add(p + 1);
            for (Map.Entry<Integer, List<Integer>> e : byNext.entrySet()) {
                int[] to = e.getValue().stream().mapToInt(Integer::intValue).toArray();
                List<Integer> k = key(to);
                Integer target = index.get(k);
                if (target == null) {
                    if (sets.size() >= MAX_STATES) {
                        throw new IllegalArgumentException("the substring automaton has more than " + MAX_STATES + " states");
                    }
                    boolean accepting = false;
                    for (int p : to) accepting |= boundary[p];
                    target = dfa.addState(accepting);
                    index.put(k, target);
                    sets.add(to);
                }
                dfa.addRange(s, e.getKey(), e.getKey(), target);
            }
        }
        CodePointAutomaton a = dfa.build();
        if (a.stateCount() == 1 && a.rangeCount() == 0) return Expr.EMPTY;
        return new Expr.Automaton(a);
    }

    private static List<Integer> key(int[] positions) {
        return Arrays.stream(positions).boxed().toList();
    }

    /** One chunk per code point. */
    static List<String> chars(String s) {
        return s.codePoints().mapToObj(Character::toString).toList();
    }

    /** Maximal runs of whitespace, of word characters (letters, digits, {@code _}), or of other characters. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        int[] cps = s.codePoints().toArray();
        int begin = 0;
        for (int i = 1; i <= cps.length; i++) {
            if (i == cps.length || kind(cps[i]) != kind(cps[begin])) {
                out.add(new String(cps, begin, i - begin));
                begin = i;
            }
        }
        return cps.length == 0 ? List.of() : out;
    }

    private static int kind(int cp) {
        if (isWhiteSpace(cp)) return 0;
        if (Character.isAlphabetic(cp) || isNumeric(cp) || cp == '_') return 1;
        return 2;
    }

    /** Unicode's White_Space property (Java's isWhitespace leaves out the no-break spaces). */
    private static boolean isWhiteSpace(int cp) {
        return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
    }

    /** Unicode's numeric general categories (Nd, Nl, No). */
    private static boolean isNumeric(int cp) {
        int t = Character.getType(cp);
        return t == Character.DECIMAL_DIGIT_NUMBER || t == Character.LETTER_NUMBER || t == Character.OTHER_NUMBER;
    }
}
