package dev.crucible.adapters.http.metrics;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.kernel.refusal.Refusal;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.annotation.Value;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;

/**
 * Prometheus' scrape target: every meter of the registry (vLLM's serving names with a {@code model_name} label,
 * Crucible's own under {@code crucible_}, HTTP requests by route and status, JVM, process and connection pool) in
 * the text exposition format. Who may read it is {@link MetricsAccess}'s call.
 */
@Controller("/metrics")
@Secured(SecurityRule.IS_ANONYMOUS)
final class MetricsController {

    /** Prometheus' text exposition format, version 0.0.4, which every Prometheus-compatible scraper reads. */
    static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final MetricsAccess access;

    MetricsController(PrometheusMeterRegistry registry, @Value("${crucible.metrics.access:key}") String access) {
        this.registry = registry;
        this.access = MetricsAccess.parse(access);
    }

    @Get(produces = TEXT_FORMAT)
    String scrape(HttpRequest<?> request) {
        boolean keyed = request.getUserPrincipal(Authentication.class).isPresent();
        if (!access.allows(keyed)) {
            throw new RefusalException(new Refusal(Refusal.Reason.UNAUTHENTICATED,
                    "metrics need an API key as a bearer token, from any address (setting crucible.metrics.access)",
                    null));
        }
        return registry.scrape();
    }
}
