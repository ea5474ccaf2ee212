package dev.crucible.hf.peft;

import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * Writes a LoRA adapter as PEFT saves one: {@code adapter_model.safetensors} (F32, PEFT's tensor names, in the order
 * added) and {@code adapter_config.json}, each to a temporary name and moved into place, the config last, so a folder
 * with an {@code adapter_config.json} is complete. Not thread-safe; the arrays passed in are kept, not copied, until
 * {@link #write}.
 */
public final class PeftAdapterWriter {

    /** The weights' file name PEFT gives it. */
    public static final String WEIGHTS_FILE = "adapter_model.safetensors";

    private final LoraConfig config;
    private final SafetensorsWriter writer = new SafetensorsWriter().metadata("format", "pt");

    /** A writer for an adapter of {@code config}; its matrices are added with {@link #add}. */
    public PeftAdapterWriter(LoraConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Adds one projection's matrices, row-major: {@code a} is {@code [r, in]} and {@code b} is {@code [out, r]}.
     *
     * @throws IllegalArgumentException for a target the config does not name, a negative layer, or lengths that are
     *                                  not multiples of {@code r}
     */
    public PeftAdapterWriter add(int layer, LoraTarget target, float[] a, float[] b) {
        if (!config.targets().contains(target)) {
            throw new IllegalArgumentException("target " + target.module() + " is not in the config's targets "
                    + config.targets());
        }
        if (layer < 0) {
            throw new IllegalArgumentException("layer must be at least 0, got " + layer);
        }
        int r = config.r();
        if (a.length == 0 || a.length % r != 0 || b.length == 0 || b.length % r != 0) {
            throw new IllegalArgumentException("lora_A and lora_B must hold a positive multiple of r = " + r
                    + " values, got " + a.length + " and " + b.length);
        }
        writer.add(target.tensorName(layer, "A"), DType.F32, new long[] {r, a.length / r}, a);
        writer.add(target.tensorName(layer, "B"), DType.F32, new long[] {b.length / r, r}, b);
        return this;
    }

    /** Writes both files into {@code dir} (created if needed; the files are replaced). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path tmp = dir.resolve(WEIGHTS_FILE + ".tmp");
        writer.write(tmp);
        move(tmp, dir.resolve(WEIGHTS_FILE));
        Path configTmp = dir.resolve(LoraConfigJson.FILE + ".tmp");
        Files.writeString(configTmp, LoraConfigJson.toJson(config));
        move(configTmp, dir.resolve(LoraConfigJson.FILE));
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
