package dev.crucible.application.inference.completion;

import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.structured.OutputConstraints;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/**
 * Chat completions: every check first ({@link ChatPreparation}), then generation ({@link ChatLaunch}, which holds
 * the admission ticket and the adapter lease for as long as it runs), and the result as the use case's own records
 * ({@link ChatResults}, {@link ChatEventRelay}); {@code use_beam_search} runs {@link ChatBeamSearch} instead. Each key and each entity may have at most its {@link RequestLimits}
 * of requests from submission to their end; one more, or one that finds the model's waiting queue full, is refused
 * as overloaded. Thread-safe.
 */
public final class ChatCompletionService implements ChatCompletionUseCase {

    private final ChatPreparation preparation;
    private final ChatLaunch launch;
    private final ChatBeamSearch beamSearch;

    /** A service whose JSON constraints allow any whitespace between tokens, as vLLM's do by default. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters) {
        this(resolver, adapters, false);
    }

    /** A service with the default {@link RequestLimits}. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace) {
        this(resolver, adapters, disableAnyWhitespace, RequestLimits.DEFAULTS);
    }

    /**
     * @param disableAnyWhitespace vLLM's server-wide {@code --structured-outputs-config.disable_any_whitespace}: JSON
     *                             constraints (schemas, {@code json_object}, forced tool calls) allow no whitespace
     *                             between tokens unless a request sets its own {@code whitespace_pattern}
     * @param limits               the most requests one key and one entity may have in flight or waiting
     */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace,
            RequestLimits limits) {
        this(resolver, adapters, disableAnyWhitespace, limits, ChatObserver.NONE);
    }

    /** As above, telling {@code observer} when each request's first token comes and how it ends. */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, boolean disableAnyWhitespace,
            RequestLimits limits, ChatObserver observer) {
        this.preparation = new ChatPreparation(Objects.requireNonNull(resolver, "resolver"),
                disableAnyWhitespace ? "" : OutputConstraints.ANY_WHITESPACE);
        this.launch = new ChatLaunch(Objects.requireNonNull(adapters, "adapters"),
                new ChatAdmission(Objects.requireNonNull(limits, "limits")),
                Objects.requireNonNull(observer, "observer"));
        this.beamSearch = new ChatBeamSearch(launch);
    }

    @Override
    public Outcome<ChatCompletion> complete(Command command) {
        return preparation.prepare(command.caller(), command.request()).then(chat -> beamSearch(chat)
                ? beamSearch.complete(chat, start(chat), command.disconnect())
                : launch.start(chat, GenerationListener.NONE).map(handle -> {
                    // a client that goes away stops its generation, as a streaming one does through its cancel
                    Runnable stopWatching = command.disconnect().watch(handle::cancel);
                    try {
                        return ChatResults.completion(start(chat), join(handle), chat.toolCalling());
                    } finally {
                        stopWatching.run();
                    }
                }));
    }

    @Override
    public Outcome<RunningChat> stream(Command command, ChatStreamListener listener) {
        return preparation.prepare(command.caller(), command.request()).then(chat -> {
            if (beamSearch(chat)) {
                return beamSearch.stream(chat, start(chat), listener, command.disconnect());
            }
            listener.onStart(start(chat));
            GenerationListener relay = new ChatEventRelay(listener, chat.toolCalling(),
                    chat.generation().promptTokenIds().length);
            return launch.start(chat, relay).map(handle -> {
                // also when the client never reads the stream: its closed connection stops the generation
                Runnable stopWatching = command.disconnect().watch(handle::cancel);
                handle.result().whenComplete((result, failure) -> stopWatching.run());
                return handle::cancel;
            });
        });
    }

    private static boolean beamSearch(PreparedChat chat) {
        return chat.request().sampling().useBeamSearch();
    }

    private static ChatStart start(PreparedChat chat) {
        int[] ids = chat.generation().promptTokenIds();
        return new ChatStart(chat.model().responseName(), chat.request(),
                Arrays.stream(ids).boxed().toList());
    }

    /** Waits for the generation; an engine failure is rethrown as it was (a 500). */
    private static GenerationResult join(GenerationHandle generation) {
        try {
            return generation.result().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
