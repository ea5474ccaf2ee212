package dev.crucible.adapters.persistence.primitives;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.primitives.LoraSettings;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.SamplingSession;
import dev.crucible.application.primitives.SavedState;
import dev.crucible.application.primitives.TrainingRun;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/** Sessions, runs and sampling sessions in {@code primitive_sessions}, {@code training_runs}, {@code sampling_sessions}. */
@Singleton
@Transactional
class JdbcPrimitiveStore extends JdbcStore implements PrimitiveStore {

    private static final String RUN_COLUMNS = "model_id, entity, session_id, base_model, lora_rank, train_unembed, "
            + "train_mlp, train_attn, seed, created_at";

    private final ModelStore models;

    JdbcPrimitiveStore(Sql sql, Json json, ModelStore models) {
        super(sql, json);
        this.models = models;
    }

    @Override
    public void insertSession(UUID id, EntityName entity, List<String> tags, String sdkVersion, Instant now) {
        sql.update("INSERT INTO primitive_sessions (id, entity, tags, sdk_version, created_at, last_heartbeat_at) "
                + "VALUES (?, ?, ?::jsonb, ?, ?, ?)", id, entity.value(), json.write(tags), sdkVersion, now, now);
    }

    @Override
    public boolean heartbeat(EntityName entity, UUID session, Instant now) {
        return sql.update("UPDATE primitive_sessions SET last_heartbeat_at = ? WHERE id = ? AND entity = ?", now,
                session, entity.value()) == 1;
    }

    @Override
    public void insertRun(Model model, Checkpoint initial, TrainingRun run) {
        if (models.insertUnlessExists(model, initial).isPresent()) {
            throw new IllegalStateException("a model named " + model.coordinates() + " exists already");
        }
        LoraSettings lora = run.lora();
        sql.update("INSERT INTO training_runs (" + RUN_COLUMNS + ", last_request_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                + "?, ?, ?)", run.model().value(), run.entity().value(), run.session().orElse(null), run.baseModel(),
                lora.rank(), lora.trainUnembed(), lora.trainMlp(), lora.trainAttn(),
                lora.seed().isPresent() ? lora.seed().getAsLong() : null, run.createdAt(), run.createdAt());
    }

    @Override
    public Optional<TrainingRun> findRun(EntityName entity, ModelId model) {
        return sql.queryOne("SELECT " + RUN_COLUMNS + " FROM training_runs WHERE model_id = ? AND entity = ?",
                JdbcPrimitiveStore::run, model.value(), entity.value());
    }

    @Override
    public List<TrainingRun> listRuns(EntityName entity, int limit, int offset) {
        return sql.query("SELECT " + RUN_COLUMNS + " FROM training_runs WHERE entity = ? "
                + "ORDER BY created_at DESC, model_id LIMIT ? OFFSET ?", JdbcPrimitiveStore::run, entity.value(),
                limit, offset);
    }

    @Override
    public void insertSampler(SamplingSession s) {
        sql.update("INSERT INTO sampling_sessions (id, entity, session_id, base_model, model_id, step, model_path, "
                + "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", s.id(), s.entity().value(), s.session().orElse(null),
                s.baseModel(), s.run().map(ModelId::value).orElse(null),
                s.step().isPresent() ? s.step().getAsInt() : null, s.modelPath().orElse(null), s.createdAt());
    }

    @Override
    public Optional<SamplingSession> findSampler(EntityName entity, UUID id) {
        return sql.queryOne("SELECT * FROM sampling_sessions WHERE id = ? AND entity = ?", rs -> {
            int step = rs.getInt("step");
            OptionalInt stepOf = rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(step);
            return new SamplingSession(Sql.uuid(rs, "id"), new EntityName(rs.getString("entity")),
                    Optional.ofNullable(Sql.uuid(rs, "session_id")), rs.getString("base_model"),
                    Optional.ofNullable(Sql.uuid(rs, "model_id")).map(ModelId::new), stepOf,
                    Optional.ofNullable(rs.getString("model_path")), Sql.instant(rs, "created_at"));
        }, id, entity.value());
    }

    private static TrainingRun run(ResultSet rs) throws SQLException {
        long seed = rs.getLong("seed");
        OptionalLong seedOf = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(seed);
        return new TrainingRun(new ModelId(Sql.uuid(rs, "model_id")), new EntityName(rs.getString("entity")),
                Optional.ofNullable(Sql.uuid(rs, "session_id")), rs.getString("base_model"),
                new LoraSettings(rs.getInt("lora_rank"), rs.getBoolean("train_unembed"), rs.getBoolean("train_mlp"),
                        rs.getBoolean("train_attn"), seedOf), Sql.instant(rs, "created_at"));
    }

    @Override
    public void nameState(ModelId model, String kind, String name, int step, Instant now) {
        sql.update("INSERT INTO run_saved_states (model_id, kind, name, step, created_at) VALUES (?, ?, ?, ?, ?) "
                + "ON CONFLICT (model_id, kind, name) DO UPDATE SET step = EXCLUDED.step, created_at = EXCLUDED.created_at",
                model.value(), kind, name, step, now);
    }

    @Override
    public OptionalInt findState(EntityName entity, ModelId model, String kind, String name) {
        return sql.queryOne("SELECT s.step FROM run_saved_states s JOIN training_runs r ON r.model_id = s.model_id "
                + "WHERE s.model_id = ? AND r.entity = ? AND s.kind = ? AND s.name = ?", rs -> rs.getInt(1),
                model.value(), entity.value(), kind, name).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    @Override
    public int countRuns(EntityName entity) {
        return sql.queryOne("SELECT count(*) FROM training_runs WHERE entity = ?", rs -> rs.getInt(1), entity.value())
                .orElse(0);
    }

    @Override
    public Optional<Instant> lastRequestAt(ModelId model) {
        return sql.queryOne("SELECT created_at FROM training_operations WHERE model_id = ? "
                + "ORDER BY created_at DESC LIMIT 1", rs -> Sql.instant(rs, "created_at"), model.value());
    }

    @Override
    public List<SavedState> listStates(ModelId model) {
        return sql.query("SELECT kind, name, step, created_at FROM run_saved_states WHERE model_id = ? "
                + "ORDER BY created_at, step, kind, name", rs -> new SavedState(model, rs.getString("kind"),
                        rs.getString("name"), rs.getInt("step"), Sql.instant(rs, "created_at")), model.value());
    }

    @Override
    public boolean deleteState(ModelId model, String kind, String name) {
        return sql.update("DELETE FROM run_saved_states WHERE model_id = ? AND kind = ? AND name = ?", model.value(),
                kind, name) == 1;
    }

    @Override
    public boolean stepNamed(ModelId model, int step) {
        return sql.queryOne("SELECT 1 FROM run_saved_states WHERE model_id = ? AND step = ? LIMIT 1", rs -> true,
                model.value(), step).isPresent();
    }
}
