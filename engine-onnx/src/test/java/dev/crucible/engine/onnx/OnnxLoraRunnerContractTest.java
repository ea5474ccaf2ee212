package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.testsupport.engine.LoraRunnerContract;

/**
 * The onnx engine against the LoRA contract every engine that applies adapters meets; it refuses adapters of
 * {@code lm_head} at load (its decoder graph applies LoRA to the layers' projections only).
 */
class OnnxLoraRunnerContractTest extends LoraRunnerContract {

    private static final OnnxEngineProvider ENGINE = new OnnxEngineProvider();

    @Override
    protected EngineProvider provider() {
        return ENGINE;
    }

    @Override
    protected boolean appliesTheHead() {
        return false;
    }
}
