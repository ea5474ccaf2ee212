package dev.crucible.adapters.persistence.trajectory;

import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Trajectory groups as JSON-shaped maps for {@code jsonb} columns, in ART's field names, and back. */
public final class TrajectoryJson {

    private TrajectoryJson() {
    }

    public static List<Map<String, Object>> write(List<TrajectoryGroup> groups) {
        return groups.stream().map(TrajectoryJson::group).toList();
    }

    @SuppressWarnings("unchecked")
    public static List<TrajectoryGroup> read(List<Object> json) {
        List<TrajectoryGroup> groups = new ArrayList<>();
        for (Object o : json) {
            Map<String, Object> g = (Map<String, Object>) o;
            List<Trajectory> trajectories = new ArrayList<>();
            for (Object t : (List<Object>) g.get("trajectories")) {
                trajectories.add(trajectory((Map<String, Object>) t));
            }
            groups.add(new TrajectoryGroup(trajectories, ((Number) g.get("exception_count")).intValue(),
                    metrics((Map<String, Object>) g.get("metrics"))));
        }
        return groups;
    }

    private static Map<String, Object> group(TrajectoryGroup g) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("trajectories", g.trajectories().stream().map(TrajectoryJson::trajectory).toList());
        out.put("exception_count", g.exceptionCount());
        out.put("metrics", g.metrics());
        return out;
    }

    private static Map<String, Object> trajectory(Trajectory t) {
        Map<String, Object> out = new LinkedHashMap<>(history(t.history()));
        out.put("additional_histories", t.additionalHistories().stream().map(TrajectoryJson::history).toList());
        out.put("reward", t.reward());
        out.put("metrics", t.metrics());
        return out;
    }

    private static Map<String, Object> history(History h) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messages_and_choices", h.items().stream().map(HistoryItem::json).toList());
        out.put("tools", h.tools());
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Trajectory trajectory(Map<String, Object> t) {
        List<History> extra = new ArrayList<>();
        for (Object h : (List<Object>) t.get("additional_histories")) {
            extra.add(history((Map<String, Object>) h));
        }
        return new Trajectory(history(t), extra, ((Number) t.get("reward")).doubleValue(),
                metrics((Map<String, Object>) t.get("metrics")));
    }

    @SuppressWarnings("unchecked")
    private static History history(Map<String, Object> h) {
        List<HistoryItem> items = new ArrayList<>();
        for (Object item : (List<Object>) h.get("messages_and_choices")) {
            items.add(HistoryItem.of((Map<String, Object>) item));
        }
        return new History(items, (List<Map<String, Object>>) (List<?>) h.get("tools"));
    }

    private static Map<String, Double> metrics(Map<String, Object> json) {
        Map<String, Double> out = new LinkedHashMap<>();
        json.forEach((k, v) -> out.put(k, ((Number) v).doubleValue()));
        return out;
    }
}
