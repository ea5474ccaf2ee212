package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.model.AdapterDownload;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.application.model.ReadAdapterUseCase;
import dev.crucible.application.primitives.DeleteSavedStateUseCase;
import dev.crucible.application.primitives.TrainingRunsUseCase;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;

/**
 * Tinker's REST side, answered at once: {@code weights_info}, the caller's training runs and their checkpoints (a
 * checkpoint id is two path segments, {@code weights/<name>} or {@code sampler_weights/<name>}), deleting one, and
 * its archive as a 302 to an authenticated PEFT download of the checkpoint it names (Crucible's own, under
 * {@code /api/v1} so that the Tinker key opens it).
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerRestController(JsonBody json, TrainingRunsUseCase runs, DeleteSavedStateUseCase deleteState,
        ReadAdapterUseCase adapters, Clock clock) {

    private static final int DEFAULT_LIMIT = 20;
    private static final Set<String> ACCESS_SCOPES = Set.of("owned", "accessible");
    /** The nominal lifetime the archive answer states; the download route itself needs the key, not a signature. */
    private static final Duration ARCHIVE_EXPIRY = Duration.ofHours(1);

    @Post("/weights_info")
    Map<String, Object> weightsInfo(Caller caller, @Nullable @Body InputStream body) {
        String path = json.object(body).requireString("tinker_path");
        return TinkerRunViews.weightsInfo(RefusalException.unwrap(runs.weightsInfo(caller, path)));
    }

    @Get("/training_runs")
    Map<String, Object> list(Caller caller, @Nullable @QueryValue("limit") String limit,
            @Nullable @QueryValue("offset") String offset, @Nullable @QueryValue("access_scope") String scope,
            @Nullable @QueryValue("project_id") String projectId) {
        if (scope != null && !ACCESS_SCOPES.contains(scope)) {
            throw RefusalException.invalid("access_scope", "access_scope must be owned or accessible, got '"
                    + Excerpt.line(scope, 40) + "'");
        }
        return TinkerRunViews.page(RefusalException.unwrap(runs.list(caller, integer("limit", limit, DEFAULT_LIMIT),
                integer("offset", offset, 0))));
    }

    @Get("/training_runs/{id}")
    Map<String, Object> get(Caller caller, @PathVariable("id") String id) {
        return TinkerRunViews.run(RefusalException.unwrap(runs.get(caller, id)));
    }

    @Get("/training_runs/{id}/checkpoints")
    Map<String, Object> checkpoints(Caller caller, @PathVariable("id") String id) {
        return TinkerRunViews.checkpoints(RefusalException.unwrap(runs.checkpoints(caller, id)));
    }

    @Delete("/training_runs/{id}/checkpoints/{kind}/{name}")
    HttpResponse<?> delete(Caller caller, @PathVariable("id") String id, @PathVariable("kind") String kind,
            @PathVariable("name") String name) {
        RefusalException.unwrap(deleteState.delete(caller, id, kind, name));
        return HttpResponse.noContent();
    }

    @Get("/training_runs/{id}/checkpoints/{kind}/{name}/archive")
    HttpResponse<?> archive(HttpRequest<?> request, Caller caller, @PathVariable("id") String id,
            @PathVariable("kind") String kind, @PathVariable("name") String name) {
        TrainingRunsUseCase.ArchiveLocation at = RefusalException.unwrap(runs.archive(caller, id, kind, name));
        String route = "/api/v1/checkpoint_archives/" + at.model() + "/" + at.step();
        String host = request.getHeaders().get(HttpHeaders.HOST);
        String url = host == null ? route : "http://" + host + route;
        return HttpResponse.status(HttpStatus.FOUND).header(HttpHeaders.LOCATION, url)
                .header(HttpHeaders.EXPIRES, DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        clock.instant().plus(ARCHIVE_EXPIRY).atOffset(ZoneOffset.UTC)));
    }

    /**
     * The archive's target: the PEFT adapter of checkpoint {@code step} of the caller's model, as Crucible's own
     * {@code /v1/preview/models/{model_id}/checkpoints/{step}/adapter} answers it, under {@code /api/v1} so that the
     * Tinker key ({@code X-API-Key: tml-<key>}) opens it as well as a Bearer key. A step names an immutable checkpoint,
     * so the address keeps meaning the same files even when the saved state's name is later reused.
     */
    @Get(value = "/checkpoint_archives/{model_id}/{step}", produces = "application/zip")
    HttpResponse<StreamedFile> download(Caller caller, @PathVariable("model_id") String modelId,
            @PathVariable("step") String step) {
        int number = integer("step", step, 0);
        return AdapterDownload.of(RefusalException.unwrap(adapters.read(new ReadAdapterUseCase.Command(caller,
                new ModelId(RequestParams.uuid("model_id", modelId)), number))));
    }

    private static int integer(String param, String value, int absent) {
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw RefusalException.invalid(param, param + " must be an integer, got '"
                    + Excerpt.line(value, 40) + "'");
        }
    }
}
