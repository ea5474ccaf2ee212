package dev.crucible.adapters.http.model;

import dev.crucible.application.model.ReadAdapterUseCase;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.server.types.files.StreamedFile;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A checkpoint's PEFT adapter as the zip download every route that hands one out answers (Crucible's
 * {@code /v1/preview/models/.../adapter} and the Tinker archive's target): packed to a temporary file, streamed with
 * its length, named {@code <model>-step-<n>.zip}, and the file deleted once sent.
 */
public final class AdapterDownload {

    private static final MediaType ZIP = MediaType.of("application/zip");

    private AdapterDownload() {
    }

    public static HttpResponse<StreamedFile> of(ReadAdapterUseCase.Adapter adapter) {
        try {
            Path zip = Files.createTempFile("crucible-adapter-", ".zip");
            try (OutputStream out = Files.newOutputStream(zip)) {
                AdapterArchive.write(adapter.folder(), out);
            }
            long size = Files.size(zip);
            InputStream content = new DeletedOnClose(zip);
            return HttpResponse.ok(new StreamedFile(content, ZIP, System.currentTimeMillis(), size))
                    .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + adapter.name() + ".zip\"");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack the adapter", e);
        }
    }

    /** A temporary file read once and deleted when the response is done with it. */
    private static final class DeletedOnClose extends FileInputStream {
        private final Path file;

        DeletedOnClose(Path file) throws IOException {
            super(file.toFile());
            this.file = file;
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }
}
