package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import java.time.Clock;

/**
 * {@code listener}, recording the request's usage when its generation ends, before the listener hears the end: the
 * same counts its response reports, also for a request its client stopped (what was generated until then). A
 * failed request records nothing. Runs on the generator's thread; the recorder returns at once.
 */
record UsageCounting(GenerationListener listener, ChatCompletionUseCase.Command command, String model,
        UsageRecorder recorder, Clock clock) implements GenerationListener {

    @Override
    public void onDelta(GenerationDelta delta) {
        listener.onDelta(delta);
    }

    @Override
    public void onComplete(GenerationResult result) {
        ChatUsage usage = ChatResults.usage(result);
        recorder.record(new CompletionUsage(command.caller().entity(), command.project(), model,
                command.caller().keyId(), clock.instant(), usage.promptTokens(), usage.completionTokens(),
                usage.cachedTokens().orElse(0)));
        listener.onComplete(result);
    }

    @Override
    public void onFailure(RuntimeException failure) {
        listener.onFailure(failure);
    }
}
