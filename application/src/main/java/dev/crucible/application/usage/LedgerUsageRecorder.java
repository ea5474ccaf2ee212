package dev.crucible.application.usage;

import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.RecordedUsage;
import dev.crucible.domain.usage.TrainingUsage;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * Writes each completion's usage to the {@link UsageLedger}, and each training operation's to the
 * {@link TrainingUsageLedger}, on {@code writer}, off the generator's thread, so a
 * completion never waits for the database. A write that fails (the database away) is reported to
 * {@code onFailure} with the usage it lost; the completion itself has already been answered.
 *
 * @param writer    where the writes run; one thread keeps them to one database connection at a time
 * @param onFailure hears a failed or refused write and the usage it lost
 */
public record LedgerUsageRecorder(UsageLedger ledger, TrainingUsageLedger training, Executor writer,
        BiConsumer<RecordedUsage, RuntimeException> onFailure) implements UsageRecorder {

    public LedgerUsageRecorder {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(training, "training");
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(onFailure, "onFailure");
    }

    @Override
    public void record(RecordedUsage usage) {
        try {
            writer.execute(() -> {
                try {
                    switch (usage) {
                        case CompletionUsage completion -> ledger.add(completion);
                        case TrainingUsage operation -> training.add(operation);
                    }
                } catch (RuntimeException e) {
                    onFailure.accept(usage, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // the writer is shut down: the server is stopping
            onFailure.accept(usage, e);
        }
    }
}
