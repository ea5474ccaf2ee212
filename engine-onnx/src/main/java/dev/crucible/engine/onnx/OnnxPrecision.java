package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.Precision;

/**
 * How a model's linear weights are computed, chosen when it loads: per model by the server's
 * {@code --model-precision NAME=…}, else for every model by {@code -Dcrucible.onnx.precision}:
 * {@code f32} (the default) or {@code int4}, symmetric 4-bit blocks of 32 quantised at load ({@link OnnxInt4}) and
 * run by {@code com.microsoft:MatMulNBits}, the lm_head included; the embedding lookup stays F32.
 * {@code -Dcrucible.onnx.int4.accuracyLevel} sets the op's {@code accuracy_level}: 4 (the default) quantises
 * activations to int8 per block, the fast CPU path (about 0.06 of absolute logit error on a small model); 0 computes
 * in F32 exactly from the dequantised weights.
 *
 * @param int4          whether linear weights are quantised
 * @param accuracyLevel MatMulNBits' {@code accuracy_level} (0, 1, 2, 3 or 4)
 */
record OnnxPrecision(boolean int4, int accuracyLevel) {

    static final String PROPERTY = "crucible.onnx.precision";
    static final String ACCURACY_PROPERTY = "crucible.onnx.int4.accuracyLevel";

    /** The precision the system properties ask for; a value not understood fails naming it. */
    static OnnxPrecision fromProperties() {
        String name = System.getProperty(PROPERTY, "f32").strip().toLowerCase(java.util.Locale.ROOT);
        String level = System.getProperty(ACCURACY_PROPERTY, "4").strip();
        if (!name.equals("f32") && !name.equals("int4")) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "-D" + PROPERTY
                    + " must be f32 or int4, got '" + name + "'");
        }
        if (!level.matches("[0-4]")) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "-D" + ACCURACY_PROPERTY
                    + " must be 0, 1, 2, 3 or 4, got '" + level + "'");
        }
        return new OnnxPrecision(name.equals("int4"), Integer.parseInt(level));
    }

    /** This accuracy level at {@code precision}. */
    OnnxPrecision as(Precision precision) {
        return new OnnxPrecision(precision == Precision.INT4, accuracyLevel);
    }

    /** E.g. {@code f32} or {@code int4 (block 32, accuracy_level 4)}. */
    String describe() {
        return int4 ? "int4 (block " + OnnxInt4.BLOCK + ", accuracy_level " + accuracyLevel + ")" : "f32";
    }
}
