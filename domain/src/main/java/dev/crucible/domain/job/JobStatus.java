package dev.crucible.domain.job;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.invariant.Nullable;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Lifecycle of a training job: {@code QUEUED → RUNNING → COMPLETED | FAILED | CANCELLED}; a queued job may
 * also fail or be cancelled before it starts. Each state carries what it knows.
 */
public sealed interface JobStatus {

    /** The API's name of the state. */
    default String wireName() {
        return switch (this) {
            case Queued _ -> "QUEUED";
            case Running _ -> "RUNNING";
            case Completed _ -> "COMPLETED";
            case Failed _ -> "FAILED";
            case Cancelled _ -> "CANCELLED";
        };
    }

    /** Whether the job has ended (no further transitions). */
    default boolean terminal() {
        return switch (this) {
            case Queued _, Running _ -> false;
            case Completed _, Failed _, Cancelled _ -> true;
        };
    }

    /** When the job started running; empty while queued, and for a job that failed or was cancelled unstarted. */
    default Optional<Instant> start() {
        return switch (this) {
            case Queued _ -> Optional.empty();
            case Running r -> Optional.of(r.startedAt());
            case Completed c -> Optional.of(c.startedAt());
            case Failed f -> Optional.ofNullable(f.startedAt());
            case Cancelled c -> Optional.ofNullable(c.startedAt());
        };
    }

    /** When the job ended; present exactly when the state is {@link #terminal()}. */
    default Optional<Instant> end() {
        return switch (this) {
            case Queued _, Running _ -> Optional.empty();
            case Completed c -> Optional.of(c.endedAt());
            case Failed f -> Optional.of(f.endedAt());
            case Cancelled c -> Optional.of(c.endedAt());
        };
    }

    /** Why the job did not complete: the failure's message or the cancellation's reason; empty otherwise. */
    default Optional<String> error() {
        return switch (this) {
            case Queued _, Running _, Completed _ -> Optional.empty();
            case Failed f -> Optional.of(f.errorMessage());
            case Cancelled c -> Optional.of(c.reason());
        };
    }

    /** The step of the checkpoint a completed job produced; empty in every other state. */
    default OptionalInt step() {
        return switch (this) {
            case Completed c -> OptionalInt.of(c.resultStep());
            case Queued _, Running _, Failed _, Cancelled _ -> OptionalInt.empty();
        };
    }

    /** The runner holding the job; present only while it is running. */
    default Optional<UUID> runner() {
        return switch (this) {
            case Running r -> Optional.of(r.runnerId());
            case Queued _, Completed _, Failed _, Cancelled _ -> Optional.empty();
        };
    }

    /** Waiting for a runner. */
    record Queued() implements JobStatus {
    }

    /** Claimed by the runner {@code runnerId} at {@code startedAt}. */
    record Running(Instant startedAt, UUID runnerId) implements JobStatus {
        public Running {
            NonNull.components(Running.class, startedAt, runnerId);
        }
    }

    /** Ended well; {@code resultStep} is the checkpoint it produced. */
    record Completed(Instant startedAt, Instant endedAt, int resultStep) implements JobStatus {
        public Completed {
            NonNull.components(Completed.class, startedAt, endedAt);
        }
    }

    /** Ended badly; {@code startedAt} is null when it failed before starting. */
    record Failed(@Nullable Instant startedAt, Instant endedAt, String errorMessage) implements JobStatus {
        public Failed {
            NonNull.components(Failed.class, endedAt, errorMessage);
        }
    }

    /** Stopped on request (its model was deleted); {@code startedAt} is null when it never started. */
    record Cancelled(@Nullable Instant startedAt, Instant endedAt, String reason) implements JobStatus {
        public Cancelled {
            NonNull.components(Cancelled.class, endedAt, reason);
        }
    }
}
