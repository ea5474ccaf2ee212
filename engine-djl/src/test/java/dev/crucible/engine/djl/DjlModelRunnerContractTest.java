package dev.crucible.engine.djl;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.testsupport.engine.ModelRunnerContract;

/** The djl engine against the contract every inference engine meets. */
class DjlModelRunnerContractTest extends ModelRunnerContract {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();

    @Override
    protected EngineProvider provider() {
        return ENGINE;
    }
}
