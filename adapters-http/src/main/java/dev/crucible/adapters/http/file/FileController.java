package dev.crucible.adapters.http.file;

import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.application.file.DeleteFileUseCase;
import dev.crucible.application.file.GetFileUseCase;
import dev.crucible.application.file.ListFilesUseCase;
import dev.crucible.application.file.ReadFileContentUseCase;
import dev.crucible.application.file.UploadFileUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Part;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
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

/** OpenAI's Files API: each key sees only its entity's files; an upload runs once per {@code Idempotency-Key}. */
@Controller("/v1/files")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record FileController(IdempotentCreation idempotent, UploadFileUseCase upload, ListFilesUseCase list,
        GetFileUseCase get, ReadFileContentUseCase content, DeleteFileUseCase delete) {

    @ApiResponse(responseCode = "200", description = "The stored file",
            content = @Content(schema = @Schema(implementation = FileView.class)))
    @Post(consumes = MediaType.MULTIPART_FORM_DATA)
    HttpResponse<?> upload(@Parameter(hidden = true) Caller caller, @Nullable @Header(IdempotencyKey.HEADER) String key,
            @Nullable @Part("file") CompletedFileUpload file, @Nullable @Part("purpose") String purpose) {
        if (file == null) {
            return HttpResponse.ok(FileView.of(RefusalException.unwrap(
                    upload.upload(new UploadFileUseCase.Command(caller, null, purpose, null)))));
        }
        // No discard() here: Micronaut releases the request's form parts (and deletes a part buffered on disk) once
        // the response is written; releasing it here as well was a double release (IllegalReferenceCountException).
        try (InputStream bytes = file.getInputStream()) {
            if (key == null) {
                return HttpResponse.ok(store(caller, file.getFilename(), purpose, bytes));
            }
            // A part can be read once: it is copied aside while digested, so that the key is claimed before any write.
            try (SpooledUpload spooled = SpooledUpload.of(bytes)) {
                return idempotent.answer(caller, key, "files",
                        () -> RequestFingerprint.of(purpose, file.getFilename(), spooled.sha256()),
                        () -> spooled.read(copy -> store(caller, file.getFilename(), purpose, copy)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded file", e);
        }
    }

    private FileView store(Caller caller, String filename, String purpose, InputStream bytes) {
        return FileView.of(RefusalException.unwrap(
                upload.upload(new UploadFileUseCase.Command(caller, filename, purpose, bytes))));
    }

    @Get
    PageView<FileView> list(@Parameter(hidden = true) Caller caller, @Nullable @QueryValue String purpose,
            @Nullable @QueryValue String limit,
            @Nullable @QueryValue String after, @Nullable @QueryValue String order) {
        var page = RefusalException.unwrap(list.list(new ListFilesUseCase.Command(caller,
                FileListParams.read(purpose, limit, after, order))));
        return PageView.of(page, FileView::of, f -> f.id().toString());
    }

    @Get("/{file_id}")
    FileView get(@Parameter(hidden = true) Caller caller, @PathVariable("file_id") String fileId) {
        return FileView.of(RefusalException.unwrap(get.get(new GetFileUseCase.Command(caller, fileId))));
    }

    /** Any Accept is fine: OpenAI's SDKs ask for {@code application/binary}, others for octet-stream or nothing. */
    @Get(value = "/{file_id}/content", produces = {MediaType.APPLICATION_OCTET_STREAM, "application/binary",
            MediaType.ALL})
    StreamedFile content(@Parameter(hidden = true) Caller caller, @PathVariable("file_id") String fileId) {
        ReadFileContentUseCase.Content opened = RefusalException.unwrap(
                content.read(new ReadFileContentUseCase.Command(caller, fileId)));
        return new StreamedFile(opened.content(), MediaType.APPLICATION_OCTET_STREAM_TYPE,
                opened.file().createdAt().toEpochMilli(), opened.file().bytes());
    }

    @Delete("/{file_id}")
    FileDeletedView delete(@Parameter(hidden = true) Caller caller, @PathVariable("file_id") String fileId) {
        return FileDeletedView.of(RefusalException.unwrap(delete.delete(new DeleteFileUseCase.Command(caller, fileId)))
                .toString());
    }
}
