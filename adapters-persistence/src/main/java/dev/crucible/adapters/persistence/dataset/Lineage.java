package dev.crucible.adapters.persistence.dataset;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.model.ModelId;
import java.util.List;

/** The checkpoint reads lineage shares: which checkpoints learned from the datasets a condition picks. */
final class Lineage {

    private Lineage() {
    }

    /**
     * The distinct checkpoints whose {@code checkpoint_datasets} rows ({@code cd}) match {@code condition}, by model
     * then step.
     */
    static List<CheckpointRef> checkpoints(Sql sql, String condition, Object... params) {
        return sql.query("SELECT DISTINCT c.model_id, c.step FROM checkpoint_datasets cd "
                + "JOIN checkpoints c ON c.id = cd.checkpoint_id WHERE " + condition + " ORDER BY c.model_id, c.step",
                rs -> new CheckpointRef(new ModelId(Sql.uuid(rs, "model_id")), rs.getInt("step")), params);
    }
}
