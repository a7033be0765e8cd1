package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StringsExcept} against the set it excludes (membership on random strings near the names) and
 * against the trie expression it replaces (the same byte automaton once JSON-encoded, every escaping and
 * canonical only, so the same terminals and masks).
 */
class StringsExceptTest {
    private static final String ALPHABET = "ab\"\\/\n\u00e9\u4e2d\ud83d\ude00";

    private static List<Set<String>> nameSets() {
        List<Set<String>> sets = new ArrayList<>();
        sets.add(Set.of("a"));
        sets.add(Set.of(""));
        sets.add(Set.of("", "a", "ab", "abc"));
        sets.add(Set.of("name", "names", "nameless", "id", "\u00e9t\u00e9", "\ud83d\ude00", "a\"b", "x\\y", "tab\t"));
        Random rnd = new Random(7);
        for (int k = 0; k < 20; k++) {
            Set<String> s = new TreeSet<>();
            int n = 1 + rnd.nextInt(12);
            for (int i = 0; i < n; i++) s.add(random(rnd, rnd.nextInt(5)));
            sets.add(s);
        }
        return sets;
    }

    private static String random(Random rnd, int len) {
        StringBuilder sb = new StringBuilder();
        int[] cps = ALPHABET.codePoints().toArray();
        for (int i = 0; i < len; i++) sb.appendCodePoint(cps[rnd.nextInt(cps.length)]);
        return sb.toString();
    }

    @Test void acceptsExactlyTheStringsOutsideTheSet() {
        Random rnd = new Random(11);
        for (Set<String> names : nameSets()) {
            CodePointAutomaton a = StringsExcept.of(names);
            for (String name : names) {
                assertThat(a.matches(name)).as("%s excludes %s", names, name).isFalse();
                for (int i = 0; i < 3; i++) {
                    String longer = name + random(rnd, 1 + rnd.nextInt(2));
                    assertThat(a.matches(longer)).as("%s on %s", names, longer).isEqualTo(!names.contains(longer));
                }
            }
            for (int i = 0; i < 200; i++) {
                String s = random(rnd, rnd.nextInt(6));
                assertThat(a.matches(s)).as("%s on %s", names, s).isEqualTo(!names.contains(s));
            }
        }
    }

    @Test void encodesToTheSameByteAutomatonAsTheTrieExpression() {
        for (Set<String> names : nameSets()) {
            Expr trie = trie(new TreeSet<>(names), "");
            Expr leaf = new Expr.Automaton(StringsExcept.of(names));
            for (boolean all : new boolean[] {true, false}) {
                DfaBuilder.Language expected = new DfaBuilder(n -> null).build(JsonStrings.encodeRegex(trie, all), 1_000_000);
                DfaBuilder.Language actual = new DfaBuilder(n -> null).build(JsonStrings.encodeRegex(leaf, all), 1_000_000);
                assertThat(actual.nullable()).as("nullable, %s", names).isEqualTo(expected.nullable());
                assertThat(actual.dfa()).as("byte automaton of the strings except %s (all escapes: %s)", names, all).isEqualTo(expected.dfa());
            }
        }
    }

    /** The expression form: per trie node, the empty string unless a name ends there, each next code point, any other code point and then anything. */
    private static Expr trie(TreeSet<String> names, String prefix) {
        List<Expr> alts = new ArrayList<>();
        if (!names.contains(prefix)) alts.add(Expr.EMPTY);
        TreeMap<Integer, Boolean> next = new TreeMap<>();
        for (String s : names) if (s.length() > prefix.length() && s.startsWith(prefix)) next.put(s.codePointAt(prefix.length()), true);
        CodePointSet used = CodePointSet.EMPTY;
        for (int cp : next.keySet()) {
            used = used.union(CodePointSet.of(cp));
            alts.add(JsonSyntax.seq(Expr.literal(Character.toString(cp)), trie(names, prefix + Character.toString(cp))));
        }
        alts.add(JsonSyntax.seq(Expr.chars(used.complement()), Expr.star(Expr.chars(CodePointSet.ANY))));
        return JsonSyntax.alt(alts);
    }
}
