package dev.crucible.adapters.http.body;

import java.time.Duration;

/** A {@link JsonBody} under bounds no test body comes near, for tests outside this package. */
public final class JsonBodies {

    private JsonBodies() {
    }

    public static JsonBody roomy() {
        return new JsonBody(new JsonLimits(1 << 20, 64, 100),
                new BodyLimits(1 << 24, 1 << 22, 1 << 25, 1 << 24, 2, Duration.ofSeconds(30)));
    }
}
