package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraConfigJson;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A PEFT LoRA folder read into Java arrays and checked against a model: every target's {@code lora_A [r, in]} and
 * {@code lora_B [out, r]} in every layer with exactly those shapes, nothing else in the file. {@code B} is multiplied
 * by the scaling here, once. The file is closed before this returns. Every failure is an {@link EngineException} of
 * reason {@link EngineException.Reason#INVALID_MODEL} naming the folder and the file, key or tensor at fault.
 *
 * @param a       {@code a[layer][target.ordinal()]}, row-major {@code [r, in]}; null where the target is not adapted
 * @param scaledB {@code scaledB[layer][target.ordinal()]}, row-major {@code [out, r]}, times the scaling
 */
record OnnxLoraWeights(LoraConfig config, float[][][] a, float[][][] scaledB) {

    static OnnxLoraWeights read(Path folder, ModelConfig model) {
        String where = "cannot load adapter " + folder + ": ";
        try {
            Path configFile = folder.resolve(LoraConfigJson.FILE);
            Path weightsFile = folder.resolve(PeftAdapterWriter.WEIGHTS_FILE);
            if (!Files.isDirectory(folder)) {
                throw invalid("not a folder");
            }
            if (!Files.isRegularFile(configFile)) {
                throw invalid("missing " + LoraConfigJson.FILE);
            }
            if (!Files.isRegularFile(weightsFile)) {
                throw invalid("missing " + PeftAdapterWriter.WEIGHTS_FILE
                        + " (PEFT's older adapter_model.bin is not read)");
            }
            LoraConfig config = LoraConfigJson.parse(Files.readString(configFile));
            try (SafetensorsReader reader = SafetensorsReader.open(weightsFile)) {
                return read(config, reader, model);
            }
        } catch (EngineException e) {
            throw new EngineException(e.reason(), where + e.getMessage(), e);
        } catch (ModelFormatException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, where + e.getMessage(), e);
        } catch (IOException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, where + e, e);
        }
    }

    private static OnnxLoraWeights read(LoraConfig config, SafetensorsReader reader, ModelConfig model) {
        int layers = model.numHiddenLayers();
        int targets = LoraTarget.values().length;
        float[][][] a = new float[layers][targets][];
        float[][][] b = new float[layers][targets][];
        Set<String> expected = new HashSet<>();
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget t : config.targets()) {
                String aName = t.tensorName(layer, "A");
                String bName = t.tensorName(layer, "B");
                a[layer][t.ordinal()] = floats(reader, aName, config.r(), t.inFeatures(model));
                b[layer][t.ordinal()] = scaled(floats(reader, bName, t.outFeatures(model), config.r()),
                        config.scaling());
                expected.add(aName);
                expected.add(bName);
            }
        }
        for (String name : reader.names()) {
            if (!expected.contains(name)) {
                throw invalid("unexpected tensor '" + name + "' (expected only lora_A and lora_B of "
                        + config.targets().stream().map(LoraTarget::module).toList() + " in layers 0 to "
                        + (layers - 1) + ")");
            }
        }
        return new OnnxLoraWeights(config, a, b);
    }

    private static float[] floats(SafetensorsReader reader, String name, long rows, long cols) {
        if (!reader.contains(name)) {
            throw invalid("missing tensor '" + name + "'");
        }
        TensorInfo info = reader.info(name);
        if (!info.dtype().hasF32View()) {
            throw invalid("tensor '" + name + "' has dtype " + info.dtype() + ", which the onnx engine does not load "
                    + "(supported: F32, F16, BF16)");
        }
        long[] shape = {rows, cols};
        if (!Arrays.equals(info.dims(), shape)) {
            throw invalid("tensor '" + name + "' has shape " + info.shape() + ", expected " + Arrays.toString(shape)
                    + " from adapter_config.json and the model's config.json");
        }
        return reader.floats(name);
    }

    /** {@code values * scaling} in double precision, then rounded to float, as the djl engine scales. */
    private static float[] scaled(float[] values, double scaling) {
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) (values[i] * scaling);
        }
        return values;
    }

    private static EngineException invalid(String message) {
        return new EngineException(EngineException.Reason.INVALID_MODEL, message);
    }
}
