package dev.crucible.adapters.http.health;

import dev.crucible.application.health.Check;
import dev.crucible.application.health.SystemCheckUseCase;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
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

/** {@code /v1/health} (the process serves) and {@code /v1/system-check} (every part works); no key needed. */
@Controller("/v1")
@Secured(SecurityRule.IS_ANONYMOUS)
final class HealthController {

    private final SystemCheckUseCase systemCheck;

    HealthController(SystemCheckUseCase systemCheck) {
        this.systemCheck = systemCheck;
    }

    @Get("/health")
    Map<String, String> health() {
        return Map.of("status", "ok");
    }

    @Get("/system-check")
    @ExecuteOn(TaskExecutors.BLOCKING)
    @ApiResponse(responseCode = "200", description = "Every check succeeded", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    @ApiResponse(responseCode = "503", description = "A check failed: the same checks, that one with its error",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    HttpResponse<Map<String, Object>> systemCheck() {
        Map<String, Check> checks = systemCheck.check();
        Map<String, Object> body = new LinkedHashMap<>();
        checks.forEach((name, check) -> body.put(name, CheckView.of(check)));
        boolean healthy = checks.values().stream().allMatch(Check::success);
        return HttpResponse.<Map<String, Object>>status(healthy ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }
}
