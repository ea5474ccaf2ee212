package dev.crucible.server.wiring;

import dev.crucible.application.completion.StoredCompletionService;
import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.application.completion.StoredCompletionWriter;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stored completions: the writer that keeps {@code store: true} answers off the answer's path (a queue of
 * {@code crucible.stored-completions.queue} completions, batches of at most
 * {@code crucible.stored-completions.batch}, one thread; a full queue drops and logs) and the use cases that read
 * them back. On shutdown the writer writes what is queued, for up to ten seconds.
 */
@Factory
class CompletionFactory {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    StoredCompletionWriter storedCompletionWriter(StoredCompletionStore store,
            DatasetSettings.StoredCompletions settings) {
        return new StoredCompletionWriter(store, settings.queue(), settings.batch(), (count, why) -> LOG.warn(
                "{} stored completion(s) dropped: {}", count, why),
                Thread.ofPlatform().name("stored-completions-writer").daemon(true).factory());
    }

    @Singleton
    StoredCompletionService storedCompletions(StoredCompletionStore store) {
        return new StoredCompletionService(store);
    }
}
