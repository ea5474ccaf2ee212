package dev.crucible.adapters.http.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.configuration.metrics.aggregator.MeterRegistryConfigurer;
import jakarta.inject.Singleton;

/**
 * Keeps vLLM's metric names as vLLM writes them ({@code vllm:num_requests_running}, a colon after the prefix) so
 * that dashboards built for vLLM read Crucible unchanged; Micrometer's Prometheus convention would write
 * {@code vllm_num_requests_running}. Every other name follows that convention as it is.
 */
@Singleton
final class VllmNames implements MeterRegistryConfigurer<PrometheusMeterRegistry> {

    static final String PREFIX = "vllm:";

    @Override
    public void configure(PrometheusMeterRegistry registry) {
        NamingConvention prometheus = registry.config().namingConvention();
        registry.config().namingConvention(new NamingConvention() {
            @Override
            public String name(String name, Meter.Type type, String baseUnit) {
                return name.startsWith(PREFIX) ? PREFIX + prometheus.name(name.substring(PREFIX.length()), type, baseUnit)
                        : prometheus.name(name, type, baseUnit);
            }

            @Override
            public String tagKey(String key) {
                return prometheus.tagKey(key);
            }
        });
    }

    @Override
    public Class<PrometheusMeterRegistry> getType() {
        return PrometheusMeterRegistry.class;
    }
}
