package dev.crucible.adapters.http.console;

import dev.crucible.adapters.http.assets.StaticAsset;
import dev.crucible.adapters.http.assets.StaticFolder;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.util.Map;

/**
 * {@code GET /console}: the web console's few static files, by a fixed list of names (no path from the request
 * reaches the class path), with a content security policy that allows only this server: the page loads no script
 * from elsewhere, runs no inline script, and talks only to this API. The files themselves hold no data; every
 * call they make carries the key the user typed, so the console sees exactly that key's tenant.
 */
@Controller("/console")
@Secured(SecurityRule.IS_ANONYMOUS)
@Hidden
final class ConsoleController {

    /** uPlot's files inside its webjar (the version is the one the build pins). */
    private static final String UPLOT = StaticAsset.webjar("org.webjars.npm", "uplot", "uplot") + "dist/";
    /** The files by name, read from the class path once, under a policy that allows only this server. */
    private static final StaticFolder CONSOLE = new StaticFolder("/console", Map.of(
            "index.html", StaticAsset.read("console/index.html", MediaType.TEXT_HTML),
            "console.js", StaticAsset.read("console/console.js", "text/javascript"),
            "console.css", StaticAsset.read("console/console.css", "text/css"),
            "uplot.js", StaticAsset.read(UPLOT + "uPlot.iife.min.js", "text/javascript"),
            "uplot.css", StaticAsset.read(UPLOT + "uPlot.min.css", "text/css")),
            "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
                    + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");

    @Get
    HttpResponse<?> root() {
        return CONSOLE.index();
    }

    @Get("/{name}")
    HttpResponse<?> file(@PathVariable String name) {
        return CONSOLE.file(name);
    }
}
