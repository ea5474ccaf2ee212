package dev.crucible.application.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.RecordedUsage;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageProject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** Usage is written on the writer, never on the caller's thread; a lost write is reported with its usage. */
class LedgerUsageRecorderTest {

    private static final EntityName ALICE = new EntityName("alice");
    private static final CompletionUsage USAGE = new CompletionUsage(ALICE, UsageProject.defaultOf(ALICE), "m",
            UUID.randomUUID(), Instant.EPOCH, 3, 4, 0);

    private final List<Runnable> queued = new ArrayList<>();
    private static final TrainingUsage TRAINED = new TrainingUsage(ALICE, UsageProject.defaultOf(ALICE), "m",
            UUID.randomUUID(), Instant.EPOCH, 5, 0);

    private final List<RecordedUsage> written = new ArrayList<>();
    private final TrainingUsageLedger training = new TrainingUsageLedger() {
        @Override
        public void add(TrainingUsage usage) {
            written.add(usage);
        }

        @Override
        public List<Row> totals(UsageLedger.Selection selection) {
            return List.of();
        }
    };
    private final List<String> lost = new ArrayList<>();

    private UsageLedger ledger(RuntimeException failure) {
        return new UsageLedger() {
            @Override
            public void add(CompletionUsage usage) {
                if (failure != null) {
                    throw failure;
                }
                written.add(usage);
            }

            @Override
            public List<Row> totals(Selection selection) {
                return List.of();
            }
        };
    }

    @Test
    void writesOnTheWriterNotOnTheCallersThread() {
        new LedgerUsageRecorder(ledger(null), training, queued::add, (u, e) -> lost.add(e.getMessage()))
                .record(USAGE);
        assertEquals(List.of(), written, "nothing written before the writer runs");
        queued.forEach(Runnable::run);
        assertEquals(List.of(USAGE), written);
    }

    @Test
    void trainingUsageGoesToTheTrainingLedger() {
        new LedgerUsageRecorder(ledger(null), training, queued::add, (u, e) -> lost.add(e.getMessage()))
                .record(TRAINED);
        queued.forEach(Runnable::run);
        assertEquals(List.of(TRAINED), written);
    }

    @Test
    void aFailedOrRefusedWriteIsReportedNotThrown() {
        new LedgerUsageRecorder(ledger(new IllegalStateException("database away")), training, queued::add,
                (u, e) -> lost.add(e.getMessage())).record(USAGE);
        queued.forEach(Runnable::run);
        Executor stopped = task -> {
            throw new RejectedExecutionException("shut down");
        };
        new LedgerUsageRecorder(ledger(null), training, stopped, (u, e) -> lost.add(e.getMessage())).record(USAGE);
        assertEquals(List.of("database away", "shut down"), lost);
    }
}
