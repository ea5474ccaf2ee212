package dev.crucible.adapters.http.health;

import dev.crucible.application.health.Check;
import dev.crucible.application.health.ReadinessUseCase;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /v1/health/ready}: whether to send this process traffic (a readiness probe), as opposed to
 * {@code /v1/health}, which only says the process serves (a liveness probe). No key needed.
 */
@Controller("/v1/health")
@Secured(SecurityRule.IS_ANONYMOUS)
final class ReadinessController {

    /** How long a prober should wait before asking again when not ready. */
    static final String RETRY_AFTER_SECONDS = "2";

    private final ReadinessUseCase readiness;

    ReadinessController(ReadinessUseCase readiness) {
        this.readiness = readiness;
    }

    @Get("/ready")
    @ExecuteOn(TaskExecutors.BLOCKING)
    @ApiResponse(responseCode = "200", description = "Ready: every part requests need answers",
            content = @Content(schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    @ApiResponse(responseCode = "503", description = "Not ready (the database is out of reach): the checks, the "
            + "failed one with its error; Retry-After says when to ask again",
            content = @Content(schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    HttpResponse<Map<String, Object>> ready() {
        Map<String, Check> checks = readiness.check();
        Map<String, Object> body = new LinkedHashMap<>();
        checks.forEach((name, check) -> body.put(name, CheckView.of(check)));
        if (checks.values().stream().allMatch(Check::success)) {
            return HttpResponse.ok(body);
        }
        return HttpResponse.<Map<String, Object>>status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).body(body);
    }
}
