package dev.domino.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled grammar bound to one vocabulary: terminals, parser grammar, and the subterminal
 * trees of every scanner state. Immutable and thread-safe: load it once, then create one
 * {@link Matcher} per request.
 *
 * <p>Scanner states are numbered globally: 0 is "between terminals"; terminal t's automaton
 * state s is {@code stateOffset(t) + s}.
 */
public final class Artifact {
    public static final int BETWEEN = 0;

    private final ArtifactInfo info;
    private final Vocabulary vocabulary;
    private final Terminal[] terminals;
    private final ParserGrammar grammar;
    private final TokenSets tokenSets;
    private final TokenTree[] trees;
    private final int[] treeOfState;

    // derived
    private final int[] stateOffset;
    private final int[] stateTerminal;
    private final int[] stateLocal;
    final int[][] terminalsByFirstByte;
    final EarleyParser parser;
    final int vocabWords;

    public Artifact(ArtifactInfo info, Vocabulary vocabulary, Terminal[] terminals, ParserGrammar grammar,
                    TokenSets tokenSets, TokenTree[] trees, int[] treeOfState) {
        this.info = info;
        this.vocabulary = vocabulary;
        this.terminals = terminals;
        this.grammar = grammar;
        this.tokenSets = tokenSets;
        this.trees = trees;
        this.treeOfState = treeOfState;
        if (grammar.terminalCount() != terminals.length) throw new IllegalArgumentException("terminal count mismatch");

        stateOffset = new int[terminals.length];
        int states = 1;
        for (int t = 0; t < terminals.length; t++) { stateOffset[t] = states; states += terminals[t].dfa().stateCount(); }
        stateTerminal = new int[states];
        stateLocal = new int[states];
        stateTerminal[0] = -1;
        for (int t = 0; t < terminals.length; t++) {
            for (int s = 0; s < terminals[t].dfa().stateCount(); s++) {
                stateTerminal[stateOffset[t] + s] = t;
                stateLocal[stateOffset[t] + s] = s;
            }
        }
        if (treeOfState.length != states) throw new IllegalArgumentException("tree index has " + treeOfState.length + " states, expected " + states);
        for (int tree : treeOfState) if (tree < 0 || tree >= trees.length) throw new IllegalArgumentException("bad tree index");
        vocabWords = (vocabulary.size() + 63) >>> 6;
        for (TokenTree tree : trees) validate(tree);

        terminalsByFirstByte = new int[256][];
        for (int b = 0; b < 256; b++) {
            List<Integer> list = new ArrayList<>();
            for (int t = 0; t < terminals.length; t++) {
                ByteDfa dfa = terminals[t].dfa();
                if (dfa.step(dfa.start(), b) >= 0) list.add(t);
            }
            terminalsByFirstByte[b] = list.stream().mapToInt(Integer::intValue).toArray();
        }
        boolean[] ignored = new boolean[terminals.length];
        for (int t = 0; t < terminals.length; t++) ignored[t] = terminals[t].ignored();
        parser = new EarleyParser(grammar, ignored);
    }

    private void validate(TokenTree tree) {
        for (int t : tree.edgeTerminal) if (t < 0 || t >= terminals.length) throw new IllegalArgumentException("tree edge names unknown terminal " + t);
        for (int t : tree.groupTerminal) if (t < 0 || t >= terminals.length) throw new IllegalArgumentException("tree group names unknown terminal " + t);
        for (int s : tree.groupSet) if (s < 0 || s >= tokenSets.count()) throw new IllegalArgumentException("tree names unknown token set " + s);
        for (int id : tree.dynamicTokens) if (id < 0 || id >= vocabulary.size()) throw new IllegalArgumentException("dynamic token outside vocabulary");
    }

    /** Loads an artifact file (see {@link ArtifactFormat} for the errors it reports). */
    public static Artifact load(Path path) throws IOException { return ArtifactFormat.read(path); }

    public static Artifact load(InputStream in) throws IOException { return ArtifactFormat.read(in); }

    /** A fresh matcher at the start of the output, with unlimited lookahead. */
    public Matcher newMatcher() { return new Matcher(this, Matcher.UNLIMITED_LOOKAHEAD); }

    public Matcher newMatcher(int lookahead) { return new Matcher(this, lookahead); }

    public ArtifactInfo info() { return info; }
    public Vocabulary vocabulary() { return vocabulary; }
    public int terminalCount() { return terminals.length; }
    public Terminal terminal(int t) { return terminals[t]; }
    public ParserGrammar grammar() { return grammar; }
    public TokenSets tokenSets() { return tokenSets; }
    public int treeCount() { return trees.length; }
    public TokenTree tree(int index) { return trees[index]; }
    public int scannerStateCount() { return treeOfState.length; }
    public TokenTree treeOfState(int scannerState) { return trees[treeOfState[scannerState]]; }
    public int treeIndexOfState(int scannerState) { return treeOfState[scannerState]; }
    public int stateOffset(int terminal) { return stateOffset[terminal]; }
    /** Terminal of a scanner state, or -1 for {@link #BETWEEN}. */
    public int stateTerminal(int scannerState) { return stateTerminal[scannerState]; }
    public int stateLocal(int scannerState) { return stateLocal[scannerState]; }
    public EarleyParser parser() { return parser; }

    /** Display name of a scanner state: {@code between} or {@code TERMINAL:s}. */
    public String stateName(int scannerState) {
        if (scannerState == BETWEEN) return "between";
        return terminals[stateTerminal[scannerState]].name() + ":" + stateLocal[scannerState];
    }

    int[] treeOfStateArray() { return treeOfState; }
    Terminal[] terminalsArray() { return terminals; }
    TokenTree[] treesArray() { return trees; }
}
