package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.optimStep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.http.tinker.proto.SdkResponses;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cookbook's RL loop ({@code recipes/rl_loop.py}, reference §9) replayed over HTTP in both profiles on a tiny
 * model: an ephemeral sampler, groups of samples with their logprobs, datums built as the cookbook builds them, one
 * {@code importance_sampling} forward_backward and an optim_step, then the next ephemeral sampler. Checked: the step's
 * {@code loss:sum} is {@code -Σ exp(lp - q)·A} computed here from the returned per-datum logprobs {@code lp}, the
 * sampler's logprobs {@code q} and the advantages; the trainer scored the sampled tokens as the sampler did (FP32:
 * within {@value #AGREEMENT} nats, as {@link TinkerReplayIT}); the step lowered that loss; and the next sampler
 * scores the sampled tokens as the trainer does after the step, not as before it. The step's metrics say how far the
 * trainer was from the sampler over the trained positions ({@code sampler_logprob_diff_mean:mean} and the others,
 * within the same agreement); with every sampled logprob lowered by {@value #SHIFT} the step drifts past the server's
 * {@code crucible.primitives.max-logprob-drift} ({@value #DRIFT_LIMIT}) and fails as the user's fault, saying so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TinkerRlLoopIT {

    private static final int[][] PROMPTS = {{5, 9, 14, 3}, {40, 41, 42}};
    private static final int GROUP = 4;
    private static final int MAX_TOKENS = 6;
    private static final double LEARNING_RATE = 0.02;
    /** Trainer (DJL) and sampler (the serving engine) compute in FP32 in different orders. */
    private static final double AGREEMENT = 5e-3;
    private static final double DRIFT_LIMIT = 0.05;
    private static final double SHIFT = 0.5;

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.primitives.max-logprob-drift", DRIFT_LIMIT));

    @ParameterizedTest
    @EnumSource(TinkerProfile.class)
    void anImportanceSamplingStepLearnsFromTheSampledTokensAndTheNextSamplerHasItsWeights(TinkerProfile profile) {
        Run run = Run.start(server, "rl-" + profile.name().toLowerCase(Locale.ROOT));
        TinkerClient tinker = run.tinker();
        int vocab = run.vocab();
        String model = run.model();
        String sampler = run.sampler();

        List<String> asked = new ArrayList<>();
        for (int p = 0; p < PROMPTS.length; p++) {
            asked.add(tinker.submit("asample", sample(sampler, p, PROMPTS[p], GROUP, MAX_TOKENS, false)));
        }
        List<Datum> data = new ArrayList<>();
        List<int[]> sequences = new ArrayList<>();
        List<Integer> observed = new ArrayList<>();
        for (int p = 0; p < PROMPTS.length; p++) {
            SdkResponses.Sample group = profile.awaitSample(tinker, asked.get(p));
            assertEquals(GROUP, group.sequences().size(), group.toString());
            double[] rewards = group.sequences().stream().mapToDouble(s -> reward(s.tokens(), vocab)).toArray();
            double mean = java.util.Arrays.stream(rewards).average().orElseThrow();
            for (int s = 0; s < GROUP; s++) {
                SdkResponses.Sequence sampled = group.sequences().get(s);
                assertNotNull(sampled.logprobs(), "the sampler always answers the sampled tokens' logprobs");
                assertEquals(sampled.tokens().size(), sampled.logprobs().size(), sampled.toString());
                data.add(cookbookDatum(PROMPTS[p], sampled, rewards[s] - mean));
                sequences.add(concat(PROMPTS[p], sampled.tokens()));
                observed.add(PROMPTS[p].length - 1);
            }
        }

        ForwardBackwardInput step = new ForwardBackwardInput(data, "importance_sampling", Map.of(), false);
        String fb = profile.forwardBackward(tinker, model, tinker.nextSeq(), step);
        String opt = tinker.submit("optim_step", optimStep(model, tinker.nextSeq(), LEARNING_RATE));
        ForwardBackwardOutput before = profile.awaitForwardBackward(tinker, fb);
        Map<String, Object> optimized = tinker.await(opt);
        assertTrue(optimized.containsKey("metrics"), optimized.toString());

        Map<String, Double> metrics = before.metrics();
        assertTrue(metrics.get("sampler_logprob_diff_mean:mean") < AGREEMENT, metrics.toString());
        assertTrue(metrics.get("sampler_logprob_diff_max:max") < AGREEMENT, metrics.toString());
        assertTrue(metrics.get("sampler_kl_k3:mean") < AGREEMENT * AGREEMENT, metrics.toString());
        assertTrue(metrics.get("sampler_logprob_tokens:sum") > 0, metrics.toString());

        double expected = importanceSamplingLoss(data, before);
        double loss = before.metrics().get("loss:sum");
        assertEquals(expected, loss, 1e-4 * Math.max(1, Math.abs(expected)),
                "loss:sum is -Σ exp(lp - q)·A over the sampled tokens");
        for (int d = 0; d < data.size(); d++) {
            float[] lp = logprobs(before, d);
            float[] q = floats(data.get(d), "logprobs");
            int ob = observed.get(d);
            for (int i = ob; i < lp.length; i++) {
                assertEquals(q[i], lp[i], AGREEMENT, "datum " + d + " position " + i
                        + ": the trainer scores the sampled token as the sampler did");
            }
        }

        ForwardBackwardOutput after = profile.awaitForwardBackward(tinker, profile.forwardBackward(tinker, model,
                tinker.nextSeq(), new ForwardBackwardInput(data, "importance_sampling", Map.of(), true)));
        assertEquals(importanceSamplingLoss(data, after), after.metrics().get("loss:sum"),
                1e-4 * Math.max(1, Math.abs(expected)), "a forward pass's loss:sum has the same formula");
        assertTrue(after.metrics().get("loss:sum") < loss, "the step lowered the importance-sampling loss: before "
                + loss + ", after " + after.metrics().get("loss:sum"));

        String next = ephemeralSampler(tinker, model, 1);
        double moved = 0;
        for (int d = 0; d < data.size(); d++) {
            SdkResponses.Sample scored = profile.awaitSample(tinker, tinker.submit("asample", sample(next, d,
                    sequences.get(d), 1, 1, true)));
            List<Float> prompt = scored.promptLogprobs();
            assertNotNull(prompt, scored.toString());
            float[] trained = logprobs(after, d);
            float[] old = logprobs(before, d);
            for (int i = observed.get(d); i < trained.length; i++) {
                assertEquals(trained[i], prompt.get(i + 1), AGREEMENT, "datum " + d + " position " + i
                        + ": the next sampler scores as the trainer after the step");
                moved = Math.max(moved, Math.abs(trained[i] - old[i]));
            }
        }
        assertTrue(moved > 4 * AGREEMENT, "the step moved the sampled tokens' logprobs by " + moved
                + ", so the next sampler's agreement is with the new weights, not the old");
    }

    @ParameterizedTest
    @EnumSource(TinkerProfile.class)
    void aStepWhoseSamplerDriftedPastTheServersLimitFailsAsTheUsersFault(TinkerProfile profile) {
        Run run = Run.start(server, "drift-" + profile.name().toLowerCase(Locale.ROOT));
        TinkerClient tinker = run.tinker();
        SdkResponses.Sample group = profile.awaitSample(tinker, tinker.submit("asample", sample(run.sampler(), 0,
                PROMPTS[0], GROUP, MAX_TOKENS, false)));
        double[] rewards = group.sequences().stream().mapToDouble(s -> reward(s.tokens(), run.vocab())).toArray();
        double mean = java.util.Arrays.stream(rewards).average().orElseThrow();
        List<Datum> data = new ArrayList<>();
        for (int s = 0; s < GROUP; s++) {
            SdkResponses.Sequence sampled = group.sequences().get(s);
            List<Float> lowered = sampled.logprobs().stream().map(q -> (float) (q - SHIFT)).toList();
            data.add(cookbookDatum(PROMPTS[0], new SdkResponses.Sequence(sampled.stopReason(), sampled.tokens(),
                    lowered), rewards[s] - mean));
        }
        Map<String, Object> failed = tinker.await(profile.forwardBackward(tinker, run.model(), tinker.nextSeq(),
                new ForwardBackwardInput(data, "importance_sampling", Map.of(), false)));
        assertEquals("user", failed.get("category"), failed.toString());
        String error = String.valueOf(failed.get("error"));
        assertTrue(error.contains("accumulated nothing")
                && error.contains("is above crucible.primitives.max-logprob-drift = " + DRIFT_LIMIT), error);
        java.util.regex.Matcher measured = java.util.regex.Pattern.compile(
                "mean \\|trainer - sampler\\| = ([0-9.eE+-]+) nats").matcher(error);
        assertTrue(measured.find(), error);
        assertEquals(SHIFT, Double.parseDouble(measured.group(1)), AGREEMENT, error);
    }

    /** A new key's client, the vocabulary, a fresh run of rank 8 on the base model and its first sampler. */
    private record Run(TinkerClient tinker, int vocab, String model, String sampler) {

        static Run start(TestServer server, String keyName) {
            TinkerClient tinker = new TinkerClient(server, server.newKey(keyName));
            String model = tinker.createModel(TestServer.BASE_MODEL, 8);
            return new Run(tinker, TinkerClient.vocabSize(server), model, ephemeralSampler(tinker, model, 0));
        }
    }

    /** The cookbook's datum: input prompt + sampled[:-1]; targets, logprobs, advantages 0 over the prompt. */
    private static Datum cookbookDatum(int[] prompt, SdkResponses.Sequence sampled, double advantage) {
        int ob = prompt.length - 1;
        int n = ob + sampled.tokens().size();
        int[] input = new int[n];
        long[] targets = new long[n];
        float[] logprobs = new float[n];
        float[] advantages = new float[n];
        System.arraycopy(prompt, 0, input, 0, prompt.length);
        for (int j = 0; j < sampled.tokens().size(); j++) {
            if (j + 1 < sampled.tokens().size()) {
                input[prompt.length + j] = sampled.tokens().get(j);
            }
            targets[ob + j] = sampled.tokens().get(j);
            logprobs[ob + j] = sampled.logprobs().get(j);
            advantages[ob + j] = (float) advantage;
        }
        return new Datum(input, Map.of("target_tokens", Tensor.Ints.of(targets), "logprobs",
                Tensor.Floats.of(logprobs), "advantages", Tensor.Floats.of(advantages)));
    }

    /** {@code -Σ exp(lp - q)·A} over every position of every datum, from the returned logprobs. */
    private static double importanceSamplingLoss(List<Datum> data, ForwardBackwardOutput output) {
        double loss = 0;
        for (int d = 0; d < data.size(); d++) {
            float[] lp = logprobs(output, d);
            float[] q = floats(data.get(d), "logprobs");
            float[] a = floats(data.get(d), "advantages");
            assertEquals(a.length, lp.length, "one logprob per position of datum " + d);
            for (int i = 0; i < lp.length; i++) {
                loss -= Math.exp((double) lp[i] - q[i]) * a[i];
            }
        }
        return loss;
    }

    /** A reward that varies with the tokens: their mean id, as a fraction of the vocabulary. */
    private static double reward(List<Integer> tokens, int vocab) {
        return tokens.stream().mapToDouble(t -> t).average().orElse(0) / vocab;
    }

    private static String ephemeralSampler(TinkerClient tinker, String model, int samplingSeq) {
        Map<String, Object> saved = tinker.await(tinker.submit("save_weights_for_sampler", Map.of("model_id", model,
                "seq_id", tinker.nextSeq(), "sampling_session_seq_id", samplingSeq)));
        String sampler = (String) saved.get("sampling_session_id");
        assertNotNull(sampler, saved.toString());
        return sampler;
    }

    private static Map<String, Object> sample(String sampler, int seq, int[] prompt, int samples, int maxTokens,
            boolean promptLogprobs) {
        return Map.of("sampling_session_id", sampler, "seq_id", seq, "num_samples", samples, "prompt",
                Map.of("chunks", List.of(Map.of("tokens", java.util.Arrays.stream(prompt).boxed().toList(), "type",
                        "encoded_text"))), "sampling_params", Map.of("max_tokens", maxTokens, "temperature", 1.0,
                        "top_k", -1, "top_p", 1.0), "prompt_logprobs", promptLogprobs, "topk_prompt_logprobs", 0,
                "type", "sample");
    }

    private static float[] floats(Datum datum, String name) {
        return ((Tensor.Floats) datum.lossFnInputs().get(name)).values();
    }

    private static float[] logprobs(ForwardBackwardOutput output, int datum) {
        return ((Tensor.Floats) output.lossFnOutputs().get(datum).get("logprobs")).values();
    }

    private static int[] concat(int[] prompt, List<Integer> sampled) {
        int[] out = java.util.Arrays.copyOf(prompt, prompt.length + sampled.size());
        for (int j = 0; j < sampled.size(); j++) {
            out[prompt.length + j] = sampled.get(j);
        }
        return out;
    }
}
