package dev.crucible.adapters.http.trajectory;

import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads ART's serialized trajectory groups ({@code art-serverless.md} §2.1) into domain values (messages and sampled
 * choices typed as {@link HistoryItem}s, once, here), refusing a wrong shape with the path of the field at fault.
 * Unknown fields are ignored, as ART's server does. A sampled choice's logprobs are checked here too, down to each
 * entry's {@code token}, {@code logprob} and {@code bytes}, so that a malformed one is a 400 when the job is posted,
 * not a failed job later; whether a token names a token of the model is the trainer's to find, since only it has the
 * vocabulary.
 */
public final class TrajectoryGroupsReader {

    private static final String TOKEN_ID = "token_id:";

    private TrajectoryGroupsReader() {
    }

    /** Reads array field {@code key} of {@code body} (required) as trajectory groups. */
    public static List<TrajectoryGroup> read(JsonReader body, String key) {
        body.requireArray(key);
        List<TrajectoryGroup> groups = new ArrayList<>();
        for (JsonReader group : body.objects(key)) {
            group.requireArray("trajectories");
            List<Trajectory> trajectories = new ArrayList<>();
            for (JsonReader t : group.objects("trajectories")) {
                trajectories.add(trajectory(t));
            }
            int exceptions = group.array("exceptions").map(List::size).orElse(0);
            groups.add(new TrajectoryGroup(trajectories, exceptions, metrics(group, "metrics")));
        }
        return groups;
    }

    private static Trajectory trajectory(JsonReader t) {
        List<History> extra = new ArrayList<>();
        for (JsonReader h : t.objects("additional_histories")) {
            extra.add(history(h));
        }
        return new Trajectory(history(t), extra, t.number("reward").orElse(0.0), metrics(t, "metrics"));
    }

    private static History history(JsonReader h) {
        h.requireArray("messages_and_choices");
        List<HistoryItem> items = new ArrayList<>();
        for (JsonReader item : h.objects("messages_and_choices")) {
            items.add(item(item));
        }
        return new History(items, h.objects("tools").stream().map(JsonReader::raw).toList());
    }

    private static HistoryItem item(JsonReader item) {
        if (HistoryItem.isChoice(item.raw())) {
            item.requireObject("message");
            choice(item);
        } else {
            item.requireString("role");
        }
        return HistoryItem.of(item.raw());
    }

    /** The parts of a sampled choice the trainer reads: {@code token_ids} and {@code logprobs.content}. */
    private static void choice(JsonReader choice) {
        List<Object> tokenIds = choice.array("token_ids").orElse(List.of());
        for (int i = 0; i < tokenIds.size(); i++) {
            if (!(tokenIds.get(i) instanceof Number n) || !integral(n) || n.longValue() < 0) {
                String at = choice.path("token_ids") + "[" + i + "]";
                throw RefusalException.invalid(at, at + " must be a token id (an integer >= 0), got "
                        + JsonReader.describe(tokenIds.get(i)));
            }
        }
        Optional<JsonReader> logprobs = choice.object("logprobs");
        if (logprobs.isEmpty()) {
            return;
        }
        for (JsonReader entry : logprobs.get().objects("content")) {
            entry.string("token").filter(t -> t.startsWith(TOKEN_ID)).ifPresent(t -> {
                if (!t.substring(TOKEN_ID.length()).matches("[0-9]{1,9}")) {
                    throw RefusalException.invalid(entry.path("token"), entry.path("token")
                            + " must name a token id after '" + TOKEN_ID + "' (as token_id:151643), got '" + t + "'");
                }
            });
            Object logprob = entry.raw().get("logprob");
            if (logprob != null && !(logprob instanceof Number)) {
                throw RefusalException.invalid(entry.path("logprob"), entry.path("logprob") + " must be a number, got "
                        + JsonReader.describe(logprob));
            }
            List<Object> bytes = entry.array("bytes").orElse(List.of());
            for (int b = 0; b < bytes.size(); b++) {
                if (!(bytes.get(b) instanceof Number n) || !integral(n) || n.intValue() < 0 || n.intValue() > 255) {
                    String at = entry.path("bytes") + "[" + b + "]";
                    throw RefusalException.invalid(at, at + " must be a byte (0 to 255), got "
                            + JsonReader.describe(bytes.get(b)));
                }
            }
        }
    }

    private static boolean integral(Number n) {
        return n.doubleValue() == Math.rint(n.doubleValue()) && Double.isFinite(n.doubleValue());
    }

    private static Map<String, Double> metrics(JsonReader owner, String key) {
        Map<String, Double> out = new LinkedHashMap<>();
        owner.object(key).ifPresent(m -> m.raw().forEach((name, value) -> {
            switch (value) {
                case null -> { }
                case Number n when Double.isFinite(n.doubleValue()) -> out.put(name, n.doubleValue());
                case Boolean b -> out.put(name, b ? 1.0 : 0.0);
                default -> throw RefusalException.invalid(m.path(name), m.path(name)
                        + " must be a number or a boolean, got " + JsonReader.describe(value));
            }
        }));
        return out;
    }
}
