package dev.crucible.adapters.http.model;

import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.application.model.ImportAdapterUseCase;
import dev.crucible.application.model.ReadAdapterUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Part;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;

/**
 * Adapters in and out: a checkpoint's PEFT adapter as a zip archive, and a PEFT adapter (trained elsewhere, or
 * downloaded here) added to a model as its next checkpoint, served by the model's name from then on.
 */
@Controller("/v1/preview/models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
final class AdapterController {

    private final ReadAdapterUseCase read;
    private final ImportAdapterUseCase importAdapter;
    private final IdempotentCreation idempotent;
    private final ArchiveLimits limits;

    AdapterController(ReadAdapterUseCase read, ImportAdapterUseCase importAdapter, IdempotentCreation idempotent,
            ArchiveLimits limits) {
        this.read = read;
        this.importAdapter = importAdapter;
        this.idempotent = idempotent;
        this.limits = limits;
    }

    @Get(value = "/{model_id}/checkpoints/{step}/adapter", produces = "application/zip")
    HttpResponse<StreamedFile> download(@Parameter(hidden = true) Caller caller,
            @PathVariable("model_id") String modelId,
            @PathVariable("step") String step) {
        return AdapterDownload.of(RefusalException.unwrap(read.read(new ReadAdapterUseCase.Command(caller,
                modelId(modelId), RequestParams.step(step)))));
    }

    @ApiResponse(responseCode = "200", description = "The checkpoint made from the adapter",
            content = @Content(schema = @Schema(implementation = CheckpointView.class)))
    @Post(value = "/{model_id}/checkpoints", consumes = MediaType.MULTIPART_FORM_DATA)
    HttpResponse<?> upload(@Parameter(hidden = true) Caller caller, @Nullable @Header(IdempotencyKey.HEADER) String key,
            @PathVariable("model_id") String modelId, @Nullable @Part("adapter") CompletedFileUpload adapter) {
        ModelId model = modelId(modelId);
        if (adapter == null) {
            throw RefusalException.invalid("adapter", "adapter is required: a zip archive of a PEFT adapter folder "
                    + "as the multipart part 'adapter'");
        }
        MessageDigest digest = RequestFingerprint.sha256();
        Path folder;
        try (InputStream bytes = new DigestInputStream(adapter.getInputStream(), digest)) {
            folder = AdapterArchive.unpack(bytes, limits);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded adapter", e);
        }
        try {
            String archiveDigest = RequestFingerprint.hex(digest);
            return idempotent.answer(caller, key, "adapters", () -> RequestFingerprint.of(modelId, archiveDigest),
                    () -> CheckpointView.of(RefusalException.unwrap(importAdapter.importAdapter(
                            new ImportAdapterUseCase.Command(caller, model, folder)))));
        } finally {
            AdapterArchive.delete(folder);
        }
    }

    private static ModelId modelId(String value) {
        return new ModelId(RequestParams.uuid("model_id", value));
    }
}
