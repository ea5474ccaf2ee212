package dev.crucible.adapters.http.feedback;

import dev.crucible.adapters.http.dataset.DatasetViews;
import dev.crucible.application.dataset.EraseFeedbackUseCase;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.application.feedback.CreateFeedbackCommand;
import dev.crucible.application.feedback.CreateFeedbackUseCase;
import dev.crucible.application.feedback.FeedbackReceipt;
import dev.crucible.application.feedback.PurgeFeedbackCommand;
import dev.crucible.application.feedback.QueryFeedbackCommand;
import dev.crucible.application.feedback.QueryFeedbackUseCase;
import dev.crucible.application.feedback.ReplaceFeedbackCommand;
import dev.crucible.application.feedback.ReplaceFeedbackUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.InputStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Weave-style feedback: create, replace, query and purge, all {@code POST} with JSON, Basic or Bearer auth; create
 * and replace run once per {@code Idempotency-Key}.
 */
@Controller("/feedback")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@SecurityRequirement(name = "weaveBasic")
@ExecuteOn(TaskExecutors.BLOCKING)
record FeedbackController(JsonBody json, IdempotentCreation idempotent, CreateFeedbackUseCase create,
        ReplaceFeedbackUseCase replace, QueryFeedbackUseCase query, EraseFeedbackUseCase purge) {

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackRequest")))
    @ApiResponse(responseCode = "200", description = "The stored row",
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackCreated")))
    @Post("/create")
    HttpResponse<?> create(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        Map<String, Object> request = json.object(body).raw();
        var draft = RefusalException.unwrap(FeedbackDraftReader.read(request));
        return idempotent.answer(caller, key, "feedback", () -> RequestFingerprint.of(request),
                () -> receipt(RefusalException.unwrap(create.create(new CreateFeedbackCommand(caller, draft)))));
    }

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackRequest")))
    @ApiResponse(responseCode = "200", description = "The new row",
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackCreated")))
    @Post("/replace")
    HttpResponse<?> replace(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        Map<String, Object> request = json.object(body).raw();
        var replacement = RefusalException.unwrap(FeedbackDraftReader.readReplacement(request));
        return idempotent.answer(caller, key, "feedback-replacements", () -> RequestFingerprint.of(request),
                () -> receipt(RefusalException.unwrap(replace.replace(ReplaceFeedbackCommand.of(caller,
                        replacement)))));
    }

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackQueryRequest")))
    @ApiResponse(responseCode = "200", description = "The matching rows",
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackQueryResult")))
    @Post("/query")
    Map<String, Object> query(@Parameter(hidden = true) Caller caller, @Nullable @Body InputStream body) {
        var request = RefusalException.unwrap(FeedbackQueryReader.read(json.object(body).raw()));
        List<Map<String, Object>> rows = RefusalException.unwrap(query.query(new QueryFeedbackCommand(caller,
                request)));
        return Map.of("result", rows.stream().map(FeedbackController::wireRow).toList());
    }

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackPurgeRequest")))
    @ApiResponse(responseCode = "200", description = "The rows are gone; the checkpoints that learned from them",
            content = @Content(schema = @Schema(ref = "#/components/schemas/FeedbackPurged")))
    @Post("/purge")
    Map<String, Object> purge(@Parameter(hidden = true) Caller caller, @Nullable @Body InputStream body) {
        var request = RefusalException.unwrap(FeedbackPurgeReader.read(json.object(body).raw()));
        var erasure = RefusalException.unwrap(purge.erase(new PurgeFeedbackCommand(caller, request)));
        return Map.of("checkpoints", DatasetViews.checkpoints(erasure.checkpoints()));
    }

    private static Map<String, Object> receipt(FeedbackReceipt receipt) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", receipt.id().toString());
        out.put("created_at", receipt.createdAt().toString());
        out.put("svc_user_id", receipt.svcUserId());
        out.put("payload", receipt.payload());
        return out;
    }

    /** A query row with its timestamp as ISO-8601 UTC text. */
    private static Map<String, Object> wireRow(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>(row);
        out.replaceAll((key, value) -> value instanceof Instant instant ? instant.toString() : value);
        return out;
    }
}
