package dev.crucible.server.wiring;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * How this process lives beside the others on one database and starts: its heartbeat, the catalog it follows and the
 * API key it registers at start ({@code crucible.process.*}, {@code crucible.catalog.*}, {@code crucible.bootstrap.*});
 * the defaults live in {@code application.yml}.
 */
@ConfigurationProperties("crucible")
record ProcessSettings(Liveness process, Catalog catalog, Bootstrap bootstrap) {

    /**
     * @param heartbeatInterval how often this process beats in the database
     * @param staleAfter how long a process may be silent before the others fail its pending training operations
     */
    @ConfigurationProperties("process")
    record Liveness(Duration heartbeatInterval, Duration staleAfter) {
    }

    /** @param pollInterval the latest a catalog change reaches this process when its notification is lost */
    @ConfigurationProperties("catalog")
    record Catalog(Duration pollInterval) {
    }

    /**
     * @param apiKey a key registered at start if not yet known ({@code CRUCIBLE_API_KEY}); unset or blank for none
     * @param entity the entity that key belongs to
     */
    @ConfigurationProperties("bootstrap")
    record Bootstrap(@Nullable String apiKey, String entity) {

        boolean hasKey() {
            return apiKey != null && !apiKey.isBlank();
        }
    }
}
