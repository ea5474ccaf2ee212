package dev.crucible.runtime.generation.stopping;

import java.util.List;
import java.util.Optional;

/**
 * The stop strings of one request, searched as vLLM's {@code check_stop_strings}: in list order, only where a match
 * overlaps the newly added text; the first match wins. Lengths are in UTF-16 chars. Immutable.
 */
public final class StopStrings {

    /** A match: the stop string and the length the text is cut to. */
    public record Match(String stop, int cutAt) {
    }

    private final List<String> stops;
    private final boolean includeInOutput;

    public StopStrings(List<String> stops, boolean includeInOutput) {
        this.stops = List.copyOf(stops);
        this.includeInOutput = includeInOutput;
    }

    /** Whether stop strings and stop tokens' text stay in the output ({@code include_stop_str_in_output}). */
    public boolean includesStops() {
        return includeInOutput;
    }

    public boolean isEmpty() {
        return stops.isEmpty();
    }

    /**
     * How many trailing chars streaming must hold back so a stop string's start is never sent: the longest stop
     * string less one, or 0 when stop strings are kept in the output (vLLM's {@code stop_buffer_length}).
     */
    public int holdBack() {
        return includeInOutput ? 0 : stops.stream().mapToInt(String::length).max().orElse(1) - 1;
    }

    /** The first stop string overlapping the last {@code newChars} chars of {@code text}, with where to cut. */
    public Optional<Match> find(String text, int newChars) {
        for (String stop : stops) {
            int index = text.indexOf(stop, Math.max(0, text.length() + 1 - newChars - stop.length()));
            if (index >= 0) {
                return Optional.of(new Match(stop, includeInOutput ? index + stop.length() : index));
            }
        }
        return Optional.empty();
    }
}
