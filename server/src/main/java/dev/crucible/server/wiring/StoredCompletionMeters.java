package dev.crucible.server.wiring;

import dev.crucible.application.completion.StoredCompletionWriter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

/**
 * The stored-completions writer as {@code crucible_stored_completions_dropped_total} (dropped because the queue was
 * full, the server stopping or a write failing), {@code crucible_stored_completions_written_total} and
 * {@code crucible_stored_completions_queued} (waiting to be written).
 */
@Singleton
final class StoredCompletionMeters implements MeterBinder {

    // A provider: the writer needs the store, whose data source's pool metrics need the registry this binds to.
    private final Provider<StoredCompletionWriter> writer;

    StoredCompletionMeters(Provider<StoredCompletionWriter> writer) {
        this.writer = writer;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("crucible.stored_completions.dropped", this, m -> m.writer.get().dropped())
                .description("Stored completions dropped instead of written").register(registry);
        FunctionCounter.builder("crucible.stored_completions.written", this, m -> m.writer.get().written())
                .description("Stored completions written").register(registry);
        Gauge.builder("crucible.stored_completions.queued", this, m -> m.writer.get().pending())
                .description("Stored completions waiting to be written").register(registry);
    }
}
