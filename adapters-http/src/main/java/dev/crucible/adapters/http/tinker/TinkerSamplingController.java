package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.application.primitives.SampleSettings;
import dev.crucible.application.primitives.SampleUseCase;
import dev.crucible.application.primitives.SamplersUseCase;
import dev.crucible.application.primitives.SamplingSession;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Sampling sessions and {@code asample} (a future), Tinker's JSON shapes. {@code stop} is a string, a list of strings
 * or a list of token ids.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerSamplingController(JsonBody json, SamplersUseCase samplers, SampleUseCase sample) {

    @Post("/create_sampling_session")
    Map<String, Object> create(Caller caller, @Nullable @Body InputStream body) {
        JsonReader in = json.object(body);
        SamplingSession created = RefusalException.unwrap(samplers.create(caller, TinkerRequests.session(in),
                in.string("base_model"),
                in.string("model_path")));
        return Map.of("sampling_session_id", created.id().toString());
    }

    @Get("/samplers/{id}")
    Map<String, Object> sampler(Caller caller, @PathVariable("id") String id) {
        SamplingSession found = RefusalException.unwrap(samplers.find(caller, id));
        return TinkerReplies.ordered("sampler_id", found.id().toString(), "base_model", found.baseModel(),
                "model_path", found.modelPath().orElse(null));
    }

    @Post("/asample")
    Map<String, Object> asample(Caller caller, @Nullable @Body InputStream body) {
        JsonReader in = json.object(body);
        JsonReader params = in.object("sampling_params").orElse(new JsonReader(Map.of(), "sampling_params"));
        List<String> stopStrings = new ArrayList<>();
        List<Integer> stopTokens = new ArrayList<>();
        Object stop = params.raw("stop");
        if (stop instanceof String s) {
            stopStrings.add(s);
        } else if (stop instanceof List<?> items) {
            for (Object item : items) {
                switch (item) {
                    case String s when stopTokens.isEmpty() -> stopStrings.add(s);
                    case Number n when stopStrings.isEmpty() && n.doubleValue() == Math.rint(n.doubleValue())
                            && Math.abs(n.doubleValue()) < Integer.MAX_VALUE -> stopTokens.add(n.intValue());
                    default -> throw params.reject("stop", "must be a string, a list of strings or a list of "
                            + "token ids");
                }
            }
        } else if (stop != null) {
            throw params.reject("stop", "must be a string, a list of strings or a list of token ids");
        }
        SampleSettings settings = new SampleSettings(in.integer("num_samples", 1, 1),
                params.present("max_tokens") ? OptionalInt.of(params.integer("max_tokens", 1, 1)) : OptionalInt.empty(),
                params.number("temperature", 1.0, 0, 1e6), params.number("top_p", 1.0, 0, 1),
                params.integer("top_k", -1, -1),
                params.present("seed") ? OptionalLong.of(params.integer("seed", 0, Integer.MIN_VALUE))
                        : OptionalLong.empty(), stopStrings, stopTokens, in.bool("prompt_logprobs", false),
                in.integer("topk_prompt_logprobs", 0, 0));
        String sampler = in.string("sampling_session_id").orElseThrow(() -> in.missing("sampling_session_id"));
        OptionalLong seq = in.present("seq_id") ? OptionalLong.of(in.integer("seq_id", 0, 0)) : OptionalLong.empty();
        UUID id = RefusalException.unwrap(sample.sample(new SampleUseCase.Command(caller, sampler, seq,
                DatumJson.modelInput(in.requireObject("prompt")), settings, RequestFingerprint.of(in.raw()))));
        return Map.of("request_id", id.toString());
    }
}
