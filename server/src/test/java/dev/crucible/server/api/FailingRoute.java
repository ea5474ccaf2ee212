package dev.crucible.server.api;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;

/**
 * A route that fails as a bug would (test code only, present when {@code crucible.test.failing-route} is set): the
 * way to see what a 500 answers and logs.
 */
@Controller("/test/failing")
@Requires(property = "crucible.test.failing-route", value = "true")
@Secured(SecurityRule.IS_ANONYMOUS)
final class FailingRoute {

    static final String SECRET = "db password is hunter2 at /var/lib/crucible/secret";

    @Get
    String fail() {
        throw new IllegalStateException(SECRET);
    }
}
