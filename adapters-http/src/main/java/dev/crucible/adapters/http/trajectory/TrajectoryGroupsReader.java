package dev.crucible.adapters.http.trajectory;

import dev.crucible.adapters.http.error.RefusalException;
import dev.crucible.adapters.http.json.JsonObject;
import dev.crucible.domain.common.ConfigReader;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads ART's serialized trajectory groups ({@code art-serverless.md} §2.1) into domain values, refusing a
 * wrong shape with the path of the field at fault. Unknown fields are ignored, as ART's server does.
 */
public final class TrajectoryGroupsReader {

    private TrajectoryGroupsReader() {
    }

    /** Reads array field {@code key} of {@code body} (required) as trajectory groups. */
    public static List<TrajectoryGroup> read(JsonObject body, String key) {
        body.requireArray(key);
        List<TrajectoryGroup> groups = new ArrayList<>();
        for (JsonObject group : body.objects(key)) {
            group.requireArray("trajectories");
            List<Trajectory> trajectories = new ArrayList<>();
            for (JsonObject t : group.objects("trajectories")) {
                trajectories.add(trajectory(t));
            }
            int exceptions = group.array("exceptions").map(List::size).orElse(0);
            groups.add(new TrajectoryGroup(trajectories, exceptions, metrics(group, "metrics")));
        }
        return groups;
    }

    private static Trajectory trajectory(JsonObject t) {
        List<History> extra = new ArrayList<>();
        for (JsonObject h : t.objects("additional_histories")) {
            extra.add(history(h));
        }
        return new Trajectory(history(t), extra, t.number("reward").orElse(0.0), metrics(t, "metrics"));
    }

    private static History history(JsonObject h) {
        h.requireArray("messages_and_choices");
        List<HistoryItem> items = new ArrayList<>();
        for (JsonObject item : h.objects("messages_and_choices")) {
            items.add(item(item));
        }
        return new History(items, h.objects("tools").stream().map(JsonObject::raw).toList());
    }

    private static HistoryItem item(JsonObject item) {
        if (HistoryItem.isChoice(item.raw())) {
            item.requireObject("message");
        } else {
            item.requireString("role");
        }
        return new HistoryItem(item.raw());
    }

    private static Map<String, Double> metrics(JsonObject owner, String key) {
        Map<String, Double> out = new LinkedHashMap<>();
        owner.object(key).ifPresent(m -> m.raw().forEach((name, value) -> {
            switch (value) {
                case null -> { }
                case Number n when Double.isFinite(n.doubleValue()) -> out.put(name, n.doubleValue());
                case Boolean b -> out.put(name, b ? 1.0 : 0.0);
                default -> throw RefusalException.invalid(m.path(name), m.path(name)
                        + " must be a number or a boolean, got " + ConfigReader.describe(value));
            }
        }));
        return out;
    }
}
