package dev.crucible.runtime.structured;

/** Looks into the code points of a pattern or grammar a parser reads, at a position it keeps itself. Stateless. */
final class SourceText {

    private SourceText() {
    }

    /** Whether {@code cps} holds the code point {@code c} at {@code pos}. */
    static boolean at(int[] cps, int pos, int c) {
        return pos < cps.length && cps[pos] == c;
    }

    /** Whether {@code cps} holds the code points of {@code s} from {@code pos} on. */
    static boolean startsWith(int[] cps, int pos, String s) {
        int[] want = s.codePoints().toArray();
        if (pos + want.length > cps.length) {
            return false;
        }
        for (int i = 0; i < want.length; i++) {
            if (cps[pos + i] != want[i]) {
                return false;
            }
        }
        return true;
    }
}
