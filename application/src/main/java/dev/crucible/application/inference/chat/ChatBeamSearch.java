package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.SequenceOutput;
import dev.crucible.runtime.generation.stopping.StopReason;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import dev.crucible.runtime.generation.beam.Beam;
import dev.crucible.runtime.generation.beam.BeamSearch;
import dev.crucible.runtime.generation.beam.BeamSearchParams;
import dev.crucible.runtime.generation.beam.GeneratorNextTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * {@code use_beam_search}: the chat's {@code n} is the beam width, and the {@code n} best beams are its choices, best
 * first ({@link BeamSearch}). As in vLLM the search runs above the generator, one greedy token per live beam and
 * step, and only {@code max_tokens}, {@code ignore_eos}, {@code length_penalty} and
 * {@code include_stop_str_in_output} shape it: the tokenizer's EOS token finishes a beam (finish reason
 * {@code stop}, stop reason the EOS id), a beam that runs to {@code max_tokens} finishes with {@code length}; a
 * choice's text leaves a final EOS out, and its tokens and logprobs keep it only with
 * {@code include_stop_str_in_output}. Stop strings, stop token ids, penalties and the temperature have no effect, as
 * in vLLM; a structured-output constraint, which the search could not honour, is refused. A stream gets every
 * choice whole when the search ends, as vLLM's stream does. Holds the admission ticket and adapter lease for the
 * whole search. Thread-safe.
 */
final class ChatBeamSearch {

    private final ChatLaunch launch;

    ChatBeamSearch(ChatLaunch launch) {
        this.launch = launch;
    }

    /**
     * Searches on the caller's thread; a client that goes away stops the search after its current step. {@code ended}
     * hears the search's result (its usage is recorded there). A step that fails on the server's side is thrown as a
     * 503 refusal ({@link ChatFailures}).
     */
    Outcome<ChatCompletion> complete(PreparedChat chat, ChatStart start, ClientDisconnect disconnect,
            GenerationListener ended) {
        return unconstrained(chat).then(c -> launch.hold(chat)).then(held -> {
            GeneratorNextTokens steps = steps(chat, held);
            Runnable stopWatching = disconnect.watch(steps::cancel);
            try {
                return search(chat, steps).map(result -> {
                    launch.ended(chat, reason(result));
                    ended.onComplete(result);
                    return ChatResults.completion(start, result, chat.toolCalling());
                });
            } catch (RuntimeException e) {
                throw ChatFailures.logged(chat.model().base().name(), e);
            } finally {
                stopWatching.run();
                held.release().run();
            }
        });
    }

    /**
     * Searches on a virtual thread; {@code listener} hears {@code start} first, then each choice as one delta when
     * the search ends, then the usage. A refusal of a step (the model is overloaded) ends the stream as that refusal,
     * a step that fails on the server's side as a 503 refusal ({@link ChatFailures}).
     */
    Outcome<RunningChat> stream(PreparedChat chat, ChatStart start, ChatStreamListener listener,
            ClientDisconnect disconnect, GenerationListener ended) {
        return unconstrained(chat).then(c -> launch.hold(chat)).map(held -> {
            listener.onStart(start);
            GeneratorNextTokens steps = steps(chat, held);
            Runnable stopWatching = disconnect.watch(steps::cancel);
            Thread.ofVirtual().name("crucible-beam-search").start(() -> {
                try {
                    relay(chat, search(chat, steps), listener, ended);
                } catch (RuntimeException e) {
                    listener.onFailure(ChatFailures.logged(chat.model().base().name(), e));
                } finally {
                    stopWatching.run();
                    held.release().run();
                }
            });
            return steps::cancel;
        });
    }

    private void relay(PreparedChat chat, Outcome<GenerationResult> searched, ChatStreamListener listener,
            GenerationListener ended) {
        switch (searched) {
            case Outcome.Refused<GenerationResult> refused ->
                    listener.onFailure(new RefusalException(refused.refusal()));
            case Outcome.Done<GenerationResult>(GenerationResult result) -> {
                launch.ended(chat, reason(result));
                ChatEventRelay relay = new ChatEventRelay(listener, chat.toolCalling(), result.promptTokens());
                for (SequenceOutput s : result.sequences()) {
                    relay.onDelta(new GenerationDelta(s.index(), s.tokenIds(), s.text(), s.logprobs(),
                            Optional.of(s.finish())));
                }
                ended.onComplete(result);
                relay.onComplete(result);
            }
        }
    }

