package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * AdamW's state saved beside the PEFT files ({@value #NAME}: each matrix's two moments and the update count in the
 * metadata), so that training carries on across jobs as one optimiser would (ART's trainer keeps its optimiser between
 * steps). PEFT and other tools ignore the file.
 */
final class DjlOptimizerFile {

    /** The file's name in an adapter folder. */
    static final String NAME = "optimizer.safetensors";
    private static final String STEP_KEY = "step";
    private static final String EXP_AVG = ".exp_avg";
    private static final String EXP_AVG_SQ = ".exp_avg_sq";

    private DjlOptimizerFile() {
    }

    /**
     * Reads the moments of {@code params} into them from {@code file} and returns the saved update count. A file that
     * does not fit this adapter is an error, not silently dropped.
     */
    static int read(Path file, List<DjlLoraParam> params, NDManager manager) {
        try (SafetensorsReader reader = SafetensorsReader.open(file)) {
            String step = reader.metadata().get(STEP_KEY);
            if (step == null) {
                throw new ModelFormatException("metadata has no '" + STEP_KEY + "'");
            }
            int steps = Integer.parseInt(step);
            for (DjlLoraParam p : params) {
                for (String moment : new String[] {EXP_AVG, EXP_AVG_SQ}) {
                    String tensor = p.tensorName() + moment;
                    if (!reader.contains(tensor) || !Arrays.equals(reader.info(tensor).dims(),
                            p.value.getShape().getShape())) {
                        throw new ModelFormatException("tensor '" + tensor + "' is missing or misshaped");
                    }
                    NDArray values = manager.create(reader.floats(tensor), p.value.getShape());
                    if (moment.equals(EXP_AVG)) {
                        p.m.close();
                        p.m = values;
                    } else {
                        p.v.close();
                        p.v = values;
                    }
                }
            }
            return steps;
        } catch (IOException | ModelFormatException | NumberFormatException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot continue training from " + file
                    + ": " + e.getMessage(), e);
        }
    }

    /** Writes the moments of {@code params} and the update count {@code steps} into {@code peftFolder}. */
    static void write(Path peftFolder, List<DjlLoraParam> params, int steps) throws IOException {
        SafetensorsWriter moments = new SafetensorsWriter().metadata(STEP_KEY, Integer.toString(steps));
        for (DjlLoraParam p : params) {
            long[] shape = p.value.getShape().getShape();
            moments.add(p.tensorName() + EXP_AVG, DType.F32, shape, p.m.toFloatArray());
            moments.add(p.tensorName() + EXP_AVG_SQ, DType.F32, shape, p.v.toFloatArray());
        }
        moments.write(peftFolder.resolve(NAME));
    }
}
