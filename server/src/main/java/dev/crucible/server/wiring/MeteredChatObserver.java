package dev.crucible.server.wiring;

import dev.crucible.application.inference.chat.ChatObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Chat latencies and token counts as vLLM's meters, labelled {@code model_name}, with vLLM's histogram buckets:
 * {@code vllm:time_to_first_token_seconds}, {@code vllm:e2e_request_latency_seconds}, {@code vllm:prompt_tokens_total}
 * and {@code vllm:request_success_total} by {@code finished_reason}. The two histograms of the models served at start
 * are registered when the observer is made, so that a model's first token does not build its histogram (measured:
 * about 50 ms of the first request's time to first token on a loaded machine) and a scrape shows them from the
 * start, at zero, as vLLM's do.
 */
final class MeteredChatObserver implements ChatObserver {

    /** vLLM's buckets for time to first token, in seconds. */
    private static final Duration[] FIRST_TOKEN = seconds(0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
            0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0);
    /** vLLM's buckets for a request's whole latency, in seconds. */
    private static final Duration[] END_TO_END = seconds(0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0,
            30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0);

    private final MeterRegistry registry;

    MeteredChatObserver(MeterRegistry registry, List<String> served) {
        this.registry = registry;
        for (String model : served) {
            firstTokens(model);
            latencies(model);
        }
    }

    private static Duration[] seconds(double... values) {
        return Arrays.stream(values).mapToObj(v -> Duration.ofNanos(Math.round(v * 1e9))).toArray(Duration[]::new);
    }

    @Override
    public void firstToken(String model, Duration afterArrival) {
        firstTokens(model).record(afterArrival);
    }

    @Override
    public void finished(String model, int promptTokens, Duration afterArrival, String finishReason) {
        latencies(model).record(afterArrival);
        Counter.builder("vllm:prompt_tokens").description("Prompt tokens processed").tag("model_name", model)
                .register(registry).increment(promptTokens);
        Counter.builder("vllm:request_success").description("Requests finished, by why they finished")
                .tag("model_name", model).tag("finished_reason", finishReason).register(registry).increment();
    }

    private Timer firstTokens(String model) {
        return Timer.builder("vllm:time_to_first_token").description("Time to first token").tag("model_name", model)
                .serviceLevelObjectives(FIRST_TOKEN).register(registry);
    }

    private Timer latencies(String model) {
        return Timer.builder("vllm:e2e_request_latency").description("End-to-end request latency")
                .tag("model_name", model).serviceLevelObjectives(END_TO_END).register(registry);
    }
}
