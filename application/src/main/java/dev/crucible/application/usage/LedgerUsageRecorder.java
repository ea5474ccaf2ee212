package dev.crucible.application.usage;

import dev.crucible.domain.usage.CompletionUsage;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * Writes each completion's usage to the {@link UsageLedger} on {@code writer}, off the generator's thread, so a
 * completion never waits for the database. A write that fails (the database away) is reported to
 * {@code onFailure} with the usage it lost; the completion itself has already been answered.
 *
 * @param writer    where the writes run; one thread keeps them to one database connection at a time
 * @param onFailure hears a failed or refused write and the usage it lost
 */
public record LedgerUsageRecorder(UsageLedger ledger, Executor writer,
        BiConsumer<CompletionUsage, RuntimeException> onFailure) implements UsageRecorder {

    public LedgerUsageRecorder {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(onFailure, "onFailure");
    }

    @Override
    public void record(CompletionUsage usage) {
        try {
            writer.execute(() -> {
                try {
                    ledger.add(usage);
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
