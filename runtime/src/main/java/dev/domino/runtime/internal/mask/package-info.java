/**
 * How a matcher moves and masks at run time: the live (parser state, scanner state)
 * {@link dev.domino.runtime.internal.mask.Configurations}, the byte-stepping kernel
 * ({@link dev.domino.runtime.internal.mask.ByteStep}) that commits, dynamic checks and jump-forward share, the
 * exact walk of a configuration without its tree ({@link dev.domino.runtime.internal.mask.DirectMask}), and the
 * counters of how masks were served and what work they did. Reads parse, scan, trees and vocab; the matcher
 * calls it; nothing below calls back.
 */
package dev.domino.runtime.internal.mask;
