package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.sampling.SamplingChecks;
import dev.crucible.runtime.generation.sampling.SamplingParams;

/**
 * The model-independent checks of vLLM's {@code SamplingParams._verify_args} and {@code _verify_greedy_sampling}, in
 * that order, on the request's own values: they run before the model is resolved, as vLLM's protocol layer runs
 * them, so a bad range is reported before anything about the model. A range on a field the request left out is
 * not checked here: the model's default fills it in later, and {@link SamplingParams} checks the values it samples
 * with. The {@code min_tokens <= max_tokens} check needs the effective budget, so it is {@code ChatLimits}'; greedy
 * sampling with {@code n > 1} is caught here only for an explicit temperature. The checks and their messages are
 * the runtime's {@link SamplingChecks}, written once. Under {@code use_beam_search} the greedy check gives way to the
 * beam width's limit.
 */
final class ChatSamplingRanges {

    private ChatSamplingRanges() {
    }

    /** {@code request}, or the first range it breaks as an invalid-field refusal with vLLM's message. */
    static Outcome<ChatRequest> check(ChatRequest request) {
        return SamplingChecks.refusing(() -> checks(request), () -> request);
    }

    private static void checks(ChatRequest request) {
        ChatSampling s = request.sampling();
        ChatStopping stopping = request.stopping();
        SamplingChecks.n(s.n(), false);
        SamplingChecks.maxN(s.n());
        s.presencePenalty().ifPresent(v -> SamplingChecks.penalty("presence_penalty", v));
        s.frequencyPenalty().ifPresent(v -> SamplingChecks.penalty("frequency_penalty", v));
        s.repetitionPenalty().ifPresent(SamplingChecks::repetitionPenalty);
        s.temperature().ifPresent(SamplingChecks::temperature);
        s.topP().ifPresent(SamplingChecks::topP);
        s.topK().ifPresent(SamplingChecks::topK);
        s.minP().ifPresent(SamplingChecks::minP);
        stopping.maxTokens().ifPresent(SamplingChecks::maxTokens);
        SamplingChecks.minTokens(stopping.minTokens());
        stopping.truncatePromptTokens().ifPresent(SamplingChecks::truncatePromptTokens);
        SamplingChecks.stop(stopping.stop());
        SamplingChecks.badWordTexts(s.badWords());
        SamplingChecks.allowedTokenIds(s.allowedTokenIds());
        if (s.useBeamSearch()) {
            // vLLM builds beam-search parameters instead of sampling ones: no greedy check, n is the beam width
            SamplingChecks.beamWidth(s.n());
        } else {
            boolean greedy = s.temperature().isPresent() && s.temperature().get() < SamplingParams.GREEDY_EPSILON;
            SamplingChecks.n(s.n(), greedy);
        }
    }
}
