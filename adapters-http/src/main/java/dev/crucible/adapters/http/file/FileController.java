package dev.crucible.adapters.http.file;

import dev.crucible.adapters.http.common.PageView;
import dev.crucible.adapters.http.error.RefusalException;
import dev.crucible.application.file.DeleteFileUseCase;
import dev.crucible.application.file.GetFileUseCase;
import dev.crucible.application.file.ListFilesUseCase;
import dev.crucible.application.file.ReadFileContentUseCase;
import dev.crucible.application.file.UploadFileUseCase;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
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
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** OpenAI's Files API: each key sees only its entity's files. */
@Controller("/v1/files")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
final class FileController {

    private final UploadFileUseCase upload;
    private final ListFilesUseCase list;
    private final GetFileUseCase get;
    private final ReadFileContentUseCase content;
    private final DeleteFileUseCase delete;

    FileController(UploadFileUseCase upload, ListFilesUseCase list, GetFileUseCase get, ReadFileContentUseCase content,
            DeleteFileUseCase delete) {
        this.upload = upload;
        this.list = list;
        this.get = get;
        this.content = content;
        this.delete = delete;
    }

    @Post(consumes = MediaType.MULTIPART_FORM_DATA)
    FileView upload(Caller caller, @Nullable @Part("file") CompletedFileUpload file,
            @Nullable @Part("purpose") String purpose) {
        if (file == null) {
            return FileView.of(RefusalException.unwrap(
                    upload.upload(new UploadFileUseCase.Command(caller, null, purpose, null))));
        }
        // No discard() here: Micronaut releases the request's form parts (and deletes a part buffered on disk) once
        // the response is written; releasing it here as well was a double release (IllegalReferenceCountException).
        try (InputStream bytes = file.getInputStream()) {
            return FileView.of(RefusalException.unwrap(
                    upload.upload(new UploadFileUseCase.Command(caller, file.getFilename(), purpose, bytes))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded file", e);
        }
    }

    @Get
    PageView<FileView> list(Caller caller, @Nullable @QueryValue String purpose, @Nullable @QueryValue String limit,
            @Nullable @QueryValue String after, @Nullable @QueryValue String order) {
        var page = RefusalException.unwrap(list.list(new ListFilesUseCase.Command(caller,
                FileListParams.read(purpose, limit, after, order))));
        return PageView.of(page, FileView::of, f -> f.id().toString());
    }

    @Get("/{file_id}")
    FileView get(Caller caller, @PathVariable("file_id") String fileId) {
        return FileView.of(RefusalException.unwrap(get.get(new GetFileUseCase.Command(caller, fileId))));
    }

    /** Any Accept is fine: OpenAI's SDKs ask for {@code application/binary}, others for octet-stream or nothing. */
    @Get(value = "/{file_id}/content", produces = {MediaType.APPLICATION_OCTET_STREAM, "application/binary", MediaType.ALL})
    StreamedFile content(Caller caller, @PathVariable("file_id") String fileId) {
        ReadFileContentUseCase.Content opened = RefusalException.unwrap(
                content.read(new ReadFileContentUseCase.Command(caller, fileId)));
        return new StreamedFile(opened.content(), MediaType.APPLICATION_OCTET_STREAM_TYPE,
                opened.file().createdAt().toEpochMilli(), opened.file().bytes());
    }

    @Delete("/{file_id}")
    FileDeletedView delete(Caller caller, @PathVariable("file_id") String fileId) {
        return FileDeletedView.of(RefusalException.unwrap(delete.delete(new DeleteFileUseCase.Command(caller, fileId)))
                .toString());
    }
}
