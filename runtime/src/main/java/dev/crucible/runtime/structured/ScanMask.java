package dev.crucible.runtime.structured;

import java.util.BitSet;

/**
 * The cacheable part of a grammar mask (see {@link TokenVocabulary#scanMask}): the tokens allowed while only the
 * terminals under way move, and the trie nodes where one of them can end, below which the parse decides.
 * Shared: callers must not modify {@code allowed}.
 *
 * @param allowed    tokens allowed on the terminals alone, including those ending at a boundary
 * @param boundaries trie nodes reached by a byte at which some terminal accepts
 */
record ScanMask(BitSet allowed, int[] boundaries) {
}
