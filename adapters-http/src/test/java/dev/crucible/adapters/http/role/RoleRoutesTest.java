package dev.crucible.adapters.http.role;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.process.ProcessRole;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** Which routes each role answers: all of them, all but the primitives, or only probes and metrics. */
class RoleRoutesTest {

    private static final List<String> API_ROUTES = List.of("/v1/chat/completions", "/v1/models",
            "/v1/preview/training-jobs", "/v1/files", "/console", "/openapi.json");

    @Test
    void roleAllAnswersEveryRoute() {
        RoleRoutes all = new RoleRoutes(ProcessRole.ALL);
        for (String path : List.of("/v1/chat/completions", "/api/v1/forward_backward", "/metrics", "/v1/health")) {
            assertEquals(Optional.empty(), all.refusal(path), path);
        }
    }

    @Test
    void aWorkerAnswersItsProbesAndMetricsAndNothingElse() {
        RoleRoutes worker = new RoleRoutes(ProcessRole.WORKER);
        for (String path : RoleRoutes.WORKER_ROUTES) {
            assertEquals(Optional.empty(), worker.refusal(path), path);
        }
        for (String path : API_ROUTES) {
            assertEquals(404, worker.refusal(path).orElseThrow().status(), path);
        }
    }

    @Test
    void anApiProcessAnswersEveryRouteThePrimitivesIncluded() {
        RoleRoutes api = new RoleRoutes(ProcessRole.API);
        for (String path : API_ROUTES) {
            assertEquals(Optional.empty(), api.refusal(path), path);
        }
        assertEquals(Optional.empty(), api.refusal("/api/v1/healthz"), "Tinker's probe");
        assertEquals(Optional.empty(), api.refusal("/api/v1/forward_backward"), "queued for the run's worker");
    }

    @Property
    void aWorkerRefusesEveryOtherPathWith404(@ForAll @StringLength(max = 40) String path) {
        Optional<RoleRoutes.Refused> refused = new RoleRoutes(ProcessRole.WORKER).refusal(path);
        assertEquals(RoleRoutes.WORKER_ROUTES.contains(path), refused.isEmpty(), path);
        refused.ifPresent(r -> assertEquals(404, r.status()));
    }

    @Test
    void rolesParseByNameInAnyCaseAndAnUnknownOneNamesTheKnown() {
        assertEquals(ProcessRole.WORKER, ProcessRole.parse(" Worker "));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ProcessRole.parse("trainer"));
        assertEquals("role must be one of all, api, worker, got 'trainer'", e.getMessage());
    }
}
