package dev.crucible.adapters.persistence.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.adapters.persistence.Trajectories;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.trajectory.TrajectoryJson;
import dev.crucible.application.model.TrajectoryLogStore;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Logged trajectories on a real PostgreSQL: the groups are stored as jsonb that reads back to the same groups. */
class JdbcTrajectoryLogStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();

    @Test
    void loggedGroupsReadBackFromTheirJsonbColumn() throws Exception {
        Model model = stores.model("ada", "m");
        List<TrajectoryGroup> groups = Trajectories.sample();

        stores.bean(TrajectoryLogStore.class).log(model.id(), "val", groups, Map.of());

        List<String> stored = new ArrayList<>();
        try (Connection c = stores.connection(); PreparedStatement read = c.prepareStatement(
                "SELECT split, trajectory_groups::text FROM trajectory_logs WHERE model_id = ?")) {
            read.setObject(1, model.id().value());
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    assertEquals("val", rs.getString(1));
                    stored.add(rs.getString(2));
                }
            }
        }
        assertEquals(1, stored.size());
        assertEquals(groups, TrajectoryJson.read(stores.bean(Json.class).readList(stored.getFirst())));
    }
}
