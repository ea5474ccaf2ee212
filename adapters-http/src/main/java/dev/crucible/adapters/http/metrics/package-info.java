/** {@code GET /metrics}: Micrometer's Prometheus registry in Prometheus' text format, for whoever the setting allows. */
package dev.crucible.adapters.http.metrics;
