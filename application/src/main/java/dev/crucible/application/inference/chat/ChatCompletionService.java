package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import java.time.Clock;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/**
 * Chat completions: every check first ({@link ChatPreparation}), then generation ({@link ChatLaunch}, which holds
 * the admission ticket and the adapter lease for as long as it runs), and the result as the use case's own records
 * ({@link ChatResults}, {@link ChatEventRelay}); {@code use_beam_search} runs {@link ChatBeamSearch} instead. Each
 * key and each entity may have at most its {@link RequestLimits} of requests from submission to their end; one more,
 * or one that finds the model's waiting queue full, is refused as overloaded. Each completion that ends has its usage given to a {@link UsageRecorder}. Thread-safe.
 */
public final class ChatCompletionService implements ChatCompletionUseCase {

    private final ChatPreparation preparation;
    private final ChatLaunch launch;
    private final ChatBeamSearch beamSearch;
    private final UsageRecorder usage;
    private final Clock clock;

    /**
     * @param settings how requests are read and bounded: JSON whitespace, per-key and per-entity limits, request
     *                 templates
     * @param observer told when each request's first token comes and how it ends
     * @param usage    given each ended completion's usage, stamped with {@code clock}'s time
     */
    public ChatCompletionService(ChatModelResolver resolver, AdapterCache adapters, ChatSettings settings,
            ChatObserver observer, UsageRecorder usage, Clock clock) {
        this.usage = Objects.requireNonNull(usage, "usage");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.preparation = ChatPreparation.of(resolver, settings);
        this.launch = new ChatLaunch(Objects.requireNonNull(adapters, "adapters"),
                new ChatAdmission(settings.limits()),
                Objects.requireNonNull(observer, "observer"));
        this.beamSearch = new ChatBeamSearch(launch);
    }

    @Override
    public Outcome<ChatCompletion> complete(Command command) {
        return preparation.prepare(command.caller(), command.request()).then(chat -> beamSearch(chat)
                ? beamSearch.complete(chat, start(chat), command.disconnect(),
                        counted(command, chat, GenerationListener.NONE))
                : launch.start(chat, counted(command, chat, GenerationListener.NONE)).map(handle -> {
                    // a client that goes away stops its generation, as a streaming one does through its cancel
                    Runnable stopWatching = command.disconnect().watch(handle::cancel);
                    try {
                        return ChatResults.completion(start(chat), join(chat, handle), chat.toolCalling());
                    } finally {
                        stopWatching.run();
                    }
                }));
    }

    @Override
    public Outcome<RunningChat> stream(Command command, ChatStreamListener listener) {
        return preparation.prepare(command.caller(), command.request()).then(chat -> {
            if (beamSearch(chat)) {
                return beamSearch.stream(chat, start(chat), listener, command.disconnect(),
                        counted(command, chat, GenerationListener.NONE));
            }
            listener.onStart(start(chat));
            GenerationListener relay = new ChatEventRelay(listener, chat.toolCalling(),
                    chat.generation().promptTokenIds().length);
            return launch.start(chat, counted(command, chat, relay)).map(handle -> {
                // also when the client never reads the stream: its closed connection stops the generation
                Runnable stopWatching = command.disconnect().watch(handle::cancel);
                handle.result().whenComplete((result, failure) -> stopWatching.run());
                return handle::cancel;
            });
        });
    }

    private GenerationListener counted(Command command, PreparedChat chat, GenerationListener listener) {
        return new UsageCounting(listener, command, chat.model().responseName(), usage, clock);
    }

    private static boolean beamSearch(PreparedChat chat) {
        return chat.request().sampling().useBeamSearch();
    }

    /** What a stream's listener hears first: the model's name as the response reports it, the request, its prompt. */
    static ChatStart start(PreparedChat chat) {
        int[] ids = chat.generation().promptTokenIds();
        return new ChatStart(chat.model().responseName(), chat.request(),
                Arrays.stream(ids).boxed().toList());
    }

    /**
     * Waits for the generation; a failure is thrown as the client should hear it ({@link ChatFailures}: an engine
     * failure is a 503), already logged by the listener {@link ChatLaunch} wrapped.
     */
    private static GenerationResult join(PreparedChat chat, GenerationHandle generation) {
        try {
            return generation.result().join();
        } catch (CompletionException e) {
            throw ChatFailures.of(chat.model().base().name(), e.getCause() == null ? e : e.getCause());
        }
    }
}
