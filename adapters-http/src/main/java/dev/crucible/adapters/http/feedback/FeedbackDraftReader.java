package dev.crucible.adapters.http.feedback;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackReplacement;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the JSON body of {@code /feedback/create} and {@code /feedback/replace} into a {@link FeedbackDraft}.
 * Unknown keys are refused (Weave's models forbid extras); {@code weave_ref} is accepted for {@code svc_ref};
 * {@code svc_user_id} and its alias {@code wb_user_id} are refused when non-null because the server fills them.
 */
final class FeedbackDraftReader {

    private static final Set<String> DRAFT_KEYS = Set.of("id", "project_id", "svc_ref", "weave_ref",
            "feedback_type", "payload", "creator", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref",
            "queue_id", "svc_user_id", "wb_user_id");
    private static final Set<String> REPLACE_KEYS = with(DRAFT_KEYS, "feedback_id");

    private FeedbackDraftReader() {
    }

    /** Reads a create body. */
    static Outcome<FeedbackDraft> read(Map<String, Object> body) {
        return JsonReader.read(body, DRAFT_KEYS, FeedbackDraftReader::draft);
    }

    /** Reads a replace body: a create body plus the required {@code feedback_id}. */
    static Outcome<FeedbackReplacement> readReplacement(Map<String, Object> body) {
        return JsonReader.read(body, REPLACE_KEYS, b -> {
            String feedbackId = b.requireString("feedback_id");
            return new FeedbackReplacement(feedbackId, draft(b));
        });
    }

    private static FeedbackDraft draft(JsonReader b) {
        for (String serverOwned : new String[] {"svc_user_id", "wb_user_id"}) {
            if (b.present(serverOwned)) {
                throw JsonReader.fail(serverOwned,
                        serverOwned + " must not be set by the client; the server fills it");
            }
        }
        ProjectId project = project(b);
        if (b.present("svc_ref") && b.present("weave_ref")) {
            throw JsonReader.fail("svc_ref", "svc_ref and its alias weave_ref were both sent; send one");
        }
        String svcRef = b.requireString(b.present("weave_ref") ? "weave_ref" : "svc_ref");
        String feedbackType = b.requireString("feedback_type");
        return new FeedbackDraft(id(b), project, svcRef, feedbackType, payload(b), b.string("creator"),
                b.string("annotation_ref"), b.string("runnable_ref"), b.string("call_ref"), b.string("trigger_ref"),
                b.string("queue_id"));
    }

    /** The required {@code project_id} of a feedback body, whose problem is refused naming it. */
    static ProjectId project(JsonReader body) {
        String text = body.requireString("project_id");
        return ProjectId.tryParse(text).orElseThrow(() -> JsonReader.fail("project_id", ProjectId.problem(text)));
    }

    private static Optional<FeedbackId> id(JsonReader b) {
        return b.string("id").map(text -> FeedbackId.parse(text)
                .orElseThrow(() -> JsonReader.fail("id", "id must be a UUID, got '" + text + "'")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payload(JsonReader b) {
        if (!(b.raw("payload") instanceof Map<?, ?> payload)) {
            throw JsonReader.fail("payload", b.present("payload")
                    ? "payload must be an object, got " + JsonReader.describe(b.raw("payload"))
                    : "payload is required");
        }
        if (!payload.keySet().stream().allMatch(String.class::isInstance)) {
            throw JsonReader.fail("payload", "payload keys must be strings");
        }
        return (Map<String, Object>) payload;
    }

    private static Set<String> with(Set<String> keys, String extra) {
        Set<String> all = new HashSet<>(keys);
        all.add(extra);
        return Set.copyOf(all);
    }
}
