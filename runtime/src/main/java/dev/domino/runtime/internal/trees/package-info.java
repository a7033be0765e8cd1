/**
 * Subterminal token trees (DOMINO's T_q): one {@link dev.domino.runtime.internal.trees.TokenTree} per scanner
 * state, built by walking the vocabulary trie with the scanner ({@link dev.domino.runtime.internal.trees.TreeBuilder},
 * {@link dev.domino.runtime.internal.trees.TerminalWalks}), their shared {@link dev.domino.runtime.internal.trees.TokenSet}s,
 * and the lazy side: which states own a tree, in which order, built on first use or in the background. The
 * compiler builds eager trees ahead; the artifact builds lazy ones; masks read them.
 */
package dev.domino.runtime.internal.trees;
