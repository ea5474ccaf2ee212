package dev.crucible.hf.peft;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A PEFT LoRA folder read into Java arrays and checked against a model, the same for every engine: every target's
 * {@code lora_A [r, in]} and {@code lora_B [out, r]} present in every layer (the head's once, at index 0) with exactly those shapes (F32, F16 or
 * BF16, widened), nothing else in the file. The file is closed before {@link #read} returns, so no mapping of it is
 * kept.
 *
 * @param a {@code a[layer][target.ordinal()]}, row-major {@code [r, in]}; null where the target is not adapted
 * @param b {@code b[layer][target.ordinal()]}, row-major {@code [out, r]}, as stored (not scaled)
 */
public record LoraWeights(LoraConfig config, float[][][] a, float[][][] b) {

    /**
     * Reads {@code folder} for {@code model}.
     *
     * @throws ModelFormatException naming the folder and the file, key or tensor at fault, also when a file cannot
     *                              be read
     */
    public static LoraWeights read(Path folder, ModelConfig model) {
        String where = "cannot load adapter " + folder + ": ";
        try {
            Path configFile = folder.resolve(LoraConfigJson.FILE);
            Path weightsFile = folder.resolve(PeftAdapterWriter.WEIGHTS_FILE);
            if (!Files.isDirectory(folder)) {
                throw new ModelFormatException("not a folder");
            }
            if (!Files.isRegularFile(configFile)) {
                throw new ModelFormatException("missing " + LoraConfigJson.FILE);
            }
            if (!Files.isRegularFile(weightsFile)) {
                throw new ModelFormatException("missing " + PeftAdapterWriter.WEIGHTS_FILE
                        + " (PEFT's older adapter_model.bin is not read)");
            }
            if (Files.size(configFile) > LoraConfigJson.MAX_BYTES) {
                throw new ModelFormatException(LoraConfigJson.FILE + " is larger than " + LoraConfigJson.MAX_BYTES
                        + " bytes (PEFT writes about a kilobyte)");
            }
            LoraConfig config = LoraConfigJson.parse(Files.readString(configFile));
            try (SafetensorsReader reader = SafetensorsReader.open(weightsFile)) {
                return read(config, reader, model);
            }
        } catch (ModelFormatException e) {
            throw new ModelFormatException(where + e.getMessage(), e);
        } catch (IOException e) {
            throw new ModelFormatException(where + e, e);
        }
    }

    private static LoraWeights read(LoraConfig config, SafetensorsReader reader, ModelConfig model) {
        int layers = model.numHiddenLayers();
        int targets = LoraTarget.values().length;
        float[][][] a = new float[layers][targets][];
        float[][][] b = new float[layers][targets][];
        Set<String> expected = new HashSet<>();
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget t : config.targets()) {
                if (!t.inLayer(layer)) {
                    continue;
                }
                String aName = t.tensorName(layer, "A");
                String bName = t.tensorName(layer, "B");
                a[layer][t.ordinal()] = floats(reader, aName, config.r(), t.inFeatures(model));
                b[layer][t.ordinal()] = floats(reader, bName, t.outFeatures(model), config.r());
                expected.add(aName);
                expected.add(bName);
            }
        }
        for (String name : reader.names()) {
            if (!expected.contains(name)) {
                throw new ModelFormatException("unexpected tensor '" + name + "' (expected only lora_A and lora_B of "
                        + config.targets().stream().map(LoraTarget::module).toList() + " in layers 0 to "
                        + (layers - 1) + ", lm_head once)");
            }
        }
        return new LoraWeights(config, a, b);
    }

    private static float[] floats(SafetensorsReader reader, String name, long rows, long cols) {
        if (!reader.contains(name)) {
            throw new ModelFormatException("missing tensor '" + name + "'");
        }
        TensorInfo info = reader.info(name);
        if (!info.dtype().hasF32View()) {
            throw new ModelFormatException("tensor '" + name + "' has dtype " + info.dtype()
                    + ", which is not loaded (supported: F32, F16, BF16)");
        }
        long[] shape = {rows, cols};
        if (!Arrays.equals(info.dims(), shape)) {
            throw new ModelFormatException("tensor '" + name + "' has shape " + info.shape() + ", expected "
                    + Arrays.toString(shape) + " from adapter_config.json and the model's config.json");
        }
        return reader.floats(name);
    }

    /**
     * {@code B} of one layer's target multiplied by the scaling in double precision, then rounded to float, as every
     * engine applies it; a new array, null when the target is not adapted.
     */
    public float[] scaledB(int layer, LoraTarget target) {
        float[] stored = b[layer][target.ordinal()];
        if (stored == null) {
            return null;
        }
        float[] values = stored.clone();
        double scaling = config.scaling();
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) (values[i] * scaling);
        }
        return values;
    }
}
