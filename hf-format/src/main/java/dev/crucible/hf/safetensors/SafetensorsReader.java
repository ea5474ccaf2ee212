package dev.crucible.hf.safetensors;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Memory-mapped safetensors weights: one file, a folder's files, or the shards named by
 * {@code model.safetensors.index.json}. Headers are validated when opening, so a corrupt file fails here with a
 * {@link ModelFormatException} and no read ever leaves a tensor's bytes.
 *
 * <p>F32 tensors are served zero-copy from the read-only mapping; F16 and BF16 tensors are widened to F32 into a new
 * off-heap segment on the first {@link #f32} call for that tensor (an engine calls it while loading) and the copy is
 * kept until close. Other dtypes are readable through {@link #raw}.
 *
 * <p>Thread-safe. The reader owns the mappings and copies: every segment and buffer it returned becomes invalid on
 * {@link #close()}, so an engine that wraps them zero-copy must keep the reader open while it uses the weights.
 */
public final class SafetensorsReader implements AutoCloseable {

    /** The index file that names a sharded model's files. */
    public static final String INDEX_FILE = ShardSet.INDEX_FILE;

    private final Arena arena;
    private final ShardSet shards;
    private final Map<String, MemorySegment> widened = new ConcurrentHashMap<>();
    private final Map<Path, FileChannel> channels = new ConcurrentHashMap<>();
    /** Each reading thread's buffer for {@link #readF32}, grown to the largest row it has read. */
    private final ThreadLocal<ByteBuffer> readBuffer =
            ThreadLocal.withInitial(() -> ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN));

    private SafetensorsReader(Arena arena, ShardSet shards) {
        this.arena = arena;
        this.shards = shards;
    }

    /**
     * Opens a {@code .safetensors} file, a {@code *.index.json}, or a folder (its index if present, else every
     * {@code *.safetensors} in it, in name order). Fails with {@link ModelFormatException} for a corrupt or
     * inconsistent file and with {@link IOException} when a file cannot be read.
     */
    public static SafetensorsReader open(Path path) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            return new SafetensorsReader(arena, ShardSet.map(path, arena));
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Every tensor's header entry, in file order. */
    public List<TensorInfo> tensors() {
        return shards.tensors().values().stream().map(MappedTensor::info).toList();
    }

    /** The tensor names, in file order. */
    public Set<String> names() {
        return shards.tensors().keySet();
    }

    /** Whether a tensor of that name exists. */
    public boolean contains(String name) {
        return shards.tensors().containsKey(name);
    }

    /** The {@code __metadata__} entries (of all files, first file winning on a clash). */
    public Map<String, String> metadata() {
        return shards.metadata();
    }

    /** The header entry of a tensor; a missing one fails naming it. */
    public TensorInfo info(String name) {
        return tensor(name).info();
    }

    /** The tensor's stored bytes, read-only, in the file's dtype and little-endian order. */
    public MemorySegment raw(String name) {
        return tensor(name).raw();
    }

    /** Where the tensor's stored bytes are in its file; a missing tensor fails naming it. */
    public TensorLocation location(String name) {
        return tensor(name).location();
    }

    /**
     * The tensor as little-endian F32 (read with {@code ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LITTLE_ENDIAN)}),
     * read-only. A dtype without an F32 view fails naming it.
     */
    public MemorySegment f32(String name) {
        MappedTensor t = tensor(name);
        DType dtype = t.info().dtype();
        if (!dtype.hasF32View()) {
            throw new ModelFormatException("tensor '" + name + "' has dtype " + dtype
                    + ", which has no F32 view (supported: F32, F16, BF16)");
        }
        if (dtype == DType.F32) {
            return t.raw();
        }
        return widened.computeIfAbsent(name, n -> Widening.toF32(t.raw(), dtype, arena).asReadOnly());
    }

    /**
     * Copies {@code into.length} elements of the tensor, from element {@code from} on, widened to F32 into
     * {@code into}. Reads the file with positional reads, not through the mapping, and keeps no widened copy: an
     * engine that quantises a large model while it reads it, row by row, never holds the file's pages resident in
     * its own memory (they stay in the kernel's page cache). Thread-safe. A dtype without an F32 view fails naming
     * it; a range past the tensor's end fails with {@link IndexOutOfBoundsException}; a failed read with
     * {@link UncheckedIOException}.
     */
    public void readF32(String name, long from, float[] into) {
        MappedTensor t = tensor(name);
        DType dtype = t.info().dtype();
        if (!dtype.hasF32View()) {
            throw new ModelFormatException("tensor '" + name + "' has dtype " + dtype
                    + ", which has no F32 view (supported: F32, F16, BF16)");
        }
        TensorLocation at = t.location();
        long bytes = (long) into.length * dtype.bytes();
        if (from < 0 || from * dtype.bytes() + bytes > at.length()) {
            throw new IndexOutOfBoundsException("elements [" + from + ", " + (from + into.length) + ") of tensor '"
                    + name + "' (" + at.length() / dtype.bytes() + " elements)");
        }
        ByteBuffer buf = readBuffer.get();
        if (buf.capacity() < bytes) {
            buf = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
            readBuffer.set(buf);
        }
        buf.clear().limit((int) bytes);
        try {
            FileChannel channel = channels.computeIfAbsent(at.file(), SafetensorsReader::openChannel);
            long position = at.offset() + from * dtype.bytes();
            while (buf.hasRemaining()) {
                if (channel.read(buf, position + buf.position()) < 0) {
                    throw new IOException("unexpected end of " + at.file());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tensor '" + name + "': " + e.getMessage(), e);
        }
        buf.flip();
        for (int i = 0; i < into.length; i++) {
            into[i] = switch (dtype) {
                case F32 -> buf.getFloat();
                case BF16 -> Widening.bf16ToFloat(buf.getShort());
                default -> Float.float16ToFloat(buf.getShort());
            };
        }
    }

    private static FileChannel openChannel(Path file) {
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #f32} as a little-endian, read-only direct buffer; the tensor must be under 2 GiB. */
    public ByteBuffer f32Buffer(String name) {
        return f32(name).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** {@link #f32} copied into a new array; meant for small tensors and tests. */
    public float[] floats(String name) {
        return f32(name).toArray(Widening.F32_LE);
    }

    /** Unmaps the files and frees the widened copies; segments handed out before become unusable. Idempotent. */
    @Override
    public synchronized void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
        for (FileChannel channel : channels.values()) {
            try {
                channel.close();
            } catch (IOException e) {
                // read-only channels: nothing was written that closing could lose
            }
        }
        channels.clear();
    }

    private MappedTensor tensor(String name) {
        MappedTensor t = shards.tensors().get(name);
        if (t == null) {
            throw new ModelFormatException("no tensor named '" + name + "' in the safetensors files");
        }
        return t;
    }
}
