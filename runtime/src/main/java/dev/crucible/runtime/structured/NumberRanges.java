package dev.crucible.runtime.structured;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/** JSON integers within optional bounds, written canonically (no leading zeros, no {@code -0}). Stateless. */
final class NumberRanges {

    private NumberRanges() {
    }

    /** The integers in [{@code min}, {@code max}]; an absent bound is unbounded. Bounds are within ±999999999. */
    static Automaton integer(Optional<Long> min, Optional<Long> max) {
        if (min.isEmpty() && max.isEmpty()) {
            return JsonLanguage.integer();
        }
        if (min.isPresent() && max.isPresent() && min.get() > max.get()) {
            return Automata.makeEmpty();
        }
        List<Automaton> parts = new ArrayList<>();
        if (max.isEmpty() || max.get() >= 0) {
            parts.add(magnitudes(Math.max(0, min.orElse(0L)), max));
        }
        if (min.isEmpty() || min.get() < 0) {
            long low = Math.max(1, max.map(m -> -m).orElse(1L));
            parts.add(JsonLanguage.seq(JsonLanguage.lit("-"), magnitudes(low, min.map(m -> -m))));
        }
        return Operations.union(parts);
    }

    /** The non-negative integers in [{@code low}, {@code high}]. */
    private static Automaton magnitudes(long low, Optional<Long> high) {
        Automaton canonical = RegexParser.parse("0|[1-9][0-9]*");
        if (high.isPresent()) {
            Automaton interval = Automata.makeDecimalInterval((int) low, high.get().intValue(), 0);
            return Operations.intersection(canonical, interval);
        }
        int digits = Long.toString(low).length();
        int top = (int) Math.min(Integer.MAX_VALUE, (long) Math.pow(10, digits) - 1);
        Automaton sameLength = Operations.intersection(canonical, Automata.makeDecimalInterval((int) low, top, 0));
        Automaton longer = RegexParser.parse("[1-9][0-9]{" + digits + ",}");
        return Operations.union(List.of(sameLength, longer));
    }
}
