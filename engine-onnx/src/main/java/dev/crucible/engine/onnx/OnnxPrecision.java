package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.Precision;

/**
 * How a model's linear weights are computed, chosen when it loads: per model by the server's
 * {@code --model-precision NAME=…}, else for every model by {@code -Dcrucible.onnx.precision}:
 * {@code f32} (the default), {@code int4} or {@code int8}, symmetric 4- or 8-bit blocks quantised at load
 * ({@link OnnxBlockQuant}) and run by {@code com.microsoft:MatMulNBits}, the lm_head included; the embedding lookup
 * stays F32. {@code -Dcrucible.onnx.int4.accuracyLevel} sets the op's {@code accuracy_level} at both widths: 4 (the
 * default) quantises activations to int8 per block, the fast CPU path (about 0.06 of absolute logit error on a small
 * model at int4); 0 computes in F32 exactly from the dequantised weights. {@code -Dcrucible.onnx.blockSize} sets the
 * inputs per block ({@link OnnxBlockQuant#BLOCK} by default; 32, llama.cpp's Q4_0 and Q8_0 block, reads a third
 * more bytes per token at int4 for a smaller error).
 *
 * @param bits          32 (F32 weights), 8 or 4
 * @param accuracyLevel MatMulNBits' {@code accuracy_level} (0, 1, 2, 3 or 4)
 * @param block         inputs per quantisation block ({@link OnnxBlockQuant#validBlock})
 */
record OnnxPrecision(int bits, int accuracyLevel, int block) {

    static final String PROPERTY = "crucible.onnx.precision";
    static final String ACCURACY_PROPERTY = "crucible.onnx.int4.accuracyLevel";
    static final String BLOCK_PROPERTY = "crucible.onnx.blockSize";

    OnnxPrecision {
        if (bits != 32 && bits != 8 && bits != 4) {
            throw new IllegalArgumentException("bits must be 32, 8 or 4, got " + bits);
        }
        OnnxBlockQuant.requireValidBlock(block);
    }

    /** The precision the system properties ask for; a value not understood fails naming it. */
    static OnnxPrecision fromProperties() {
        String name = System.getProperty(PROPERTY, "f32").strip();
        String level = System.getProperty(ACCURACY_PROPERTY, "4").strip();
        String block = System.getProperty(BLOCK_PROPERTY, String.valueOf(OnnxBlockQuant.BLOCK)).strip();
        Precision precision;
        try {
            precision = Precision.of(name);
        } catch (IllegalArgumentException e) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "-D" + PROPERTY + ": "
                    + e.getMessage());
        }
        if (!level.matches("[0-4]")) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "-D" + ACCURACY_PROPERTY
                    + " must be 0, 1, 2, 3 or 4, got '" + level + "'");
        }
        if (!block.matches("[1-9][0-9]{1,2}") || !OnnxBlockQuant.validBlock(Integer.parseInt(block))) {
            throw new EngineException(EngineException.Reason.UNSUPPORTED_DTYPE, "-D" + BLOCK_PROPERTY
                    + " must be 16, 32, 64, 128 or 256, got '" + block + "'");
        }
        return new OnnxPrecision(32, Integer.parseInt(level), Integer.parseInt(block)).as(precision);
    }

    /** This accuracy level at {@code precision}. */
    OnnxPrecision as(Precision precision) {
        return new OnnxPrecision(switch (precision) {
            case F32 -> 32;
            case INT8 -> 8;
            case INT4 -> 4;
        }, accuracyLevel, block);
    }

    /** Whether linear weights are quantised (to {@link #bits}). */
    boolean quantized() {
        return bits < 32;
    }

    /** E.g. {@code f32} or {@code int4 (block 32, accuracy_level 4)}. */
    String describe() {
        return quantized() ? "int" + bits + " (block " + block + ", accuracy_level " + accuracyLevel
                + ")" : "f32";
    }
}
