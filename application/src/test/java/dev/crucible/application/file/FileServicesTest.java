package dev.crucible.application.file;

import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryFileContents;
import dev.crucible.application.fakes.InMemoryFileStore;
import dev.crucible.application.fakes.MutableClock;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.Caller;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileServicesTest {

    private final InMemoryFileStore store = new InMemoryFileStore();
    private final InMemoryFileContents contents = new InMemoryFileContents();
    private final MutableClock clock = new MutableClock(Instant.parse("2025-03-01T10:00:00Z"));
    private final UploadFileService upload = new UploadFileService(store, contents, 64, new FileQuota(3, 100), clock);
    private final FileQueryService query = new FileQueryService(store, contents);
    private final DeleteFileService delete = new DeleteFileService(store, contents);

    private static InputStream text(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private StoredFile uploaded(Caller caller, String name, String purpose) {
        StoredFile file = value(upload.upload(new UploadFileUseCase.Command(caller, name, purpose, text("{}\n"))));
        clock.advance(Duration.ofSeconds(1));
        return file;
    }

    @Test
    void anUploadIsStoredWithItsMetadataAndBytes() throws IOException {
        StoredFile file = value(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "sets/train.jsonl",
                "fine-tune", text("{\"a\": 1}\n"))));
        assertTrue(file.id().toString().startsWith("file-"));
        assertEquals("train.jsonl", file.filename());
        assertEquals(FilePurpose.FINE_TUNE, file.purpose());
        assertEquals(9, file.bytes());
        assertEquals(clock.instant(), file.createdAt());
        assertEquals(file, value(query.get(new GetFileUseCase.Command(ACME_CALLER, file.id().toString()))));
        try (InputStream in = value(query.read(new ReadFileContentUseCase.Command(ACME_CALLER, file.id().toString())))
                .content()) {
            assertArrayEquals("{\"a\": 1}\n".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
        }
    }

    @Test
    void purposeMustBeOneOfOpenAis() {
        String missing = assertRefused(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "t", null, text("x"))),
                Refusal.Reason.INVALID, "purpose");
        assertTrue(missing.startsWith("purpose is required, one of 'assistants'"), missing);
        assertEquals("purpose must be one of 'assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals', got "
                + "'training'", assertRefused(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "t", "training",
                        text("x"))), Refusal.Reason.INVALID, "purpose"));
        assertEquals(0, store.size());
    }

    @Test
    void anUploadOverTheBoundIsTooLargeAndLeavesNothing() {
        assertEquals("file is larger than 64 bytes, the most one upload may hold", assertRefused(upload.upload(
                new UploadFileUseCase.Command(ACME_CALLER, "t", "fine-tune", text("x".repeat(65)))),
                Refusal.Reason.TOO_LARGE, "file"));
        assertEquals(0, store.size());
        assertEquals(64, value(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "t", "fine-tune",
                text("x".repeat(64))))).bytes());
    }

    @Test
    void anEntityPastItsFilesOrBytesIsRefused413AndLeavesNothingWhileAnotherEntityUploads() {
        for (int i = 0; i < 3; i++) {
            uploaded(ACME_CALLER, "f" + i, "fine-tune");
        }
        String count = assertRefused(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "g", "fine-tune",
                text("{}\n"))), Refusal.Reason.TOO_LARGE, "file");
        assertTrue(count.contains("already stores 3 files") && count.contains("crucible.files.max-per-entity"), count);
        assertEquals(3, store.size());
        assertEquals(3, contents.size(), "the refused upload's bytes were deleted");

        value(upload.upload(new UploadFileUseCase.Command(GLOBEX_CALLER, "a", "fine-tune", text("x".repeat(60)))));
        String bytes = assertRefused(upload.upload(new UploadFileUseCase.Command(GLOBEX_CALLER, "b", "fine-tune",
                text("x".repeat(41)))), Refusal.Reason.TOO_LARGE, "file");
        assertTrue(bytes.contains("to 101 bytes") && bytes.contains("crucible.files.max-bytes-per-entity"), bytes);
        value(upload.upload(new UploadFileUseCase.Command(GLOBEX_CALLER, "c", "fine-tune", text("x".repeat(40)))));
    }

    @Test
    void anEmptyOrMissingFileIsRefused() {
        assertEquals("file is empty", assertRefused(upload.upload(new UploadFileUseCase.Command(ACME_CALLER, "t",
                "fine-tune", text(""))), Refusal.Reason.INVALID, "file"));
        assertEquals("file is required: send it as a multipart file part", assertRefused(upload.upload(
                new UploadFileUseCase.Command(ACME_CALLER, "t", "fine-tune", null)), Refusal.Reason.INVALID, "file"));
        assertEquals(0, store.size());
    }

    @Test
    void anotherEntitysFileIsNotFound() {
        StoredFile file = uploaded(ACME_CALLER, "a.jsonl", "fine-tune");
        String id = file.id().toString();
        assertEquals("No such File object: " + id, assertRefused(query.get(new GetFileUseCase.Command(GLOBEX_CALLER, id)),
                Refusal.Reason.NOT_FOUND, "file_id"));
        assertRefused(query.read(new ReadFileContentUseCase.Command(GLOBEX_CALLER, id)), Refusal.Reason.NOT_FOUND, "file_id");
        assertRefused(delete.delete(new DeleteFileUseCase.Command(GLOBEX_CALLER, id)), Refusal.Reason.NOT_FOUND, "file_id");
        assertTrue(contents.contains(file.id()));
        assertEquals("No such File object: nonsense", assertRefused(query.get(new GetFileUseCase.Command(ACME_CALLER,
                "nonsense")), Refusal.Reason.NOT_FOUND, "file_id"));
    }

    @Test
    void deletingRemovesMetadataAndBytes() {
        StoredFile file = uploaded(ACME_CALLER, "a.jsonl", "fine-tune");
        assertEquals(file.id(), value(delete.delete(new DeleteFileUseCase.Command(ACME_CALLER, file.id().toString()))));
        assertFalse(contents.contains(file.id()));
        assertEquals(0, store.size());
        assertRefused(delete.delete(new DeleteFileUseCase.Command(ACME_CALLER, file.id().toString())),
                Refusal.Reason.NOT_FOUND, "file_id");
    }

    private List<String> names(Caller caller, Optional<FilePurpose> purpose, Optional<FileId> after, int limit,
            SortOrder order) {
        Page<StoredFile> page = value(query.list(new ListFilesUseCase.Command(caller,
                new FileListRequest(purpose, after, limit, order))));
        return page.items().stream().map(StoredFile::filename).toList();
    }

    @Test
    void listsNewestFirstByDefaultWithPurposeAndCursor() {
        StoredFile a = uploaded(ACME_CALLER, "a", "fine-tune");
        StoredFile b = uploaded(ACME_CALLER, "b", "batch");
        uploaded(ACME_CALLER, "c", "fine-tune");
        uploaded(GLOBEX_CALLER, "g", "fine-tune");
        assertEquals(List.of("c", "b", "a"), names(ACME_CALLER, Optional.empty(), Optional.empty(), 100, SortOrder.DESC));
        assertEquals(List.of("a", "b", "c"), names(ACME_CALLER, Optional.empty(), Optional.empty(), 100, SortOrder.ASC));
        assertEquals(List.of("c", "a"), names(ACME_CALLER, Optional.of(FilePurpose.FINE_TUNE), Optional.empty(), 100,
                SortOrder.DESC));
        assertEquals(List.of("a"), names(ACME_CALLER, Optional.empty(), Optional.of(b.id()), 100, SortOrder.DESC));
        assertEquals(List.of("b", "c"), names(ACME_CALLER, Optional.empty(), Optional.of(a.id()), 100, SortOrder.ASC));
        Page<StoredFile> first = value(query.list(new ListFilesUseCase.Command(ACME_CALLER,
                new FileListRequest(Optional.empty(), Optional.empty(), 2, SortOrder.DESC))));
        assertTrue(first.hasMore());
        assertEquals(2, first.items().size());
    }

    @Test
    void aCursorThatIsNotOneOfTheCallersFilesIsRefused() {
        StoredFile other = uploaded(GLOBEX_CALLER, "g", "fine-tune");
        String message = assertRefused(query.list(new ListFilesUseCase.Command(ACME_CALLER, new FileListRequest(
                Optional.empty(), Optional.of(other.id()), 10, SortOrder.DESC))), Refusal.Reason.INVALID, "after");
        assertEquals("after '" + other.id() + "' is not one of your files", message);
    }
}
