package dev.crucible.server.wiring;

import dev.crucible.application.job.JobStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Training jobs by state as {@code crucible_jobs{state="queued"}} and so on, over all entities. One query answers
 * every state's gauge: the counts are read at most once a second, however many gauges a scrape reads.
 */
@Singleton
final class JobMeters implements MeterBinder {

    private static final List<String> STATES = List.of("QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED");
    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();

    // A provider: the job store needs the data source, whose pool metrics need the meter registry this binds to.
    private final Provider<JobStore> jobs;
    private Map<String, Long> counts = Map.of();
    private long readAt = Long.MIN_VALUE;

    JobMeters(Provider<JobStore> jobs) {
        this.jobs = jobs;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String state : STATES) {
            Gauge.builder("crucible.jobs", this, meters -> meters.count(state))
                    .description("Training jobs in each state, over all entities")
                    .tag("state", state.toLowerCase(Locale.ROOT)).register(registry);
        }
    }

    private synchronized double count(String state) {
        long now = System.nanoTime();
        if (readAt == Long.MIN_VALUE || now - readAt > FRESH_NANOS) {
            counts = jobs.get().countByStatus();
            readAt = now;
        }
        return counts.getOrDefault(state, 0L);
    }
}
