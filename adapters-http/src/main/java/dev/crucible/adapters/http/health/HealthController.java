package dev.crucible.adapters.http.health;

import dev.crucible.application.health.Check;
import dev.crucible.application.health.Health;
import dev.crucible.application.health.HealthUseCase;
import dev.crucible.application.health.SystemCheckUseCase;
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
 * {@code /v1/health} (the process serves: 503 while a model's generation has stopped and it is being reloaded) and
 * {@code /v1/system-check} (every part works); no key needed.
 */
@Controller("/v1")
@Secured(SecurityRule.IS_ANONYMOUS)
record HealthController(SystemCheckUseCase systemChecks, HealthUseCase serving) {

    @Get("/health")
    @ApiResponse(responseCode = "200", description = "The process serves: {\"status\": \"ok\"}")
    @ApiResponse(responseCode = "503", description = "A model's generation stopped and it is being reloaded: "
            + "{\"status\": \"unhealthy\", \"models\": {name: why}}")
    HttpResponse<Map<String, Object>> health() {
        Health now = serving.health();
        if (now.ok()) {
            return HttpResponse.ok(Map.of("status", "ok"));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "unhealthy");
        body.put("models", now.failedModels());
        return HttpResponse.<Map<String, Object>>status(HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }

    @Get("/system-check")
    @ExecuteOn(TaskExecutors.BLOCKING)
    @ApiResponse(responseCode = "200", description = "Every check succeeded",
            content = @Content(schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    @ApiResponse(responseCode = "503", description = "A check failed: the same checks, that one with its error",
            content = @Content(schema = @Schema(ref = "#/components/schemas/SystemCheck")))
    HttpResponse<Map<String, Object>> systemCheck() {
        Map<String, Check> checks = systemChecks.check();
        Map<String, Object> body = new LinkedHashMap<>();
        checks.forEach((name, check) -> body.put(name, CheckView.of(check)));
        boolean healthy = checks.values().stream().allMatch(Check::success);
        return HttpResponse.<Map<String, Object>>status(healthy ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }
}
