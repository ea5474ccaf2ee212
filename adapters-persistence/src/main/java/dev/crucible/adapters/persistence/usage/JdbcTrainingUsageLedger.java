package dev.crucible.adapters.persistence.usage;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.usage.TrainingUsageLedger;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.domain.usage.TrainingUsage;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Training usage in {@code training_usage}: an operation is added to its minute's row by one upsert, and read as
 * {@link JdbcUsageLedger} reads completions.
 */
@Singleton
@Transactional
class JdbcTrainingUsageLedger implements TrainingUsageLedger {

    private static final String ADD = JdbcUsageLedger.upsert("training_usage",
            List.of("trained_tokens", "forward_tokens"), "num_operations");

    private final Sql sql;

    JdbcTrainingUsageLedger(Sql sql) {
        this.sql = sql;
    }

    @Override
    public void add(TrainingUsage usage) {
        JdbcUsageLedger.add(sql, ADD, usage, usage.trainedTokens(), usage.forwardTokens());
    }

    @Override
    public List<Row> totals(UsageLedger.Selection selection) {
        return JdbcUsageLedger.totals(sql, "training_usage", "sum(trained_tokens), sum(forward_tokens), "
                + "sum(num_operations)", rs -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7)), selection);
    }
}
