package dev.crucible.adapters.http.completion;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.dataset.DatasetViews;
import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.application.completion.GetStoredCompletionUseCase;
import dev.crucible.application.completion.ListStoredCompletionsUseCase;
import dev.crucible.application.completion.UpdateStoredCompletionUseCase;
import dev.crucible.application.dataset.EraseStoredCompletionUseCase;
import dev.crucible.application.dataset.LineageStore;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's stored completions: the caller's entity's completions kept with {@code store: true}, listed, read, their
 * request messages paged, their metadata replaced, deleted (naming the checkpoints that learned from it). Another entity's completion is a 404, as a missing one.
 */
@Controller("/v1/chat/completions")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record StoredCompletionController(JsonBody json, ListStoredCompletionsUseCase list, GetStoredCompletionUseCase get,
        UpdateStoredCompletionUseCase update, EraseStoredCompletionUseCase erase) {

    private static final String ID = "completion_id";

    @Get
    @Operation(description = "The caller's stored completions, oldest first. Query: model, metadata[key]=value "
            + "(several; all must match), after (a completion id), limit (1-100, default 20), order (asc, desc).")
    @ApiResponse(responseCode = "200", description = "One page of chat.completion objects")
    PageView<Map<String, Object>> list(@Parameter(hidden = true) Caller caller, HttpRequest<?> http) {
        var page = RefusalException.unwrap(list.list(StoredCompletionParams.read(caller.entity(),
                http.getParameters())));
        return PageView.of(page, StoredCompletionViews::completion, StoredCompletion::id);
    }

    @Get("/{completion_id}")
    @Operation(description = "One stored completion: the chat.completion object with its metadata.")
    @ApiResponse(responseCode = "200", description = "The stored chat.completion",
            content = @Content(schema = @Schema(ref = "#/components/schemas/ChatCompletion")))
    Map<String, Object> get(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id) {
        return StoredCompletionViews.completion(find(caller, id));
    }

    @Get("/{completion_id}/messages")
    @Operation(description = "The stored completion's request messages, each with an id <completion id>-<index>.")
    @ApiResponse(responseCode = "200", description = "One page of messages")
    PageView<Map<String, Object>> messages(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id,
            @Nullable @QueryValue String after, @Nullable @QueryValue String limit,
            @Nullable @QueryValue String order) {
        StoredCompletion stored = find(caller, id);
        int size = RefusalException.unwrap(PageRequest.limit(RequestParams.limit(limit)));
        SortOrder direction = RequestParams.order(order == null || order.isEmpty() ? null : order);
        int count = stored.messages().size();
        int step = direction == SortOrder.ASC ? 1 : -1;
        int from = direction == SortOrder.ASC ? 0 : count - 1;
        if (after != null && !after.isEmpty()) {
            from = messageIndex(stored, after) + step;
        }
        List<Map<String, Object>> data = new ArrayList<>();
        int i = from;
        for (; i >= 0 && i < count && data.size() < size; i += step) {
            data.add(StoredCompletionViews.message(stored, i));
        }
        boolean more = i >= 0 && i < count;
        return new PageView<>("list", data, more, data.isEmpty() ? "" : (String) data.getFirst().get("id"),
                data.isEmpty() ? "" : (String) data.getLast().get("id"));
    }

    @Post("/{completion_id}")
    @Operation(description = "Replaces the stored completion's metadata: body {\"metadata\": {...}} (null clears it).")
    @ApiResponse(responseCode = "200", description = "The updated chat.completion",
            content = @Content(schema = @Schema(ref = "#/components/schemas/ChatCompletion")))
    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/StoredCompletionUpdate")))
    Map<String, Object> update(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id,
            @Nullable @Body InputStream body) {
        JsonReader read = json.object(body);
        if (!read.raw().containsKey("metadata")) {
            throw RefusalException.invalid("metadata", "metadata is required: an object of string keys and values,"
                    + " or null to clear it");
        }
        CompletionMetadata metadata = RefusalException.unwrap(CompletionMetadata.read("metadata",
                read.raw().get("metadata")));
        return StoredCompletionViews.completion(RefusalException.unwrap(update.replaceMetadata(caller,
                key(id), metadata)));
    }

    @Delete("/{completion_id}")
    @Operation(description = "Deletes the stored completion.")
    @ApiResponse(responseCode = "200", description = "The deletion",
            content = @Content(schema = @Schema(ref = "#/components/schemas/StoredCompletionDeleted")))
    Map<String, Object> delete(@Parameter(hidden = true) Caller caller, @PathVariable(ID) String id) {
        String key = key(id);
        LineageStore.Erasure erasure = RefusalException.unwrap(erase.erase(caller, key));
        Map<String, Object> body = StoredCompletionViews.deleted(key);
        body.put("checkpoints", DatasetViews.checkpoints(erasure.checkpoints()));
        return body;
    }

    private StoredCompletion find(Caller caller, String id) {
        return RefusalException.unwrap(get.get(caller, key(id)));
    }

    private static String key(String id) {
        return StoredCompletionParams.text(ID, id).orElseThrow(() -> RefusalException.invalid(ID, ID + " is empty"));
    }

    /** The index a message id ({@code <completion id>-<index>}) of {@code stored} names; any other is a 400. */
    private static int messageIndex(StoredCompletion stored, String after) {
        String prefix = stored.id() + "-";
        if (after.startsWith(prefix)) {
            String index = after.substring(prefix.length());
            if (index.matches("[0-9]{1,9}")) {
                int i = Integer.parseInt(index);
                if (i < stored.messages().size()) {
                    return i;
                }
            }
        }
        throw RefusalException.invalid("after", "after '" + (after.length() > 64 ? after.substring(0, 64) + "…"
                : after) + "' is not a message of this completion");
    }
}
