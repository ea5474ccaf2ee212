package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.application.primitives.CreateRunUseCase;
import dev.crucible.application.primitives.RunCommand;
import dev.crucible.application.primitives.RunInfoUseCase;
import dev.crucible.application.primitives.SubmitRunOperationUseCase;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Training runs and their sequenced operations (Tinker's JSON profile). Each route answers
 * {@code {"request_id", "model_id"}} once the operation is a row of the log; its result comes from
 * {@code retrieve_future}. {@code get_info} answers directly.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerTrainingController(JsonBody json, CreateRunUseCase create, SubmitRunOperationUseCase submit,
        RunInfoUseCase info) {

    private static final long UNLOAD_PLACE = Long.MAX_VALUE - 1;

    @Post("/create_model")
    Map<String, Object> createModel(Caller caller, @Nullable @Body InputStream body) {
        return accepted(RefusalException.unwrap(create.create(TinkerRequests.createModel(caller, json.object(body)))),
                null);
    }

    @Post("/get_info")
    Map<String, Object> getInfo(Caller caller, @Nullable @Body InputStream body) {
        RunInfoUseCase.RunInfo run = RefusalException.unwrap(info.info(caller,
                json.object(body).requireString("model_id")));
        String base = run.run().baseModel();
        return TinkerReplies.ordered("model_id", run.run().model().toString(), "model_data", Map.of("arch",
                run.architecture(), "model_name", base, "tokenizer_id", base), "is_lora", true, "lora_rank",
                run.run().lora().rank(), "model_name", base, "type", "get_info");
    }

    @Post("/unload_model")
    Map<String, Object> unload(Caller caller, @Nullable @Body InputStream body) {
        JsonReader in = json.object(body);
        // the SDK sends no seq_id here: an unload takes the run's last place, after whatever is queued
        UUID id = RefusalException.unwrap(submit.submit(new SubmitRunOperationUseCase.Command(caller,
                in.requireString("model_id"), UNLOAD_PLACE, new RunCommand.Unload(), TinkerRequests.digest(in))));
        return accepted(id, in.requireString("model_id"));
    }

    @Post("/forward_backward")
    Map<String, Object> forwardBackward(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, in -> TinkerRequests.forwardBackward(in, false));
    }

    @Post("/forward")
    Map<String, Object> forward(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, in -> TinkerRequests.forwardBackward(in, true));
    }

    @Post("/optim_step")
    Map<String, Object> optimStep(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, TinkerRequests::optimStep);
    }

    @Post("/save_weights")
    Map<String, Object> saveWeights(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, TinkerRequests::saveWeights);
    }

    @Post("/load_weights")
    Map<String, Object> loadWeights(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, TinkerRequests::loadWeights);
    }

    @Post("/save_weights_for_sampler")
    Map<String, Object> saveWeightsForSampler(Caller caller, @Nullable @Body InputStream body) {
        return submit(caller, body, TinkerRequests::saveForSampler);
    }

    /** Reads the body, then the operation {@code command} makes of it, and queues it at the body's {@code seq_id}. */
    private Map<String, Object> submit(Caller caller, @Nullable InputStream body,
            Function<JsonReader, RunCommand> command) {
        JsonReader in = json.object(body);
        UUID id = RefusalException.unwrap(submit.submit(TinkerRequests.sequenced(caller, in, command.apply(in))));
        return accepted(id, in.requireString("model_id"));
    }

    private static Map<String, Object> accepted(UUID requestId, String modelId) {
        return TinkerReplies.ordered("request_id", requestId.toString(), "model_id", modelId);
    }
}
