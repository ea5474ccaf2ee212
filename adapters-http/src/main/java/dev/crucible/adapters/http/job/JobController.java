package dev.crucible.adapters.http.job;

import io.micronaut.http.annotation.RequestBean;
import dev.crucible.adapters.http.paging.PageQuery;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.adapters.http.trajectory.TrajectoryGroupsReader;
import dev.crucible.application.job.CreateRlJobUseCase;
import dev.crucible.application.job.CreateSftJobUseCase;
import dev.crucible.application.job.GetJobUseCase;
import dev.crucible.application.job.ListJobEventsUseCase;
import dev.crucible.application.job.ListJobsUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import dev.crucible.adapters.http.dataset.RlDatasetGroups;
import dev.crucible.application.dataset.ReadDatasetContentUseCase;
import dev.crucible.application.job.dataset.JsonLineParser;
import java.io.InputStream;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;

/**
 * Training jobs: create RL and SFT (queued, answered at once; once per {@code Idempotency-Key}), list them, read
 * one, list its events.
 */
@Controller("/v1/preview")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record JobController(JsonBody json, IdempotentCreation idempotent, CreateRlJobUseCase createRl,
        CreateSftJobUseCase createSft, GetJobUseCase get, ListJobsUseCase listJobs, ListJobEventsUseCase events,
        ReadDatasetContentUseCase datasets, JsonLineParser lines) {

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/RlJobRequest")))
    @QueuedJobResponse
    @Post("/training-jobs")
    HttpResponse<?> createRl(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        JsonReader request = json.largeObject(body);
        ModelId model = modelId(request);
        // An RL dataset (dataset_id) stands for the trajectory groups; its checkpoint then learned from it.
        Optional<RlDatasetGroups> dataset = request.string("dataset_id").map(id -> {
            request.forbid("trajectory_groups", "cannot be sent with dataset_id, whose rows are the groups");
            return RlDatasetGroups.read(datasets, lines, caller, id);
        });
        var groups = TrajectoryGroupsReader.read(dataset.map(RlDatasetGroups::groups).orElse(request),
                "trajectory_groups");
        RlConfig config = request.object(RlConfig.PARAM).map(RlConfig::read).orElseGet(RlConfig::defaults);
        return queue(caller, key, "training-jobs", request, () -> createRl.create(new CreateRlJobUseCase.Command(
                caller, model, groups, config, dataset.map(d -> d.rows().dataset().id()))));
    }

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/SftJobRequest")))
    @QueuedJobResponse
    @Post("/sft-training-jobs")
    HttpResponse<?> createSft(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        JsonReader request = json.object(body);
        ModelId model = modelId(request);
        String url = request.requireString("training_data_url");
        SftConfig config = request.object(SftConfig.PARAM).map(SftConfig::read).orElseGet(SftConfig::defaults);
        Map<String, Object> experimental = request.object("experimental_config").map(JsonReader::raw).orElse(Map.of());
        return queue(caller, key, "sft-training-jobs", request,
                () -> createSft.create(new CreateSftJobUseCase.Command(caller, model, url, config, experimental)));
    }

    /** The caller's entity's jobs in creation order ({@code order} asc by default, as the other lists). */
    @Get("/training-jobs")
    PageView<JobView> list(@Parameter(hidden = true) Caller caller, @RequestBean PageQuery query) {
        var jobs = RefusalException.unwrap(listJobs.list(new ListJobsUseCase.Command(caller, query.page())));
        return PageView.of(jobs, JobView::of, job -> job.id().toString());
    }

    @Get("/training-jobs/{training_job_id}")
    JobView get(@Parameter(hidden = true) Caller caller, @PathVariable("training_job_id") String jobId) {
        return JobView.of(RefusalException.unwrap(get.get(new GetJobUseCase.Command(caller, jobId(jobId)))));
    }

    @Get("/training-jobs/{training_job_id}/events")
    PageView<JobEventView> events(@Parameter(hidden = true) Caller caller,
            @PathVariable("training_job_id") String jobId,
            @Nullable @QueryValue String after, @Nullable @QueryValue String limit) {
        PageRequest page = RequestParams.page(after, limit, null);
        var events = RefusalException.unwrap(this.events.list(new ListJobEventsUseCase.Command(caller, jobId(jobId),
                page)));
        return PageView.of(events, JobEventView::of, e -> e.id().toString());
    }

    /** Queues the job {@code create} makes, once per {@code key} in {@code scope}; answers it as a {@link JobView}. */
    private HttpResponse<?> queue(Caller caller, @Nullable String key, String scope, JsonReader request,
            Supplier<Outcome<TrainingJob>> create) {
        return idempotent.answer(caller, key, scope, () -> RequestFingerprint.of(request.raw()),
                () -> JobView.of(RefusalException.unwrap(create.get())));
    }

    private static ModelId modelId(JsonReader request) {
        return new ModelId(RequestParams.uuid("model_id", request.requireString("model_id")));
    }

    private static JobId jobId(String value) {
        return new JobId(RequestParams.uuid("training_job_id", value));
    }
}
