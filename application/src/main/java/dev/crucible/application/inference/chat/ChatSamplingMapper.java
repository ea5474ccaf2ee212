package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.sampling.SamplingParamsBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Request → sampling parameters, with vLLM's precedence: the request's value, else the model's generation config,
 * else vLLM's built-in default.
 */
final class ChatSamplingMapper {

    private ChatSamplingMapper() {
    }

    static Outcome<SamplingParams> map(ChatRequest request, ChatBudget budget, GenerationConfig defaults,
            Tokenizer tokenizer) {
        ChatSampling s = request.sampling();
        ChatStopping stop = request.stopping();
        SamplingParamsBuilder b = SamplingParams.builder();
        s.temperature().or(() -> box(defaults.temperature())).ifPresent(b::temperature);
        s.topP().or(() -> box(defaults.topP())).ifPresent(b::topP);
        s.topK().or(() -> defaults.topK().isPresent() ? java.util.Optional.of(defaults.topK().getAsInt())
                : java.util.Optional.empty()).ifPresent(b::topK);
        s.minP().or(() -> box(defaults.minP())).ifPresent(b::minP);
        s.repetitionPenalty().or(() -> box(defaults.repetitionPenalty())).ifPresent(b::repetitionPenalty);
        s.presencePenalty().ifPresent(b::presencePenalty);
        s.frequencyPenalty().ifPresent(b::frequencyPenalty);
        s.seed().ifPresent(b::seed);
        b.logitBias(s.logitBias());
        s.allowedTokenIds().ifPresent(b::allowedTokenIds);
        Outcome<List<List<Integer>>> badWords = badWords(s.badWords(), tokenizer);
        if (badWords instanceof Outcome.Refused<List<List<Integer>>> refused) {
            return Outcome.refused(refused.refusal());
        }
        b.badWords(((Outcome.Done<List<List<Integer>>>) badWords).value());
        b.maxTokens(budget.maxTokens());
        b.minTokens((int) Math.min(Integer.MAX_VALUE, stop.minTokens()));
        b.stop(stop.stop());
        b.stopTokenIds(stop.stopTokenIds());
        b.ignoreEos(stop.ignoreEos());
        b.includeStopStrInOutput(stop.includeStopStrInOutput());
        b.skipSpecialTokens(request.output().skipSpecialTokens());
        b.spacesBetweenSpecialTokens(request.output().spacesBetweenSpecialTokens());
        promptLogprobs(request).ifPresent(b::promptLogprobs);
        if (request.logprobs().logprobs()) {
            b.logprobs(Math.max(0, request.logprobs().topLogprobs()));
        }
        // under beam search n is the beam width, and the search asks for one sequence per beam and step
        b.n(s.useBeamSearch() ? 1 : s.n());
        var rd = stop.repetitionDetection();
        b.repetitionDetection(clamp(rd.maxPatternSize()), clamp(rd.minPatternSize()), clamp(rd.minCount()));
        return b.build();
    }

    /**
     * How many alternatives per prompt token to return: {@code prompt_logprobs}, else with {@code echo} the
     * {@code top_logprobs} count (as vLLM's protocol does). Streams never carry them, so none are computed there.
     */
    private static OptionalInt promptLogprobs(ChatRequest request) {
        if (request.streaming().stream()) {
            return OptionalInt.empty();
        }
        var logprobs = request.logprobs();
        if (logprobs.promptLogprobs().isPresent()) {
            return OptionalInt.of(Math.max(0, logprobs.promptLogprobs().getAsInt()));
        }
        return request.output().echo() ? OptionalInt.of(Math.max(0, logprobs.topLogprobs()))
                : OptionalInt.empty();
    }

    /** Each bad word as token ids, with and without a leading space (as vLLM tokenizes them). */
    private static Outcome<List<List<Integer>>> badWords(List<String> words, Tokenizer tokenizer) {
        Set<List<Integer>> sequences = new LinkedHashSet<>();
        for (String word : words) {
            for (String variant : List.of(word, " " + word.stripLeading())) {
                int[] ids = tokenizer.encode(variant, false);
                if (ids.length == 0) {
                    return Outcome.refused(Refusal.invalid("bad_words", "bad_words entries must tokenize to at least one token."));
                }
                sequences.add(Arrays.stream(ids).boxed().toList());
            }
        }
        return Outcome.done(new ArrayList<>(sequences));
    }

    private static int clamp(long value) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }

    private static java.util.Optional<Double> box(java.util.OptionalDouble value) {
        return value.isPresent() ? java.util.Optional.of(value.getAsDouble()) : java.util.Optional.empty();
    }
}
