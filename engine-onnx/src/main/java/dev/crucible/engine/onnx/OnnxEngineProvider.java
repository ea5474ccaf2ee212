package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.Precision;
import dev.crucible.hf.folder.ModelFolder;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code onnx} engine: decoder graphs built in Java and run by ONNX Runtime on the CPU, found by
 * {@link java.util.ServiceLoader}. Inference with per-sequence LoRA adapters, in F32, int8 or int4 ({@link OnnxPrecision});
 * no training; the first engine tried when none is configured ({@link #rank()}). Construction is side-effect free;
 * the natives load on the first {@link #health()} or {@link #loadModel} call. Intra-op threads follow
 * {@code -Dcrucible.onnx.threads}. Thread-safe.
 */
public final class OnnxEngineProvider implements EngineProvider {

    private final OnnxRuntime runtime = new OnnxRuntime();

    /** The provider ServiceLoader makes: side-effect free. */
    public OnnxEngineProvider() {
    }

    @Override
    public String name() {
        return "onnx";
    }

    /** 10: ONNX Runtime decodes several times faster than PyTorch on the CPU ({@code bench/run}), so it goes first. */
    @Override
    public int rank() {
        return 10;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INFERENCE, Capability.LORA_INFERENCE);
    }

    /** Healthy when ONNX Runtime loads; the detail names its version and threads. */
    @Override
    public EngineHealth health() {
        return EngineHealth.probe(runtime::describe);
    }

    @Override
    public ModelRunner loadModel(ModelFolder model) {
        return load(model, OnnxPrecision.fromProperties());
    }

    /** At {@code precision}, whatever {@code -Dcrucible.onnx.precision} says; the accuracy level still applies. */
    @Override
    public ModelRunner loadModel(ModelFolder model, Precision precision) {
        return load(model, OnnxPrecision.fromProperties().as(precision));
    }

    private ModelRunner load(ModelFolder model, OnnxPrecision precision) {
        Objects.requireNonNull(model, "model");
        return OnnxModelLoader.load(runtime, model, precision);
    }
}
