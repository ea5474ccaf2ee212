package dev.crucible.adapters.http.console;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import java.util.Properties;

/**
 * {@code GET /console}: the web console's few static files, by a fixed list of names (no path from the request
 * reaches the class path), with a content security policy that allows only this server: the page loads no script
 * from elsewhere, runs no inline script, and talks only to this API. The files themselves hold no data; every
 * call they make carries the key the user typed, so the console sees exactly that key's tenant.
 */
@Controller("/console")
@Secured(SecurityRule.IS_ANONYMOUS)
final class ConsoleController {

    /** uPlot's files inside its webjar (the version is the one the build pins). */
    private static final String UPLOT = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
    /** The files by name, read from the class path once: they are part of the build and never change. */
    private static final Map<String, Asset> ASSETS = Map.of(
            "index.html", Asset.read("console/index.html", MediaType.TEXT_HTML),
            "console.js", Asset.read("console/console.js", "text/javascript"),
            "console.css", Asset.read("console/console.css", "text/css"),
            "uplot.js", Asset.read(UPLOT + "uPlot.iife.min.js", "text/javascript"),
            "uplot.css", Asset.read(UPLOT + "uPlot.min.css", "text/css"));
    private static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private record Asset(byte[] bytes, String type) {

        static Asset read(String resource, String type) {
            return new Asset(ConsoleController.read(resource), type);
        }
    }

    @Get
    HttpResponse<?> root() {
        return HttpResponse.seeOther(URI.create("/console/index.html"));
    }

    @Get("/{name}")
    HttpResponse<?> file(@PathVariable String name) {
        Asset asset = ASSETS.get(name);
        if (asset == null) {
            return HttpResponse.notFound();
        }
        MutableHttpResponse<byte[]> response = HttpResponse.ok(asset.bytes()).contentType(asset.type());
        return response.header("Content-Security-Policy", POLICY).header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "no-cache");
    }

    private static byte[] read(String resource) {
        try (InputStream in = ConsoleController.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the console's resource " + resource + " is not on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The uPlot webjar's version, from its Maven metadata on the class path. */
    private static String uplotVersion() {
        Properties properties = new Properties();
        try {
            properties.load(new ByteArrayInputStream(read("META-INF/maven/org.webjars.npm/uplot/pom.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
