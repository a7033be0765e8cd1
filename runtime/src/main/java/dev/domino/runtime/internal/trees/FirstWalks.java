package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.List;

/**
 * The terminal walks the first masks inside each terminal compute when no tree is built there yet: for every
 * terminal, the walk of its start (a mask between terminals) and of each state one byte in (a mask just after a
 * string's opening quote), chosen as {@code DirectMask} chooses them (the loop
 * automaton's plain walk where no token reaches the count's bounds, else its {@link CountedWalk}). A background task
 * computes them, one at a time, before it builds trees, so that those masks find them in the process-wide caches of
 * {@link TerminalWalks}.
 *
 * <p>Why: a new schema's first mask inside a string with {@code maxLength} (or a pattern) walked the whole string part
 * of the vocabulary on the mask thread, because the background task was still building the trees of states before it;
 * a tree's build computes its state's walks, but the tree of the string's first
 * state came too late. The walks are cheaper than the trees and shared by every artifact of the process.
 *
 * <p>Thread-safe: each task takes the next walk (the walk caches are thread-safe).
 */
final class FirstWalks {
    private final Terminal[] terminals;
    private final TerminalWalks walks;
    private final int vocabSize;
    /** The vocabulary's longest token in bytes (Λ of {@link CountedLoop}). */
    private final int lambda;
    /** (terminal, local state, at start) triples to walk, in the order of the trees' build order. */
    private final int[] todo;
    private int next;

    /**
     * @param statesInOrder tree states as {terminal, local, global} (see {@link TreeOrder#treeStates}), in build order
     */
    FirstWalks(Terminal[] terminals, List<int[]> statesInOrder, VocabTrie trie, int vocabSize) {
        this.terminals = terminals;
        this.walks = trie.walks();
        this.vocabSize = vocabSize;
        this.lambda = trie.maxTokenBytes();
        boolean[] seen = new boolean[terminals.length];
        dev.domino.runtime.internal.util.IntList out = new dev.domino.runtime.internal.util.IntList();
        for (int[] st : statesInOrder) { // terminals in the order their first tree comes
            int t = st[0];
            if (t < 0 || seen[t] || terminals[t].tokens() != null) continue;
            seen[t] = true;
            Terminal terminal = terminals[t];
            out.add(t);
            out.add(terminal.start());
            out.add(1);
            java.util.BitSet in = oneByteIn(terminal);
            for (int q = in.nextSetBit(0); q >= 0; q = in.nextSetBit(q + 1)) {
                if (q == terminal.start()) continue;
                out.add(t);
                out.add(q);
                out.add(0);
            }
        }
        todo = out.toArray();
    }

    /** The states one byte after the terminal's start. */
    private static java.util.BitSet oneByteIn(Terminal terminal) {
        java.util.BitSet r = new java.util.BitSet();
        for (int b = 0; b < 256; b++) {
            int q = terminal.startStep(b);
            if (q >= 0) r.set(q);
        }
        return r;
    }

    /** Computes the next walk (nothing when it is cached already); false when none is left. */
    boolean step() {
        int i;
        synchronized (this) {
            if (next >= todo.length) return false;
            i = next;
            next += 3;
        }
        int t = todo[i], local = todo[i + 1];
        boolean atStart = todo[i + 2] != 0;
        Terminal terminal = terminals[t];
        ByteDfa dfa = terminal.dfa();
        CountedLoop counted = terminal.counted();
        if (atStart) { // a mask between terminals starts it at the token's first byte (DirectMask.startAtRoot)
            if (counted == null || counted.plainEntry(lambda)) walks.get(dfa, dfa.start(), vocabSize);
            else walks.counted(dfa, counted, counted.loopState(dfa.start()), vocabSize);
        } else if (counted == null) walks.get(dfa, local, vocabSize);
        // a mask inside it at this state (DirectMask.addConfiguration)
        else if (counted.sharesLoopTree(local, lambda)) walks.get(dfa, counted.loopState(local), vocabSize);
        else walks.counted(dfa, counted, counted.loopState(local), vocabSize);
        return true;
    }
}
