package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.SequenceOutput;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import dev.crucible.runtime.generation.logprobs.RankedLogprob;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.sampling.SamplingParamsBuilder;
import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Between Tinker's sampling and the generator: a request's settings as {@link SamplingParams} (the sampled tokens'
 * log-probabilities always asked for; EOS does not stop a sample, only the request's stops and {@code max_tokens} do),
 * and the generator's result as {@link SampleOutput}.
 */
final class SampleParameters {

    private SampleParameters() {
    }

    static Outcome<SamplingParams> of(SampleUseCase.Command command, ServedModel base, PrimitiveLimits limits) {
        SampleSettings s = command.settings();
        int[] prompt = command.prompt();
        if (prompt.length == 0) {
            return invalid("prompt", "prompt must hold at least one token");
        }
        int vocab = base.config().vocabSize();
        for (int i = 0; i < prompt.length; i++) {
            if (prompt[i] < 0 || prompt[i] >= vocab) {
                return invalid("prompt", "token id " + prompt[i] + " at position " + i
                        + " is outside the vocabulary [0, " + vocab + ")");
            }
        }
        if (s.numSamples() < 1 || s.numSamples() > limits.maxSamples()) {
            return invalid("num_samples", "num_samples must be in [1, " + limits.maxSamples()
                    + "] (setting crucible.primitives.max-samples), got " + s.numSamples());
        }
        int room = base.maxModelLen() - prompt.length;
        if (room < 1) {
            return invalid("prompt", "the prompt's " + prompt.length + " tokens leave no room in the model's "
                    + base.maxModelLen() + " positions");
        }
        int maxTokens = s.maxTokens().orElse(Math.min(room, limits.maxSampleTokens()));
        if (maxTokens < 1 || maxTokens > limits.maxSampleTokens()) {
            return invalid("sampling_params.max_tokens", "max_tokens must be in [1, " + limits.maxSampleTokens()
                    + "] (setting crucible.primitives.max-sample-tokens), got " + maxTokens);
        }
        SamplingParamsBuilder b = SamplingParams.builder().n(s.numSamples()).temperature(s.temperature())
                .topP(s.topP()).topK(s.topK() < 0 ? 0 : s.topK()).maxTokens(maxTokens).stop(s.stopStrings())
                .stopTokenIds(s.stopTokens()).ignoreEos(true).logprobs(0);
        s.seed().ifPresent(b::seed);
        if (s.promptLogprobs() || s.topkPromptLogprobs() > 0) {
            b.promptLogprobs(s.topkPromptLogprobs());
        }
        return b.build().then(p -> Outcome.done(p));
    }

    static SampleOutput output(int[] prompt, GenerationResult result, SampleSettings settings) {
        List<SampleOutput.Sequence> sequences = new ArrayList<>();
        for (SequenceOutput out : result.sequences()) {
            int[] tokens = out.tokenIds().stream().mapToInt(Integer::intValue).toArray();
            float[] logprobs = new float[tokens.length];
            for (int i = 0; i < logprobs.length; i++) {
                PositionLogprobs at = i < out.logprobs().size() ? out.logprobs().get(i) : null;
                logprobs[i] = at == null ? Float.NaN : (float) at.sampled().logprob();
            }
            sequences.add(new SampleOutput.Sequence(tokens, logprobs, out.finish().reason() == FinishReason.STOP
                    ? SampleOutput.StopReason.STOP : SampleOutput.StopReason.LENGTH));
        }
        float[] promptLogprobs = new float[0];
        List<List<SampleOutput.TokenLogprob>> topk = List.of();
        if (result.promptLogprobs().isPresent()) {
            List<PromptLogprobs> positions = result.promptLogprobs().get();
            promptLogprobs = new float[prompt.length];
            Arrays.fill(promptLogprobs, Float.NaN);
            List<List<SampleOutput.TokenLogprob>> rows = new ArrayList<>();
            rows.add(List.of());
            for (int i = 0; i < positions.size() && i + 1 < prompt.length; i++) {
                List<RankedLogprob> entries = positions.get(i).entries();
                promptLogprobs[i + 1] = (float) entries.getFirst().token().logprob();
                rows.add(entries.stream().sorted(Comparator.comparingLong(RankedLogprob::rank))
                        .limit(settings.topkPromptLogprobs()).map(e -> new SampleOutput.TokenLogprob(
                                e.token().tokenId(), (float) e.token().logprob())).toList());
            }
            if (!settings.promptLogprobs()) {
                promptLogprobs = new float[0];
            }
            topk = settings.topkPromptLogprobs() > 0 ? rows : List.of();
        }
        return new SampleOutput(sequences, promptLogprobs, topk, result.cachedTokens());
    }

    private static <T> Outcome<T> invalid(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}
