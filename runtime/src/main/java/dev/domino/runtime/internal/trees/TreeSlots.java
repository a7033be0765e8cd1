package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;

/**
 * The scanner states that own a tree, numbered densely: slot 0 is the between state, then per
 * terminal its automaton's states, and for a counted terminal with loop trees
 * ({@link CountedLoop#hasLoopTrees}) its loop's states again at count min (the representatives
 * of {@link CountedLoop#canonical}). Every other scanner state uses the tree of its canonical
 * state's slot.
 *
 * <p>Why slots and not scanner states: a counted terminal has counts × loop states scanner
 * states (21 million for a string of maxLength 10⁶) and 2 × 21 trees; tree tables indexed by
 * scanner state cost four bytes per state (84 MB there), tables by slot four per tree.
 *
 * <p>The order is {@link TreeOrder#treeStates}'s. Immutable, so thread-safe.
 */
public final class TreeSlots {
    private final ScannerStates scanner;
    /** Per terminal, its first slot. */
    private final int[] base;
    /** Per slot, its scanner state (the canonical one). */
    private final int[] state;

    public TreeSlots(ScannerStates scanner, int maxTokenBytes) {
        this.scanner = scanner;
        Terminal[] terminals = scanner.terminals();
        base = new int[terminals.length];
        long slots = 1;
        for (int t = 0; t < terminals.length; t++) {
            base[t] = (int) slots;
            slots += slotsOf(terminals[t], maxTokenBytes);
            if (slots > ScannerStates.MAX_STATES) throw new IllegalArgumentException("too many tree slots");
        }
        state = new int[(int) slots];
        for (int t = 0; t < terminals.length; t++) {
            int loopStates = terminals[t].dfa().stateCount(), offset = scanner.offset(t);
            for (int s = 0; s < loopStates; s++) state[base[t] + s] = offset + s;
            if (slotsOf(terminals[t], maxTokenBytes) > loopStates) {
                int countMin = terminals[t].counted().min() * loopStates;
                for (int s = 0; s < loopStates; s++) state[base[t] + loopStates + s] = offset + countMin + s;
            }
        }
    }

    private static int slotsOf(Terminal terminal, int maxTokenBytes) {
        int loopStates = terminal.dfa().stateCount();
        CountedLoop counted = terminal.counted();
        return counted != null && counted.hasLoopTrees(maxTokenBytes) ? 2 * loopStates : loopStates;
    }

    public int count() { return state.length; }

    /** The scanner state of a slot. */
    public int state(int slot) { return state[slot]; }

    /** The slot of a canonical scanner state (see {@link CountedLoop#canonical}). */
    public int slotOf(int canonicalState) {
        int t = scanner.terminalOf(canonicalState);
        return t < 0 ? 0 : slotOf(t, canonicalState - scanner.offset(t));
    }

    /** The slot of terminal t's canonical local state (see {@link CountedLoop#canonical}). */
    public int slotOf(int t, int local) {
        int canonicalState = scanner.offset(t) + local;
        Terminal terminal = scanner.terminal(t);
        int loopStates = terminal.dfa().stateCount();
        if (local < loopStates) return base[t] + local;
        CountedLoop counted = terminal.counted();
        int fromMin = counted == null ? -1 : local - counted.min() * loopStates;
        if (fromMin < 0 || fromMin >= loopStates || base[t] + loopStates + fromMin >= (t + 1 < base.length ? base[t + 1] : state.length)) {
            throw new IllegalArgumentException("scanner state " + canonicalState + " owns no tree");
        }
        return base[t] + loopStates + fromMin;
    }
}
