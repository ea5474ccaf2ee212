package dev.crucible.adapters.http.role;

import dev.crucible.application.process.ProcessRole;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The routes a process answers by its role. A {@code worker} answers only its probes and metrics
 * ({@link #WORKER_ROUTES}); every other path is a 404, as on a server that has no such route. An {@code api} process
 * answers everything, the training primitives ({@code /api/v1/...}, Tinker's API) included: it queues their
 * operations for the worker that owns the run.
 */
public record RoleRoutes(ProcessRole role) {

    /** What a worker serves: liveness, readiness, the system check and Prometheus' scrape. */
    public static final Set<String> WORKER_ROUTES = Set.of("/v1/health", "/v1/health/ready", "/v1/system-check",
            "/metrics");

    /** Why this process does not answer {@code path}: its status and message; empty when it does. */
    public record Refused(int status, String message) {
    }

    public RoleRoutes {
        Objects.requireNonNull(role, "role");
    }

    /** Whether {@code path} (the request's path, without its query) is answered here; the reason when it is not. */
    public Optional<Refused> refusal(String path) {
        String p = path == null ? "" : path;
        return switch (role) {
            case ALL, API -> Optional.empty();
            case WORKER -> WORKER_ROUTES.contains(p) ? Optional.empty() : Optional.of(new Refused(404,
                    "this process has role worker: it trains and answers only " + String.join(", ",
                            WORKER_ROUTES.stream().sorted().toList()) + "; send API requests to a role api or all process"));
        };
    }
}
