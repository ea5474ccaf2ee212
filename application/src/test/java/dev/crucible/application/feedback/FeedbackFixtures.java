package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Callers, projects, drafts and a clock for the feedback use-case tests. */
final class FeedbackFixtures {

    static final Caller ACME =
            new Caller(new EntityName("acme"), UUID.fromString("00000000-0000-4000-8000-000000000001"));
    static final Caller ACME_OTHER_KEY =
            new Caller(new EntityName("acme"), UUID.fromString("00000000-0000-4000-8000-000000000002"));
    static final Caller GLOBEX =
            new Caller(new EntityName("globex"), UUID.fromString("00000000-0000-4000-8000-000000000003"));
    static final ProjectId CHAT = new ProjectId("acme", "chat");
    static final ProjectId OTHER_PROJECT = new ProjectId("acme", "other");
    static final Instant NOW = Instant.parse("2025-03-01T12:00:00.123456789Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final String SVC_REF = "weave:///acme/chat/object/answer:abc";
    static final String ANNOTATION_REF = "weave:///acme/chat/object/quality:v1";
    static final FeedbackId CLIENT_ID = FeedbackId.parse("0190f3a1-1234-7abc-8def-0123456789ab").orElseThrow();

    private FeedbackFixtures() {
    }

    static FeedbackDraft draft(ProjectId project, String type, Map<String, Object> payload) {
        return FeedbackDraft.of(project, SVC_REF, type, payload);
    }

    static FeedbackDraft note(String text) {
        return draft(CHAT, "wandb.note.1", Map.of("note", text));
    }

    static FeedbackDraft reaction(String emoji) {
        return draft(CHAT, "wandb.reaction.1", Map.of("emoji", emoji));
    }

    static FeedbackDraft withId(FeedbackDraft d, FeedbackId id) {
        return new FeedbackDraft(Optional.of(id), d.project(), d.svcRef(), d.feedbackType(), d.payload(), d.creator(),
                d.annotationRef(), d.runnableRef(), d.callRef(), d.triggerRef(), d.queueId());
    }

    static FeedbackDraft annotation(Map<String, Object> payload, String callRef) {
        FeedbackDraft d = draft(CHAT, "wandb.annotation.quality", payload);
        return new FeedbackDraft(d.id(), d.project(), d.svcRef(), d.feedbackType(), d.payload(), d.creator(),
                Optional.of(ANNOTATION_REF), Optional.empty(), Optional.ofNullable(callRef), Optional.empty(),
                Optional.empty());
    }

    static FeedbackDraft inQueue(FeedbackDraft d, String queueId) {
        return new FeedbackDraft(d.id(), d.project(), d.svcRef(), d.feedbackType(), d.payload(), d.creator(),
                d.annotationRef(), d.runnableRef(), d.callRef(), d.triggerRef(), Optional.of(queueId));
    }
}
