package dev.crucible.application.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import java.util.Optional;

/** Lists, reads and opens the caller's files; another entity's file is "not found". */
public record FileQueryService(FileStore files, FileContents contents)
        implements ListFilesUseCase, GetFileUseCase, ReadFileContentUseCase {

    static final String ID_PARAM = "file_id";

    @Override
    public Outcome<Page<StoredFile>> list(ListFilesUseCase.Command command) {
        FileListRequest request = command.request();
        Optional<StoredFile> after = request.after().flatMap(id -> files.find(command.caller().entity(), id));
        if (request.after().isPresent() && after.isEmpty()) {
            return Outcome.refused(Refusal.invalid("after", "after '" + request.after().get() + "' is not one of your files"));
        }
        var fetched = files.fetchPage(command.caller().entity(), request, after);
        boolean more = fetched.size() > request.limit();
        return Outcome.done(new Page<>(more ? fetched.subList(0, request.limit()) : fetched, more));
    }

    @Override
    public Outcome<StoredFile> get(GetFileUseCase.Command command) {
        return FileLookup.ownedBy(files, command.caller().entity(), command.fileId(), ID_PARAM);
    }

    @Override
    public Outcome<Content> read(ReadFileContentUseCase.Command command) {
        return FileLookup.ownedBy(files, command.caller().entity(), command.fileId(), ID_PARAM)
                .map(file -> new Content(file, contents.open(file.id())));
    }
}
