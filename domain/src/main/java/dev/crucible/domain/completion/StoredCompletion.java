package dev.crucible.domain.completion;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A chat completion kept because its request said {@code store: true}: the request's messages as sent and the
 * answer's choices as answered, JSON-shaped (maps, lists, strings, numbers, booleans, nulls), so that reading it back
 * gives OpenAI's objects unchanged.
 *
 * @param id       the answer's id ({@code chatcmpl-...}); unique per entity
 * @param project  the project the completion counted against; its team is the owning entity
 * @param created  when the answer was created (second precision on the wire)
 * @param model    the model name the answer reported
 * @param messages the request's messages, as sent
 * @param choices  the answer's choices: {@code index}, {@code message}, {@code finish_reason}, {@code logprobs}
 * @param usage    the tokens read and written
 * @param metadata the caller's tags, replaceable later
 * @param params   request parameters worth showing ({@code temperature}, {@code top_p}, ...), as sent
 */
public record StoredCompletion(String id, UsageProject project, Instant created, String model,
        List<Map<String, Object>> messages, List<Map<String, Object>> choices, CompletionTokens usage,
        CompletionMetadata metadata, Map<String, Object> params) {

    /** The longest id kept: {@code chatcmpl-} and a request id. */
    public static final int MAX_ID = 512;

    public StoredCompletion {
        NonNull.components(StoredCompletion.class, id, project, created, model, messages, choices, usage, metadata,
                params);
        if (id.isEmpty() || id.length() > MAX_ID) {
            throw new IllegalArgumentException("id must be 1 to " + MAX_ID + " characters, got " + id.length());
        }
        messages = List.copyOf(messages);
        choices = List.copyOf(choices);
        params = Map.copyOf(params);
    }

    /** The entity that owns it. */
    public EntityName entity() {
        return project.team();
    }

    /**
     * The ref that feedback on this completion names it by, as a Weave call of its project:
     * {@code weave:///<entity>/<project>/call/<id>} (the feedback API's {@code weave_ref}, its rows' {@code svc_ref}).
     */
    public String callRef() {
        return callRefPrefix(project) + id;
    }

    /** What the call ref of every completion of {@code project} starts with: {@code weave:///<entity>/<project>/call/}. */
    public static String callRefPrefix(UsageProject project) {
        return "weave:///" + project.team().value() + "/" + project.name() + "/call/";
    }

    /** The same completion with {@code replacement} as its metadata. */
    public StoredCompletion withMetadata(CompletionMetadata replacement) {
        return new StoredCompletion(id, project, created, model, messages, choices, usage, replacement, params);
    }
}
