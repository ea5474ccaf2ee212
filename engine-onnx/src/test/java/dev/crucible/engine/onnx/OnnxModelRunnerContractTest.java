package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.testsupport.engine.ModelRunnerContract;

/** The onnx engine against the contract every inference engine meets. */
class OnnxModelRunnerContractTest extends ModelRunnerContract {

    private static final OnnxEngineProvider ENGINE = new OnnxEngineProvider();

    @Override
    protected EngineProvider provider() {
        return ENGINE;
    }
}
