package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatServing;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.application.inference.chat.ask.ChatStreaming;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.RequestOwner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The warm-up chats: for each served model whose runner warmed up at load, two short streamed chats of one user
 * message run together through the same {@link ChatPreparation} (sampling ranges, template, tokens, limits, sampling
 * parameters) and the model's {@code Generator} as a client's, their events relayed by the same
 * {@link ChatEventRelay} to the caller's listeners: one greedy with logprobs and the end of sequence ignored, so it
 * decodes all its tokens, one sampled (seeded, top-p and top-k, a stop string) with top logprobs. What a client's
 * chat passes and this does not: the caller's key and model resolution, the admission ticket and adapter lease
 * ({@link ChatLaunch}) with its observer, and usage counting. Its owner is no tenant ({@link #OWNER}: no entity name
 * may hold a ':'), and its cache salt is new each time, so no request ever restores its prompt from the prefix cache.
 */
public final class ChatWarmUpService implements WarmUpChatUseCase {

    /** Whom the warm-up chats are for: not an entity a tenant can have, since entity names hold no ':'. */
    static final RequestOwner OWNER = new RequestOwner("crucible:warm-up", "");
    /**
     * Tokens each warm-up chat decodes: past its first, so the decode steps, the incremental detokenizer and the stop
     * checks over earlier text run; few, since each costs a forward at start and per-token code is not compiled in so
     * few calls anyway.
     */
    static final int TOKENS = 4;
    /** The most a model's warm-up may take before it is stopped: far more than a few tokens of any model need. */
    static final Duration LIMIT = Duration.ofMinutes(2);

    private static final Logger LOG = Logger.getLogger(ChatWarmUpService.class.getName());

    private final ServedModels served;
    private final ChatPreparation preparation;

    /** Warms {@code served}'s models, preparing their chats as a {@link ChatCompletionService} with these settings. */
    public ChatWarmUpService(ServedModels served, ChatModelResolver resolver, ChatSettings settings) {
        this.served = Objects.requireNonNull(served, "served");
        this.preparation = ChatPreparation.of(resolver, settings);
    }

    @Override
    public List<String> warmUp(Supplier<ChatStreamListener> listeners) {
        Objects.requireNonNull(listeners, "listeners");
        List<String> warmed = new ArrayList<>();
        for (String name : served.names()) {
            Optional<ServedModel> model = served.find(name).filter(m -> m.runner().warmedUp());
            if (model.isPresent() && warm(model.get(), listeners)) {
                warmed.add(name);
            }
        }
        return warmed;
    }

    /** Runs both chats on {@code model} together and waits for them; whether any ran to its end. */
    private boolean warm(ServedModel model, Supplier<ChatStreamListener> listeners) {
        String salt = "crucible-warm-up-" + UUID.randomUUID();
        List<GenerationHandle> running = new ArrayList<>();
        for (ChatRequest request : List.of(greedy(model.name(), salt), sampled(model.name(), salt))) {
            try {
                if (preparation.prepare(model, request, OWNER) instanceof Outcome.Done<PreparedChat>(
                        PreparedChat chat)) {
                    ChatStreamListener listener = listeners.get();
                    listener.onStart(ChatCompletionService.start(chat));
                    if (model.generator().submit(chat.generation(), new ChatEventRelay(listener, chat.toolCalling(),
                            chat.generation().promptTokenIds().length)) instanceof Outcome.Done<GenerationHandle>(
                                    GenerationHandle handle)) {
                        running.add(handle);
                    }
                }
                // refused (no chat template, a vocabulary without the message's characters): that way stays cold
            } catch (RuntimeException cannotPrepare) {
                // a tokenizer that cannot encode the message throws; the warm-up is an optimisation, never a failure
                LOG.log(Level.FINE, "model " + model.name() + ": a warm-up chat could not be prepared", cannotPrepare);
            }
        }
        boolean ended = false;
        long deadline = System.nanoTime() + LIMIT.toNanos();
        for (GenerationHandle handle : running) {
            ended |= ended(model.name(), handle, deadline);
        }
        return ended;
    }

    private static boolean ended(String model, GenerationHandle handle, long deadline) {
        CompletableFuture<?> result = handle.result();
        try {
            result.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException slow) {
            handle.cancel();
            LOG.warning("model " + model + ": a warm-up chat took over " + LIMIT + " and was stopped");
        } catch (ExecutionException failed) {
            LOG.log(Level.WARNING, "model " + model + ": a warm-up chat failed", failed.getCause());
        } catch (InterruptedException e) {
            handle.cancel();
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** A greedy chat that decodes all {@link #TOKENS} tokens, with each token's logprob. */
    private static ChatRequest greedy(String model, String salt) {
        ChatSampling sampling = new ChatSampling(Optional.of(0.0), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1, OptionalLong.empty(),
                Map.of(), Optional.empty(), List.of(), false, 1.0);
        ChatStopping stopping = new ChatStopping(OptionalLong.of(TOKENS), "max_tokens", 0, List.of(), List.of(),
                true, false, OptionalLong.empty(), ChatStopping.RepetitionDetection.OFF);
        return request(model, salt, sampling, stopping, new ChatLogprobs(true, 0, OptionalInt.empty(),
                Optional.empty(), Optional.empty()));
    }

    /** A seeded sampled chat under top-p, top-k and a stop string, with each token's two likeliest alternatives. */
    private static ChatRequest sampled(String model, String salt) {
        ChatSampling sampling = new ChatSampling(Optional.of(0.8), Optional.of(0.95), Optional.of(20),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1, OptionalLong.of(0),
                Map.of(), Optional.empty(), List.of(), false, 1.0);
        ChatStopping stopping = new ChatStopping(OptionalLong.of(TOKENS), "max_tokens", 0, List.of("\n\n"), List.of(),
                false, false, OptionalLong.empty(), ChatStopping.RepetitionDetection.OFF);
        return request(model, salt, sampling, stopping, new ChatLogprobs(true, 2, OptionalInt.empty(),
                Optional.empty(), Optional.empty()));
    }

    private static ChatRequest request(String model, String salt, ChatSampling sampling, ChatStopping stopping,
            ChatLogprobs logprobs) {
        ChatRequest plain = ChatRequest.of(List.of(Map.of("role", "user", "content", "Hello, how are you?")));
        return new ChatRequest(Optional.of(model), plain.messages(), sampling, stopping, logprobs,
                new ChatStreaming(true, true, true), plain.templating(), plain.tools(), plain.output(),
                new ChatServing(0, Optional.empty(), Optional.of(salt), Optional.empty(), Map.of(), Optional.empty()));
    }
}
