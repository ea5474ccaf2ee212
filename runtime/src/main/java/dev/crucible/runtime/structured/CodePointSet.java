package dev.crucible.runtime.structured;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;

/**
 * A set of Unicode scalar values (code points without the surrogates, which UTF-8 cannot carry) as sorted,
 * disjoint, inclusive ranges. Immutable.
 */
record CodePointSet(List<int[]> ranges) {

    static final int MAX = 0x10FFFF;
    private static final int SURROGATE_MIN = 0xD800;
    private static final int SURROGATE_MAX = 0xDFFF;

    static final CodePointSet DIGIT = of('0', '9');
    static final CodePointSet WORD = of('a', 'z').union(of('A', 'Z')).union(DIGIT).union(of('_', '_'));
    static final CodePointSet SPACE = of(' ', ' ').union(of('\t', '\r'));
    static final CodePointSet ANY = of(0, MAX);

    CodePointSet {
        ranges = normalised(ranges);
    }

    static CodePointSet of(int min, int max) {
        return new CodePointSet(List.of(new int[] {min, max}));
    }

    static CodePointSet none() {
        return new CodePointSet(List.of());
    }

    CodePointSet union(CodePointSet other) {
        List<int[]> all = new ArrayList<>(ranges);
        all.addAll(other.ranges);
        return new CodePointSet(all);
    }

    /** Every scalar value not in this set. */
    CodePointSet complement() {
        List<int[]> out = new ArrayList<>();
        int next = 0;
        for (int[] r : ranges) {
            if (r[0] > next) {
                out.add(new int[] {next, r[0] - 1});
            }
            next = r[1] + 1;
        }
        if (next <= MAX) {
            out.add(new int[] {next, MAX});
        }
        return new CodePointSet(out);
    }

    CodePointSet minus(CodePointSet other) {
        return complement().union(other).complement();
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The automaton accepting exactly one code point of this set. */
    Automaton automaton() {
        if (ranges.isEmpty()) {
            return Automata.makeEmpty();
        }
        int[] starts = ranges.stream().mapToInt(r -> r[0]).toArray();
        int[] ends = ranges.stream().mapToInt(r -> r[1]).toArray();
        return Automata.makeCharClass(starts, ends);
    }

    /** Sorts, merges and drops the surrogate block. */
    private static List<int[]> normalised(List<int[]> given) {
        List<int[]> split = new ArrayList<>();
        for (int[] r : given) {
            int lo = Math.max(0, r[0]);
            int hi = Math.min(MAX, r[1]);
            if (lo <= Math.min(hi, SURROGATE_MIN - 1)) {
                split.add(new int[] {lo, Math.min(hi, SURROGATE_MIN - 1)});
            }
            if (Math.max(lo, SURROGATE_MAX + 1) <= hi) {
                split.add(new int[] {Math.max(lo, SURROGATE_MAX + 1), hi});
            }
        }
        split.sort(Comparator.comparingInt(r -> r[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] r : split) {
            if (!merged.isEmpty() && r[0] <= merged.getLast()[1] + 1) {
                merged.getLast()[1] = Math.max(merged.getLast()[1], r[1]);
            } else {
                merged.add(r.clone());
            }
        }
        return List.copyOf(merged);
    }
}
