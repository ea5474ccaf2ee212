package dev.crucible.engine.djl;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.folder.ModelFolder;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code djl} engine: PyTorch through DJL, found by {@link java.util.ServiceLoader}. It runs inference with
 * per-sequence LoRA adapters (F32 weights; on a CUDA device when a CUDA build of libtorch is bundled and an NVIDIA
 * driver is present, otherwise on the CPU). Construction only looks at a classpath resource and a file under
 * {@code /proc}; PyTorch's natives load on the first {@link #health()} or {@link #loadModel} call, with DJL held
 * offline so nothing is ever downloaded. PyTorch's intra-op threads follow DJL's {@code -Dai.djl.pytorch.num_threads}
 * (set before the first call). Thread-safe.
 */
public final class DjlEngineProvider implements EngineProvider {

    private final DjlRuntime runtime;
    private final Set<Capability> capabilities;

    /** The provider ServiceLoader makes: side-effect free. */
    public DjlEngineProvider() {
        boolean cuda = DjlGpuProbe.cudaUsable();
        this.runtime = new DjlRuntime(cuda);
        this.capabilities = EnumSet.of(Capability.INFERENCE, Capability.LORA_INFERENCE, Capability.TRAINING);
        if (cuda) {
            capabilities.add(Capability.CUDA);
        }
    }

    @Override
    public String name() {
        return "djl";
    }

    /** 20: after onnx, which decodes faster; it serves what onnx cannot load, and it trains. */
    @Override
    public int rank() {
        return 20;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.copyOf(capabilities);
    }

    /** Healthy when the PyTorch engine loads; the detail names its version and device. */
    @Override
    public EngineHealth health() {
        return EngineHealth.probe(runtime::describe);
    }

    @Override
    public ModelRunner loadModel(ModelFolder model) {
        Objects.requireNonNull(model, "model");
        return DjlModelLoader.load(runtime, model);
    }

    /** {@link #loadModel} with the embedding and head in parts of at most {@code maxPartBytes}, as tests split them. */
    ModelRunner loadModel(ModelFolder model, long maxPartBytes) {
        return DjlModelLoader.load(runtime, model, maxPartBytes);
    }
}
