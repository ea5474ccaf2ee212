package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;

/**
 * A training run held by this process: its in-memory adapter and optimiser state (the trainer, made on the first
 * operation that needs it) and the worker that runs its operations in order. Its state is touched only on that
 * worker, so it needs no lock beyond the sequencer's.
 */
final class LiveRun implements AutoCloseable {

    /**
     * AdamW's settings the trainer is made with: the Tinker SDK's defaults. The SPI takes them per trainer for now;
     * once {@code LoraTrainer.step} takes them per step, {@code optim_step}'s {@code adam_params} are passed there.
     */
    private static final double BETA1 = 0.9;
    private static final double BETA2 = 0.95;
    private static final double EPSILON = 1e-12;
    private static final double WEIGHT_DECAY = 0.0;
    /** Tinker does not say its {@code lora_alpha}; 32 makes the usual rank 32 scale by 1 (docs/decisions.md). */
    static final double LORA_ALPHA = 32;

    private final TrainingRun run;
    private final ServedModel base;
    private final RunSequencer sequencer;
    private LoraTrainer trainer;
    private boolean started;

    LiveRun(TrainingRun run, ServedModel base) {
        this.run = Objects.requireNonNull(run, "run");
        this.base = Objects.requireNonNull(base, "base");
        this.sequencer = new RunSequencer("run-" + run.model());
    }

    TrainingRun run() {
        return run;
    }

    ServedModel base() {
        return base;
    }

    RunSequencer sequencer() {
        return sequencer;
    }

    /** Whether an operation has run on it (a {@code load_weights} may only come first). */
    boolean started() {
        return started;
    }

    void markStarted() {
        started = true;
    }

    /** The trainer, made fresh (or from {@code startFrom}, a saved state) on first use. */
    LoraTrainer trainer(Optional<Path> startFrom) {
        if (trainer == null) {
            trainer = base.training().runner().newTrainer(new LoraTrainingSpec(loraConfig(run.lora()), startFrom,
                    run.lora().seed().orElse(0), BETA1, BETA2, EPSILON, WEIGHT_DECAY));
        }
        return trainer;
    }

    LoraTrainer trainer() {
        return trainer(Optional.empty());
    }

    /**
     * The adapter {@code lora} asks for: attention and MLP projections and the unembedding ({@code lm_head}, as PEFT's
     * {@code target_modules} names it) as asked, {@link #LORA_ALPHA}.
     */
    static LoraConfig loraConfig(LoraSettings lora) {
        EnumSet<LoraTarget> targets = EnumSet.noneOf(LoraTarget.class);
        if (lora.trainAttn()) {
            targets.addAll(EnumSet.of(LoraTarget.Q_PROJ, LoraTarget.K_PROJ, LoraTarget.V_PROJ, LoraTarget.O_PROJ));
        }
        if (lora.trainMlp()) {
            targets.addAll(EnumSet.of(LoraTarget.GATE_PROJ, LoraTarget.UP_PROJ, LoraTarget.DOWN_PROJ));
        }
        if (lora.trainUnembed()) {
            targets.add(LoraTarget.LM_HEAD);
        }
        return new LoraConfig(lora.rank(), LORA_ALPHA, targets, false);
    }

    /** Frees the trainer once the queued operations have run (on the run's own worker, so none runs beside it). */
    @Override
    public void close() {
        sequencer.submit(Long.MAX_VALUE, () -> {
            if (trainer != null) {
                trainer.close();
                trainer = null;
            }
        });
        sequencer.close();
    }
}
