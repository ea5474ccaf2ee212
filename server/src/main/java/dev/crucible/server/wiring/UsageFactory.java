package dev.crucible.server.wiring;

import dev.crucible.application.usage.LedgerUsageRecorder;
import dev.crucible.application.usage.QueryTrainingUsageService;
import dev.crucible.application.usage.QueryTrainingUsageUseCase;
import dev.crucible.application.usage.QueryUsageService;
import dev.crucible.application.usage.QueryUsageUseCase;
import dev.crucible.application.usage.TrainingUsageLedger;
import dev.crucible.application.usage.UsageLedger;
import dev.crucible.application.usage.UsageRecorder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completion and training usage: one writer thread that adds each ended completion or training operation to its
 * ledger (off the generator's thread, one database connection at most), and the usage queries. On shutdown the
 * writer finishes what is queued, for up to ten seconds.
 */
@Factory
class UsageFactory {

    private static final Logger LOG = LoggerFactory.getLogger(UsageFactory.class);

    /** The writer's thread; closed after the use cases that feed it. */
    @Singleton
    @Named("usage-writer")
    @Bean(preDestroy = "close")
    UsageWriter usageWriter() {
        return new UsageWriter(Executors.newSingleThreadExecutor(Thread.ofPlatform().name("usage-writer")
                .daemon(true).factory()));
    }

    @Singleton
    UsageRecorder usageRecorder(UsageLedger ledger, TrainingUsageLedger training,
            @Named("usage-writer") UsageWriter writer) {
        return new LedgerUsageRecorder(ledger, training, writer.executor(), (usage, failure) -> LOG.error(
                "usage lost ({}): {}", usage, failure.toString()));
    }

    @Singleton
    QueryUsageUseCase queryUsage(UsageLedger ledger, Clock clock) {
        return new QueryUsageService(ledger, clock);
    }

    @Singleton
    QueryTrainingUsageUseCase queryTrainingUsage(TrainingUsageLedger ledger, Clock clock) {
        return new QueryTrainingUsageService(ledger, clock);
    }

    /** The writer's executor, shut down (queued writes finished first) when the server stops. */
    record UsageWriter(ExecutorService executor) implements AutoCloseable {

        @Override
        public void close() throws InterruptedException {
            executor.shutdown();
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("usage writes still queued after 10 s at shutdown: {} dropped",
                        executor.shutdownNow().size());
            }
        }
    }
}
