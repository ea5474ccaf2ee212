package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.application.primitives.ClientSessionsUseCase;
import dev.crucible.application.primitives.ServerCapabilitiesUseCase;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * The Tinker SDK's bootstrap: client config (every optional feature off, so the SDK speaks plain JSON and sends chunked
 * calls one after another), sessions and their heartbeats, telemetry (acknowledged, not kept), health and the served
 * base models. Documented in docs/api.md, not in the OpenAPI document, which describes Crucible's own API.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerClientController(JsonBody json, ClientSessionsUseCase sessions, ServerCapabilitiesUseCase capabilities) {

    @Post("/client/config")
    Map<String, Object> config(@Nullable @Body InputStream body) {
        json.object(body);
        return TinkerReplies.ordered("pjwt_auth_enabled", false, "proto_compress_fwdbwd", false,
                "parallel_fwdbwd_chunks", false, "create_model_via_load_weights", false, "use_pyqwest_transport",
                false, "proto_write_fwdbwd", false, "fwd_via_fwdbwd", false);
    }

    @Post("/client/dynamic_config")
    Map<String, Object> dynamicConfig(@Nullable @Body InputStream body) {
        json.object(body);
        return Map.of("refresh_interval_sec", 300);
    }

    @Post("/create_session")
    Map<String, Object> createSession(Caller caller, @Nullable @Body InputStream body) {
        JsonReader in = json.object(body);
        List<String> tags = in.array("tags").orElse(List.of()).stream().map(tag -> {
            if (!(tag instanceof String s)) {
                throw in.reject("tags", "must be an array of strings");
            }
            return s;
        }).toList();
        return Map.of("session_id", sessions.create(caller, tags, in.string("sdk_version", null)).toString());
    }

    @Post("/session_heartbeat")
    Map<String, Object> heartbeat(Caller caller, @Nullable @Body InputStream body) {
        RefusalException.unwrap(sessions.heartbeat(caller, json.object(body).requireString("session_id")));
        return Map.of("type", "session_heartbeat");
    }

    @Post("/telemetry")
    Map<String, Object> telemetry(@Nullable @Body InputStream body) {
        json.object(body);
        return Map.of("status", "accepted");
    }

    @Secured(SecurityRule.IS_ANONYMOUS)
    @Get("/healthz")
    Map<String, Object> healthz() {
        return Map.of("status", "ok");
    }

    @Get("/get_server_capabilities")
    Map<String, Object> serverCapabilities() {
        return Map.of("supported_models", capabilities.baseModels().stream().map(m -> Map.of("model_name", m.name(),
                "max_context_length", m.maxContextLength())).toList());
    }
}
