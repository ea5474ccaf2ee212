package dev.crucible.application.fakes;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Shared fixtures: a fixed clock, two tenants, models and trajectory groups. */
public final class Fixtures {

    public static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    public static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    public static final EntityName ACME = new EntityName("acme");
    public static final EntityName GLOBEX = new EntityName("globex");
    public static final Caller ACME_CALLER = new Caller(ACME, UUID.fromString("00000000-0000-0000-0000-00000000acde"));
    public static final Caller GLOBEX_CALLER = new Caller(GLOBEX, UUID.fromString("00000000-0000-0000-0000-0000000000b1"));
    public static final String BASE_MODEL = "qwen3-0.6b";

    private Fixtures() {
    }

    /** A model of {@code entity} over {@link #BASE_MODEL}, created at {@link #NOW}. */
    public static Model model(EntityName entity, String name, int latestStep) {
        return new Model(ModelId.random(), new ModelCoordinates(entity, "chat", name), BASE_MODEL, NOW, latestStep);
    }

    public static Trajectory trajectory(double reward) {
        History history = new History(List.of(HistoryItem.of(Map.of("role", "user", "content", "hi")),
                HistoryItem.of(Map.of("message", Map.of("role", "assistant", "content", "hello")))), List.of());
        return new Trajectory(history, List.of(), reward, Map.of());
    }

    public static TrajectoryGroup group(double... rewards) {
        return new TrajectoryGroup(Arrays.stream(rewards).mapToObj(Fixtures::trajectory).toList(), 0, Map.of());
    }
}
