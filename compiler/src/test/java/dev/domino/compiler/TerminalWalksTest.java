package dev.domino.compiler;

import dev.domino.runtime.*;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.vocab.*;
import dev.domino.runtime.diagnostics.*;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shared walks (by residual, by loop core, by loop core below a first byte) must equal the
 * plain walk of every automaton state: same tokens, same places where the terminal may end.
 */
class TerminalWalksTest {
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"departure": {"type": "string"}, "destination": {"type": "string", "maxLength": 12},
                            "passengers": {"type": "integer"}, "price": {"type": "number"},
                            "déjà": {"type": "string", "pattern": "^[a-z]+$"}},
             "required": ["departure"],
             "additionalProperties": {"type": "boolean"}}
            """;

    /** Declared keys that are prefixes of one another, escaped and non-ASCII keys: the key prefix states' twin walks. */
    static final String KEYS = """
            {"type": "object",
             "properties": {"": {"type": "integer"}, "a": {"type": "string"}, "ab": {"type": "integer"}, "abcdefghij": {"type": "string"},
                            "q\\"uote": {"type": "integer"}, "back\\\\slash": {"type": "integer"}, "tab\\tkey": {"type": "integer"},
                            "déjà": {"type": "integer"}, "日本": {"type": "string"}, "the": {"type": "integer"}, "then": {"type": "integer"}},
             "additionalProperties": {"type": "string"}}
            """;

    /**
     * Patterns whose states have many byte ranges (more than most trie nodes have children): an unanchored
     * alternation (every letter of it leaves the state that loops on the rest) and a class of every other letter.
     */
    static final String PATTERNS = """
            {"type": "object",
             "properties": {"weight": {"type": "string", "pattern": "normal|bold"},
                            "odd": {"type": "string", "pattern": "^[acegikmoqsuwy02468]+(x|z[0-9])?$"},
                            "mixed": {"type": "string", "pattern": "[aeiou][^aeiou]{2}é"}},
             "required": ["weight"]}
            """;

    /** Long unrolled strings (fixed formats, patterns with maxLength): their positions share walks by bounded future. */
    static final String CHAINS = """
            {"type": "object",
             "properties": {"sha": {"type": "string", "pattern": "^[a-f0-9]{64}$"},
                            "date": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$"},
                            "word": {"type": "string", "pattern": "^[a-z]{90}$"},
                            "ab": {"type": "string", "pattern": "^(ab|ba){40}c$"},
                            "spaced": {"type": "string", "pattern": "^[a-z ]*$", "maxLength": 70}},
             "additionalProperties": false}
            """;

    /**
     * Unanchored patterns inside strings, with enough states that no small loop core or residual covers them: their
     * partial-match states are walked as the searching state's walk with the differing subtrees walked apart
     * ({@code HubWalk}).
     */
    static final String HUBS = """
            {"type": "object",
             "properties": {"id": {"type": "string", "pattern": "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"},
                            "weight": {"type": "string", "pattern": "normal|bold|light|x-[a-z]+-[0-9]{2,3}"},
                            "phone": {"type": "string", "pattern": "[0-9]{3}[ -][0-9]{4}", "maxLength": 30}},
             "required": ["id", "weight", "phone"]}
            """;

    @Test void hubWalksEqualPlainWalks() {
        long before = TerminalWalks.hubWalks();
        sharedWalksEqualPlainWalks(HUBS, 10);
        assertThat(TerminalWalks.hubWalks() - before).as("walks derived from a hub's").isGreaterThan(20);
    }

    /**
     * Keys of several unanchored patterns, each key's automaton tracking how far every pattern has matched: a state
     * that has matched one pattern parts from the searching state only on a few bytes (the closing quote, the
     * digits that would match another), so its walk jumps to those bytes' edges ({@code HubWalk}'s alike pairs).
     */
    static final String ALIKE_HUBS = """
            {"type": "object",
             "patternProperties": {"netdir_(projects|work|scratch)": {"type": "integer"}, "netdrv_([a-z]+)": {"type": "string"},
                                   "net_[a-z]+[0-9]+": {"type": "boolean"}},
             "additionalProperties": false}
            """;

    @Test void hubWalksOfAlikePairsEqualPlainWalks() {
        long before = TerminalWalks.hubWalks(), jumps = TerminalWalks.alikeJumps();
        sharedWalksEqualPlainWalks(ALIKE_HUBS, 10);
        assertThat(TerminalWalks.hubWalks() - before).as("walks derived from a hub's").isGreaterThan(20);
        assertThat(TerminalWalks.alikeJumps() - jumps).as("alike pairs jumped below").isGreaterThan(20);
    }

    /**
     * "Any key but these" as a key body of its own (a schema with a hundred declared keys splits the key into quote,
     * body, quote): a state a few bytes from the end of a declared key has a residual small enough to be shared
     * by, holding the free string's state (its hub); walked first byte by first byte, each such state cost 5 to
     * 7 ms with Llama 3 (Snowplow's bad-row schemas). On a residual no automaton walked before it is derived from
     * its hub's walk.
     */
    @Test void hubWalksOfKeyTailsEqualPlainWalks() {
        String[] a = {"app", "browser", "collector", "device", "event", "geo", "network", "page", "referrer", "session"};
        String[] b = {"identifier", "currency", "timestamp", "fingerprint", "latitude", "organization", "fragment"};
        java.util.List<String> names = new java.util.ArrayList<>();
        for (String x : a) for (String y : b) names.add(x + "_" + y);
        dk.brics.automaton.Automaton body = new dk.brics.automaton.RegExp("[ !#-\\[\\]-~]*").toAutomaton()
                .minus(dk.brics.automaton.Automaton.makeStringUnion(names.toArray(new CharSequence[0])));
        body.minimize();
        ByteDfa dfa = asciiDfa(body);
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        TerminalWalks walks = new TerminalWalks(VocabTrie.of(vocab)); // fresh: nothing cached from other tests
        long before = TerminalWalks.hubWalks();
        for (int s = 0; s < dfa.stateCount(); s++) {
            TerminalWalks.Walk shared = walks.get(dfa, s, vocab.size());
            TerminalWalks.Walk plain = walks.compute(dfa, s, vocab.size());
            String where = "state " + s;
            assertThat(shared.continuation().toArray()).as(where).isEqualTo(plain.continuation().toArray());
            assertThat(shared.endsAtRoot()).as(where).isEqualTo(plain.endsAtRoot());
            assertThat(endChildren(shared)).as(where).isEqualTo(endChildren(plain));
            assertThat(loopEnds(shared)).as(where).isEqualTo(loopEnds(plain));
        }
        assertThat(dfa.stateCount()).isGreaterThan(80);
        assertThat(TerminalWalks.hubWalks() - before).as("walks derived from a hub's").isGreaterThan(dfa.stateCount() * 3 / 4);
    }

    /**
     * "Any key but these" of two {@code oneOf} alternatives, each with its own declared keys, closing quote and colon
     * included: their free string states have the same residual, so both automata share one walk of it (the same
     * object), and every state's shared walk still equals its plain walk.
     */
    @Test void freeStringStatesOfKeyComplementsShareOneWalk() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        TerminalWalks walks = new TerminalWalks(VocabTrie.of(vocab)); // fresh: nothing cached from other tests
        ByteDfa first = keyComplement("type", "id", "domainSet", "rangeSet");
        ByteDfa second = keyComplement("type", "id", "partitionSet", "metadata", "envelope");
        for (ByteDfa dfa : java.util.List.of(first, second)) {
            for (int s = 0; s < dfa.stateCount(); s++) {
                TerminalWalks.Walk shared = walks.get(dfa, s, vocab.size());
                TerminalWalks.Walk plain = walks.compute(dfa, s, vocab.size());
                String where = "state " + s;
                assertThat(shared.continuation().toArray()).as(where).isEqualTo(plain.continuation().toArray());
                assertThat(shared.endsAtRoot()).as(where).isEqualTo(plain.endsAtRoot());
                assertThat(endChildren(shared)).as(where).isEqualTo(endChildren(plain));
                assertThat(loopEnds(shared)).as(where).isEqualTo(loopEnds(plain));
            }
        }
        // "zz" is a prefix of no declared key: both automata are in their free string state after it
        int free1 = first.step(first.step(0, 'z'), 'z'), free2 = second.step(second.step(0, 'z'), 'z');
        assertThat(walks.get(first, free1, vocab.size())).isSameAs(walks.get(second, free2, vocab.size()));
    }

    /** A key body other than the given keys, then the closing quote and the colon. */
    private static ByteDfa keyComplement(String... keys) {
        dk.brics.automaton.Automaton a = new dk.brics.automaton.RegExp("[ !#-\\[\\]-~]*").toAutomaton()
                .minus(dk.brics.automaton.Automaton.makeStringUnion(keys))
                .concatenate(dk.brics.automaton.Automaton.makeString("\":"));
        a.minimize();
        return asciiDfa(a);
    }

    /** A byte automaton of an automaton over ASCII characters. */
    private static ByteDfa asciiDfa(dk.brics.automaton.Automaton a) {
        java.util.List<dk.brics.automaton.State> states = new java.util.ArrayList<>(a.getStates());
        states.remove(a.getInitialState());
        states.add(0, a.getInitialState());
        java.util.Map<dk.brics.automaton.State, Integer> id = new java.util.HashMap<>();
        for (dk.brics.automaton.State st : states) id.put(st, id.size());
        boolean[] accepting = new boolean[states.size()];
        int[] rangeStart = new int[states.size() + 1];
        java.util.List<int[]> ranges = new java.util.ArrayList<>();
        for (dk.brics.automaton.State st : states) {
            int i = id.get(st);
            accepting[i] = st.isAccept();
            for (dk.brics.automaton.Transition t : st.getSortedTransitions(false)) {
                ranges.add(new int[] {t.getMin(), Math.min(t.getMax(), 127), id.get(t.getDest())});
            }
            rangeStart[i + 1] = ranges.size();
        }
        byte[] lo = new byte[ranges.size()], hi = new byte[ranges.size()];
        int[] target = new int[ranges.size()];
        for (int r = 0; r < ranges.size(); r++) {
            lo[r] = (byte) ranges.get(r)[0];
            hi[r] = (byte) ranges.get(r)[1];
            target[r] = ranges.get(r)[2];
        }
        return ByteDfa.ofRanges(states.size(), 0, accepting, rangeStart, lo, hi, target);
    }

    /** Unanchored patterns whose partial matches are small loop cores, each entered at a state of its own. */
    static final String CORE_HUBS = """
            {"type": "object",
             "properties": {"code": {"type": "string", "pattern": "[0-9]{6}"}},
             "patternProperties": {"[0-9a-f]{32}": {"type": "object", "properties": {"url": {"type": "string"}}}}}
            """;

    @Test void hubWalksOfLoopCoresEqualPlainWalks() {
        long before = TerminalWalks.hubWalks();
        sharedWalksEqualPlainWalks(CORE_HUBS, 10);
        assertThat(TerminalWalks.hubWalks() - before).as("walks derived from a hub's").isGreaterThan(20);
    }

    /**
     * Keys and strings bounded within a long token's length (the vocabulary's longest tokens are runs of dashes,
     * underscores or spaces): their positions' bounded futures differ, but only on paths no token ends on, so
     * most of them share walks by near future ({@code NearFutures}).
     */
    static final String NEAR = """
            {"type": "object",
             "properties": {"rows": {"type": "object", "patternProperties": {"^[0-9a-zA-Z_-]{1,255}$": {"type": "integer"}},
                                     "additionalProperties": false},
                            "label": {"type": "string", "pattern": "^[a-z _-]*$", "maxLength": 160}},
             "required": ["rows"], "additionalProperties": false}
            """;

    @Test void nearWalksEqualPlainWalks() {
        long before = TerminalWalks.nearWalks();
        sharedWalksEqualPlainWalks(NEAR, 0);
        assertThat(TerminalWalks.nearWalks() - before).as("walks shared by near future").isGreaterThan(100);
    }

    @Test void sharedWalksEqualPlainWalks() {
        sharedWalksEqualPlainWalks(SCHEMA, 10);
        sharedWalksEqualPlainWalks(KEYS, 10);
        sharedWalksEqualPlainWalks(PATTERNS, 10);
        sharedWalksEqualPlainWalks(CHAINS, 0);
    }

    /** Chain positions further than a token from the chain's end share one walk (the same object). */
    @Test void chainPositionsShareWalks() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(CHAINS, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "walks.json", "json-schema", CHAINS,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        TerminalWalks walks = new TerminalWalks(VocabTrie.of(vocab));
        int states = 0;
        java.util.Set<TerminalWalks.Walk> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Terminal t : RuntimeAccess.of(a).terminals()) {
            ByteDfa dfa = t.dfa();
            // states grouped first (a walk that visits few nodes is computed per state until they are)
            walks.sameFutureAs(dfa, 0);
            for (int s = 0; s < dfa.stateCount(); s++) {
                distinct.add(walks.get(dfa, s, vocab.size()));
                states++;
            }
        }
        assertThat(states).isGreaterThan(250);
        assertThat(distinct.size()).as("distinct walks of %d states", states).isLessThan(states * 3 / 4);
    }

    private static void sharedWalksEqualPlainWalks(String schema, int minBig) {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(schema, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "walks.json", "json-schema", schema,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        TerminalWalks walks = new TerminalWalks(VocabTrie.of(vocab)); // fresh: nothing cached from other tests
        int checked = 0, big = 0;
        Terminal[] terminals = RuntimeAccess.of(a).terminals();
        for (int t = 0; t < terminals.length; t++) {
            ByteDfa dfa = terminals[t].dfa();
            for (int s = 0; s < dfa.stateCount(); s++) {
                TerminalWalks.Walk shared = walks.get(dfa, s, vocab.size());
                TerminalWalks.Walk plain = walks.compute(dfa, s, vocab.size());
                String where = terminals[t].name() + " state " + s;
                assertThat(shared.continuation().toArray()).as(where).isEqualTo(plain.continuation().toArray());
                assertThat(shared.endsAtRoot()).as(where).isEqualTo(plain.endsAtRoot());
                assertThat(endChildren(shared)).as(where).isEqualTo(endChildren(plain));
                assertThat(loopEnds(shared)).as(where).isEqualTo(loopEnds(plain));
                checked++;
                if (plain.continuation().size() > vocab.size() / 2) big++;
            }
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(big).as("states keeping most of the vocabulary (inside strings, other keys)").isGreaterThanOrEqualTo(minBig);
    }

    /**
     * A shared walk computed inside a tree build whose budget is spent ({@link BuildBudget}) gives up with the
     * build, and leaves nothing half-made: the walk computed afterwards, unbounded, equals the plain walk.
     */
    @Test void walksGivenUpWithTheirBuildLeaveNothingHalfMade() {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        int givenUp = 0, checked = 0;
        for (String schema : new String[] {SCHEMA, KEYS, HUBS}) {
            GrammarSources.Parsed parsed = GrammarSources.parse(schema, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
            Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "walks.json", "json-schema", schema,
                    parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
            TerminalWalks walks = new TerminalWalks(VocabTrie.of(vocab)); // fresh: nothing cached from other tests
            for (Terminal terminal : RuntimeAccess.of(a).terminals()) {
                ByteDfa dfa = terminal.dfa();
                for (int s = 0; s < dfa.stateCount(); s++) {
                    try {
                        BuildBudget.within(0, state -> walks.get(dfa, state, vocab.size()), s);
                    } catch (BuildBudget.Exceeded expected) {
                        givenUp++;
                        assertThat(walks.cachedWalk(dfa, s)).as("a walk given up is not cached").isNull();
                    }
                    TerminalWalks.Walk shared = walks.get(dfa, s, vocab.size());
                    TerminalWalks.Walk plain = walks.compute(dfa, s, vocab.size());
                    String where = terminal.name() + " state " + s;
                    assertThat(shared.continuation().toArray()).as(where).isEqualTo(plain.continuation().toArray());
                    assertThat(shared.endsAtRoot()).as(where).isEqualTo(plain.endsAtRoot());
                    assertThat(endChildren(shared)).as(where).isEqualTo(endChildren(plain));
                    assertThat(loopEnds(shared)).as(where).isEqualTo(loopEnds(plain));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(givenUp).as("walks large enough to give up (strings, other keys)").isGreaterThan(10);
    }

    /** A sparse automaton (byte ranges per state) walks the vocabulary exactly as its dense table does. */
    @Test void sparseWalksEqualDenseWalks() {
        sparseWalksEqualDenseWalks(SCHEMA);
        sparseWalksEqualDenseWalks(PATTERNS);
    }

    private static void sparseWalksEqualDenseWalks(String schema) {
        Vocabulary vocab = VocabularyLoader.load("cl100k_base", null).vocabulary();
        GrammarSources.Parsed parsed = GrammarSources.parse(schema, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), vocab, "walks.json", "json-schema", schema,
                parsed.applyTo(CompileOptions.defaults()).withLazy(true).withPrebuildMillis(0));
        int checked = 0;
        Terminal[] terminals = RuntimeAccess.of(a).terminals();
        for (int t = 0; t < terminals.length; t++) {
            ByteDfa dense = terminals[t].dfa().dense(), sparse = dense.sparse();
            assertThat(sparse.isDense()).isFalse();
            assertThat(sparse).isEqualTo(dense);
            TerminalWalks denseWalks = new TerminalWalks(VocabTrie.of(vocab)), sparseWalks = new TerminalWalks(VocabTrie.of(vocab));
            for (int s = 0; s < dense.stateCount(); s++) {
                for (int b = 0; b < 256; b++) assertThat(sparse.step(s, b)).isEqualTo(dense.step(s, b));
                String where = terminals[t].name() + " state " + s;
                for (boolean shared : new boolean[] {false, true}) {
                    TerminalWalks.Walk d = shared ? denseWalks.get(dense, s, vocab.size()) : denseWalks.compute(dense, s, vocab.size());
                    TerminalWalks.Walk w = shared ? sparseWalks.get(sparse, s, vocab.size()) : sparseWalks.compute(sparse, s, vocab.size());
                    assertThat(w.continuation().toArray()).as(where).isEqualTo(d.continuation().toArray());
                    assertThat(w.endsAtRoot()).as(where).isEqualTo(d.endsAtRoot());
                    assertThat(endChildren(w)).as(where).isEqualTo(endChildren(d));
                    assertThat(loopEnds(w)).as(where).isEqualTo(loopEnds(d));
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    /** (byte, node) pairs, sorted: the order within a byte is the walk's, not part of the contract. */
    private static long[] endChildren(TerminalWalks.Walk w) {
        long[] out = new long[w.endChildNode().length];
        int k = 0;
        for (int b = 0; b < 256; b++) {
            for (int i = w.endChildStart()[b]; i < w.endChildStart()[b + 1]; i++) out[k++] = ((long) b << 32) | w.endChildNode()[i];
        }
        Arrays.sort(out);
        return out;
    }

    private static long[] loopEnds(TerminalWalks.Walk w) {
        long[] out = new long[w.loopEndNodes().length];
        for (int i = 0; i < out.length; i++) out[i] = ((long) w.loopEndNodes()[i] << 32) | (w.loopEndBytes()[2 * i] & 0xffffffffL) ^ (w.loopEndBytes()[2 * i + 1] * 31);
        Arrays.sort(out);
        return out;
    }
}