    /** Refused when the chat carries a structured-output constraint, naming the field that set it. */
    private static Outcome<PreparedChat> unconstrained(PreparedChat chat) {
        if (chat.generation().constraint().isEmpty()) {
            return Outcome.done(chat);
        }
        ChatRequest request = chat.request();
        String field = ToolChoiceSchemas.of(request.tools()).isPresent() ? "tool_choice"
                : request.output().structuredOutputs().isPresent() ? "structured_outputs" : "response_format";
        return Outcome.refused(Refusal.invalid(field, field + " cannot be used with use_beam_search: beam search "
                + "does not support structured outputs."));
    }

    private static GeneratorNextTokens steps(PreparedChat chat, ChatLaunch.Held held) {
        return new GeneratorNextTokens(chat.model().base().generator(), held.request(), alternatives(chat.request()));
    }

    private static Outcome<GenerationResult> search(PreparedChat chat, GeneratorNextTokens steps) {
        ChatRequest request = chat.request();
        OptionalInt eos = request.stopping().ignoreEos() ? OptionalInt.empty() : eosTokenId(chat.model().base());
        BeamSearchParams params = new BeamSearchParams(request.sampling().n(),
                chat.generation().params().maxTokens(), request.sampling().lengthPenalty(), eos);
        int[] prompt = chat.generation().promptTokenIds();
        return BeamSearch.run(prompt, steps, params, steps::cancelled)
                .map(beams -> result(chat, prompt.length, beams, steps.cancelled()));
    }

    /** The beams as the generator's result shape, so they become choices as any generation does. */
    private static GenerationResult result(PreparedChat chat, int promptTokens, List<Beam> beams, boolean cancelled) {
        ChatRequest request = chat.request();
        boolean keepEos = request.stopping().includeStopStrInOutput();
        List<SequenceOutput> outputs = IntStream.range(0, beams.size()).mapToObj(i -> {
            Beam beam = beams.get(i);
            int generated = beam.tokenIds().size();
            int withoutEos = beam.endedByEos() ? generated - 1 : generated;
            int kept = keepEos ? generated : withoutEos;
            int[] textIds = beam.tokenIds().subList(0, withoutEos).stream().mapToInt(Integer::intValue).toArray();
            String text = chat.model().base().tokenizer().decode(textIds, request.output().skipSpecialTokens());
            List<PositionLogprobs> logprobs = request.logprobs().logprobs()
                    ? beam.logprobs().subList(0, kept).stream()
                            .map(p -> alternatives(p, alternatives(request))).toList()
                    : List.of();
            Finish finish = beam.endedByEos()
                    ? new Finish(FinishReason.STOP, Optional.of(new StopReason.TokenId(beam.tokenIds().getLast())))
                    : new Finish(cancelled ? FinishReason.ABORT : FinishReason.LENGTH, Optional.empty());
            return new SequenceOutput(i, beam.tokenIds().subList(0, kept), text, logprobs, finish);
        }).toList();
        return new GenerationResult(promptTokens, outputs);
    }

    /** How many alternatives each returned token lists: {@code top_logprobs} when logprobs are asked, else none. */
    private static int alternatives(ChatRequest request) {
        return request.logprobs().logprobs() ? Math.max(0, request.logprobs().topLogprobs()) : 0;
    }

    /** {@code position} in the chat order: the chosen token first, then the most likely others, {@code n} in all. */
    private static PositionLogprobs alternatives(PositionLogprobs position, int n) {
        List<TokenLogprob> top = new ArrayList<>();
        if (n > 0) {
            top.add(position.sampled());
            position.top().stream().filter(t -> t.tokenId() != position.sampled().tokenId()).limit(n - 1L)
                    .forEach(top::add);
        }
        return new PositionLogprobs(position.sampled(), top);
    }

    /** The tokenizer's EOS token, which ends a beam in vLLM; else the first of the model's EOS ids. */
    private static OptionalInt eosTokenId(ServedModel model) {
        String eos = model.specialTokens().get("eos_token");
        OptionalInt id = eos == null ? OptionalInt.empty() : model.tokenizer().tokenId(eos);
        if (id.isPresent() || model.eosTokenIds().isEmpty()) {
            return id;
        }
        return OptionalInt.of(model.eosTokenIds().getFirst());
    }

    private static String reason(GenerationResult result) {
        return result.sequences().isEmpty() ? "abort" : result.sequences().getFirst().finish().reason().wireName();
    }
}
