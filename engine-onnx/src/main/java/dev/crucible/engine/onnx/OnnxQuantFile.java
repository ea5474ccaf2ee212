package dev.crucible.engine.onnx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A scratch folder that ONNX Runtime reads a model's quantised weights from while it creates a session: each weight
 * is appended to {@value #FILE} as soon as it is quantised, and the graph names it there as external data, so the
 * quantised copies never pile up in this process. ONNX Runtime maps each one, prepacks it for {@code MatMulNBits}
 * into its own memory and releases the mapping, one weight after another, so loading peaks at the prepacked weights
 * plus the one in hand rather than at twice all of them. The weights that would otherwise be mapped from the
 * model's own files (a BF16 embedding, norms, biases) are copied into the same file, since ONNX Runtime takes
 * external data from the one folder the session option {@code session.model_external_initializers_file_folder_path}
 * names. Everything in it is deleted on {@link #close()}, once the session exists (mappings outlive the names). The folder is made under
 * {@code -Dcrucible.onnx.scratchDir} (default: {@code java.io.tmpdir}). Not thread-safe.
 */
final class OnnxQuantFile implements AutoCloseable {

    static final String FILE = "quantised.bin";
    static final String DIR_PROPERTY = "crucible.onnx.scratchDir";
    private static final int ALIGN = 64;

    private final Path dir;
    private final FileChannel out;

    private OnnxQuantFile(Path dir, FileChannel out) {
        this.dir = dir;
        this.out = out;
    }

    static OnnxQuantFile create() throws IOException {
        Path parent = Path.of(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "crucible-onnx-");
        return new OnnxQuantFile(dir, FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE));
    }

    Path dir() {
        return dir;
    }

    /** Appends {@code bytes} at the next 64-byte boundary and returns its offset in {@value #FILE}. */
    long append(MemorySegment bytes) {
        try {
            long offset = (out.size() + ALIGN - 1) / ALIGN * ALIGN;
            var buf = bytes.asByteBuffer();
            long at = offset;
            while (buf.hasRemaining()) {
                at += out.write(buf, at);
            }
            return offset;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write quantised weights to " + dir, e);
        }
    }

    /**
     * Appends {@code length} bytes of {@code file} from {@code offset} (a tensor of the model's own files), copied by
     * the kernel, and returns their offset in {@value #FILE}. ONNX Runtime refuses external data outside the one
     * folder it is given, links included, so the few weights it maps from the model's files when nothing is
     * quantised (the embedding table, norms, biases) are copied here instead.
     */
    long copy(Path file, long offset, long length) {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long at = (out.size() + ALIGN - 1) / ALIGN * ALIGN;
            long done = 0;
            while (done < length) {
                done += in.transferTo(offset + done, length - done, out.position(at + done));
            }
            return at;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy from " + file + " to " + dir, e);
        }
    }

    /** Closes the file and deletes the folder and what is in it. */
    @Override
    public void close() {
        try {
            out.close();
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
