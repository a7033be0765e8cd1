/**
 * Small shared utilities with no grammar knowledge: a byte-bounded LRU cache, process-wide cache registration
 * (so {@code RuntimeCaches} can bound the compiler's caches), int lists and int-array keys. Used by every other
 * internal package and by the compiler; uses none of them.
 */
package dev.domino.runtime.internal.util;
