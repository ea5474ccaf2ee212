package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.testsupport.engine.LoraRunnerContract;

/** The onnx engine against the LoRA contract every engine that applies adapters meets. */
class OnnxLoraRunnerContractTest extends LoraRunnerContract {

    private static final OnnxEngineProvider ENGINE = new OnnxEngineProvider();

    @Override
    protected EngineProvider provider() {
        return ENGINE;
    }
}
