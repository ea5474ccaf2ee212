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
 *
 * <p>The metadata also records the betas of the last update. Training resumes the moments only if its first update
 * uses the same betas ({@link DjlAdamW#step}): moments accumulated under others (an SFT job's {@code beta2} 0.999 before an RL job's 0.99) would be bias-corrected
 * with the new {@code beta2} at the carried update count, which magnifies the old momentum (about 2.6 times after 38
 * SFT steps) and steers the next job's first updates along the previous job's gradients rather than its own. A file
 * without betas (written before they were recorded) is resumed as before.
 */
final class DjlOptimizerFile {

    /** The file's name in an adapter folder. */
    static final String NAME = "optimizer.safetensors";
    private static final String STEP_KEY = "step";
    private static final String BETA1_KEY = "beta1";
    private static final String BETA2_KEY = "beta2";
    private static final String EXP_AVG = ".exp_avg";
    private static final String EXP_AVG_SQ = ".exp_avg_sq";

    private DjlOptimizerFile() {
    }

    /**
     * A saved state's update count and the betas of its last update (NaN where the file does not record them).
     */
    record Saved(int steps, double beta1, double beta2) {
    }

    /**
     * Reads the moments of {@code params} into them from {@code file} and returns the saved update count and the betas
     * of its last update. A file that does not fit this adapter is an error, not silently dropped.
     */
    static Saved read(Path file, List<DjlLoraParam> params, NDManager manager) {
        try (SafetensorsReader reader = SafetensorsReader.open(file)) {
            String step = reader.metadata().get(STEP_KEY);
            if (step == null) {
                throw new ModelFormatException("metadata has no '" + STEP_KEY + "'");
            }
            int steps = Integer.parseInt(step);
            double savedBeta1 = beta(reader, BETA1_KEY);
            double savedBeta2 = beta(reader, BETA2_KEY);
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
            return new Saved(steps, savedBeta1, savedBeta2);
        } catch (IOException | ModelFormatException | NumberFormatException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot continue training from " + file
                    + ": " + e.getMessage(), e);
        }
    }

    private static double beta(SafetensorsReader reader, String key) {
        String value = reader.metadata().get(key);
        return value == null ? Double.NaN : Double.parseDouble(value);
    }

    /**
     * Writes the moments of {@code params}, the update count {@code steps} and the betas of the last update
     * ({@code betas}, each left out where NaN) into {@code peftFolder}.
     */
    static void write(Path peftFolder, List<DjlLoraParam> params, int steps, double[] betas) throws IOException {
        SafetensorsWriter moments = new SafetensorsWriter().metadata(STEP_KEY, Integer.toString(steps));
        if (!Double.isNaN(betas[0])) {
            moments.metadata(BETA1_KEY, Double.toString(betas[0]));
        }
        if (!Double.isNaN(betas[1])) {
            moments.metadata(BETA2_KEY, Double.toString(betas[1]));
        }
        for (DjlLoraParam p : params) {
            long[] shape = p.value.getShape().getShape();
            moments.add(p.tensorName() + EXP_AVG, DType.F32, shape, p.m.toFloatArray());
            moments.add(p.tensorName() + EXP_AVG_SQ, DType.F32, shape, p.v.toFloatArray());
        }
        moments.write(peftFolder.resolve(NAME));
    }
}
