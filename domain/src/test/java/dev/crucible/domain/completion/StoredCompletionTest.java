package dev.crucible.domain.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.feedback.CallRef;
import dev.crucible.domain.feedback.TraceRef;
import dev.crucible.domain.feedback.TraceRefParser;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A stored completion names itself to feedback as a Weave call of its project, a ref the feedback API parses. */
class StoredCompletionTest {

    @Test
    void itsCallRefIsAWeaveCallOfItsProjectThatTheFeedbackApiReads() {
        StoredCompletion stored = new StoredCompletion("chatcmpl-abc-1", new UsageProject(new EntityName("ada"), "p1"),
                Instant.EPOCH, "m", List.of(), List.of(), new CompletionTokens(1, 2), CompletionMetadata.empty(),
                Map.of());
        assertEquals("weave:///ada/p1/call/chatcmpl-abc-1", stored.callRef());
        TraceRef parsed = ((Outcome.Done<TraceRef>) TraceRefParser.parse(stored.callRef(), "weave_ref")).value();
        assertEquals("chatcmpl-abc-1", ((CallRef) parsed).callId());
    }
}
