package dev.crucible.application.inference.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.SequenceOutput;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A completion's usage is recorded once when it ends (finished or cut short), against the command's project, with
 * the counts its response reports, before the listener hears the end; a failed one records nothing.
 */
class UsageCountingTest {

    private static final Caller CALLER = new Caller(new EntityName("alice"), UUID.randomUUID());
    private static final Instant NOW = Instant.parse("2026-11-26T12:34:56Z");

    private final List<String> heard = new ArrayList<>();
    private final List<CompletionUsage> recorded = new ArrayList<>();
    private final GenerationListener listener = new GenerationListener() {
        @Override
        public void onComplete(GenerationResult result) {
            heard.add("complete after " + recorded.size() + " recorded");
        }

        @Override
        public void onFailure(RuntimeException failure) {
            heard.add("failure");
        }
    };

    private UsageCounting counting(UsageProject project) {
        var command = new ChatCompletionUseCase.Command(CALLER,
                ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi"))), ClientDisconnect.NEVER, project);
        return new UsageCounting(listener, command, "tiny", u -> {
            recorded.add((CompletionUsage) u);
            heard.add("recorded");
        }, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static SequenceOutput sequence(int index, int tokens, FinishReason reason) {
        return new SequenceOutput(index, java.util.Collections.nCopies(tokens, 7), "x".repeat(tokens), List.of(),
                new Finish(reason, Optional.empty()));
    }

    @Test
    void recordsThePromptAndEverySequencesTokensBeforeTheListenerHearsTheEnd() {
        UsageProject project = new UsageProject(CALLER.entity(), "p1");
        counting(project).onComplete(new GenerationResult(11, List.of(sequence(0, 3, FinishReason.STOP),
                sequence(1, 5, FinishReason.LENGTH))));
        assertEquals(List.of(new CompletionUsage(CALLER.entity(), project, "tiny", CALLER.keyId(), NOW, 11, 8, 0)),
                recorded);
        assertEquals(List.of("recorded", "complete after 1 recorded"), heard);
    }

    @Test
    void aCompletionCutShortCountsWhatWasGenerated() {
        counting(UsageProject.defaultOf(CALLER.entity())).onComplete(new GenerationResult(4,
                List.of(sequence(0, 2, FinishReason.ABORT))));
        assertEquals(1, recorded.size());
        assertEquals(2, recorded.getFirst().outputTokens());
        assertEquals("alice/default", recorded.getFirst().project().toString());
    }

    @Test
    void aFailedCompletionRecordsNothing() {
        counting(UsageProject.defaultOf(CALLER.entity())).onFailure(new IllegalStateException("engine fault"));
        assertEquals(List.of(), recorded);
        assertEquals(List.of("failure"), heard);
    }
}
