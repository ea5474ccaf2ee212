package dev.crucible.engine.djl;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.testsupport.engine.LoraRunnerContract;

/** The djl engine against the LoRA contract every engine that applies adapters meets. */
class DjlLoraRunnerContractTest extends LoraRunnerContract {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();

    @Override
    protected EngineProvider provider() {
        return ENGINE;
    }
}
