package dev.crucible.adapters.http.job;

import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.application.job.GetJobUseCase;
import dev.crucible.application.job.ListJobEventsUseCase;
import dev.crucible.domain.job.JobId;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.sse.Event;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code GET /v1/preview/training-jobs/{id}/events/stream}: a job's events as server-sent events, each as the
 * events list shows it with its id as the SSE id, from after {@code Last-Event-ID} (or the start), ending once the
 * job has ended and its last event is sent. The server reads new events every {@value #POLL_MS} ms; at most
 * {@value #STREAMS_PER_ENTITY} streams per entity are open (one more is a 429) and each closes after an hour (a
 * client reconnects with {@code Last-Event-ID}).
 */
@Controller("/v1/preview/training-jobs")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
final class JobEventStreamController {

    static final long POLL_MS = 250;
    static final int STREAMS_PER_ENTITY = 16;
    private static final Duration LONGEST = Duration.ofHours(1);

    private final GetJobUseCase jobs;
    private final ListJobEventsUseCase events;
    private final ConcurrentHashMap<EntityName, AtomicInteger> open = new ConcurrentHashMap<>();

    JobEventStreamController(GetJobUseCase jobs, ListJobEventsUseCase events) {
        this.jobs = jobs;
        this.events = events;
    }

    @Get(value = "/{training_job_id}/events/stream", produces = MediaType.TEXT_EVENT_STREAM)
    @ExecuteOn(TaskExecutors.BLOCKING)
    Publisher<Event<JobEventView>> stream(@Parameter(hidden = true) Caller caller,
            @PathVariable("training_job_id") String jobId,
            @Nullable @Header("Last-Event-ID") String lastEventId) {
        JobId job = new JobId(RequestParams.uuid("training_job_id", jobId));
        Optional<UUID> after = lastEventId == null ? Optional.empty()
                : Optional.of(RequestParams.uuid("Last-Event-ID", lastEventId));
        // refusals (another entity's job, a foreign cursor) are answered before the stream starts
        JobEventStream reader = new JobEventStream(jobs, events, caller, job, after);
        JobEventStream.Poll first = reader.poll();
        AtomicInteger slots = open.computeIfAbsent(caller.entity(), entity -> new AtomicInteger());
        if (slots.incrementAndGet() > STREAMS_PER_ENTITY) {
            slots.decrementAndGet();
            throw new RefusalException(Refusal.overloaded("more than " + STREAMS_PER_ENTITY
                    + " job event streams are open for this entity; close one or poll the events list",
                    Duration.ofSeconds(5)));
        }
        Flux<JobEventStream.Poll> later = Flux.interval(Duration.ofMillis(POLL_MS)).onBackpressureDrop()
                .concatMap(tick -> Mono.fromCallable(reader::poll).subscribeOn(Schedulers.boundedElastic()), 1);
        return Flux.concat(Mono.just(first), first.ended() ? Flux.empty() : later)
                .takeUntil(JobEventStream.Poll::ended)
                .take(LONGEST)
                .concatMapIterable(JobEventStream.Poll::events)
                .map(event -> Event.of(JobEventView.of(event)).id(event.id().toString()))
                .doFinally(signal -> slots.decrementAndGet());
    }
}
