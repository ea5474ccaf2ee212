package db.migration;

import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.kernel.refusal.Outcome;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Rewrites every stored job's settings in the shape the job store now writes: the {@code RlConfig} and
 * {@code SftConfig} records as they serialise. Until now the store wrote them in the client's field names
 * ({@code rl_config}, {@code sft_config}), and jobs stored before settings were resolved hold the client's raw
 * {@code experimental_config} (RL) or {@code config} (SFT); both are resolved here by the domain, as the store read
 * them until now. A config that no longer resolves (it was checked when the job was posted, so only a hand-edited row)
 * is left as it is and fails when its job is read, as it did before.
 */
public class V7__Job_settings_as_records extends BaseJavaMigration {

    private static final Argument<Map<String, Object>> OBJECT = Argument.mapOf(String.class, Object.class);

    private record Stored(UUID jobId, String type, String settings) {
    }

    @Override
    public void migrate(Context context) throws SQLException, IOException {
        Connection connection = context.getConnection();
        List<Stored> rows = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT job_id, spec->>'type', CASE spec->>'type' "
                + "WHEN 'RL' THEN COALESCE(spec->'rl_config', spec->'experimental_config') "
                + "ELSE COALESCE(spec->'sft_config', spec->'config') END::text FROM training_job_specs");
                ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                rows.add(new Stored(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)));
            }
        }
        ObjectMapper mapper = ObjectMapper.getDefault();
        try (PreparedStatement rl = connection.prepareStatement("UPDATE training_job_specs SET spec = "
                + "(spec - 'experimental_config') || jsonb_build_object('rl_config', CAST(? AS jsonb)) WHERE job_id = ?");
                PreparedStatement sft = connection.prepareStatement("UPDATE training_job_specs SET spec = "
                        + "(spec - 'config') || jsonb_build_object('sft_config', CAST(? AS jsonb)) WHERE job_id = ?")) {
            for (Stored row : rows) {
                Map<String, Object> settings = row.settings() == null || row.settings().equals("null") ? Map.of()
                        : mapper.readValue(row.settings(), OBJECT);
                Outcome<?> resolved = "RL".equals(row.type()) ? RlConfig.resolve(settings) : SftConfig.resolve(settings);
                if (resolved instanceof Outcome.Done<?> done) {
                    PreparedStatement update = "RL".equals(row.type()) ? rl : sft;
                    update.setString(1, mapper.writeValueAsString(done.value()));
                    update.setObject(2, row.jobId());
                    update.executeUpdate();
                }
            }
        }
    }
}
