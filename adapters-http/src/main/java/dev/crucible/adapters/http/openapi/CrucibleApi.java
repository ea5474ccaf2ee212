package dev.crucible.adapters.http.openapi;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.info.License;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.security.SecuritySchemes;

/**
 * The OpenAPI document's head: its title, and how callers authenticate. micronaut-openapi generates the document
 * from the controllers at compile time ({@code openapi.properties}); {@link OpenApiController} serves it. Each
 * controller that needs a key names its schemes ({@code @SecurityRequirement}); an operation without one needs none.
 */
@OpenAPIDefinition(
        info = @Info(title = "Crucible", version = "v1",
                description = "Training and serving LLMs: OpenAI/vLLM-compatible chat completions, SFT and RL "
                        + "training jobs with LoRA adapters, models and checkpoints, files, Weave-style feedback "
                        + "and objects. Every error is {\"error\": {message, type, param, code}}.",
                license = @License(name = "Apache-2.0")))
@SecuritySchemes({
    @SecurityScheme(name = "apiKey", type = SecuritySchemeType.HTTP, scheme = "bearer",
            description = "An API key: Authorization: Bearer <key>"),
    @SecurityScheme(name = "weaveBasic", type = SecuritySchemeType.HTTP, scheme = "basic",
            description = "Weave clients' form on the feedback and object routes: Basic base64(<any user>:<key>)")
})
final class CrucibleApi {

    private CrucibleApi() {
    }
}
