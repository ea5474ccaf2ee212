package dev.crucible.adapters.http.openapi;

import dev.crucible.adapters.http.assets.StaticAsset;
import dev.crucible.adapters.http.assets.StaticFolder;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.json.JsonMapper;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.util.Map;

/**
 * {@code GET /openapi.json}: the OpenAPI 3.1 document micronaut-openapi generated from the controllers at build time,
 * with every operation's error envelope added ({@link OpenApiDocument}); and {@code GET /docs}: Swagger UI over it,
 * from its webjar (no CDN). Neither needs a key: the document describes the API, it holds no data.
 */
@Controller
@Secured(SecurityRule.IS_ANONYMOUS)
@Hidden
final class OpenApiController {

    private static final String SWAGGER_UI = StaticAsset.webjar("org.webjars", "swagger-ui", "swagger-ui");
    /** Swagger UI sets styles inline and shows data: images; it loads nothing from elsewhere. */
    private static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final StaticFolder DOCS = new StaticFolder("/docs", Map.of(
            "index.html", StaticAsset.read("docs/index.html", MediaType.TEXT_HTML),
            "docs.js", StaticAsset.read("docs/docs.js", "text/javascript"),
            "swagger-ui-bundle.js", StaticAsset.read(SWAGGER_UI + "swagger-ui-bundle.js", "text/javascript"),
            "swagger-ui.css", StaticAsset.read(SWAGGER_UI + "swagger-ui.css", "text/css")), POLICY);

    private final StaticAsset document;

    OpenApiController(JsonMapper json) {
        this.document = new StaticAsset(OpenApiDocument.load(json), MediaType.APPLICATION_JSON);
    }

    @Get("/openapi.json")
    HttpResponse<?> document() {
        return document.response(POLICY);
    }

    @Get("/docs")
    HttpResponse<?> docs() {
        return DOCS.index();
    }

    @Get("/docs/{name}")
    HttpResponse<?> docsFile(@PathVariable String name) {
        return DOCS.file(name);
    }
}
