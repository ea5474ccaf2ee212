package dev.crucible.domain.trajectory;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One conversation of a trajectory.
 *
 * @param items messages and sampled choices in order
 * @param tools the OpenAI function tools offered, empty when none
 */
public record History(List<HistoryItem> items, List<Map<String, Object>> tools) {

    public History {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
    }
}
