package dev.crucible.hf.peft;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The part of a PEFT {@code adapter_config.json} that decides what a LoRA adapter computes: each target projection
 * {@code W} becomes {@code W x + scaling * B (A x)} with {@code A [r, in]}, {@code B [out, r]}.
 *
 * @param r         the rank, at least 1
 * @param loraAlpha PEFT's {@code lora_alpha}, finite and positive
 * @param targets   the adapted projections, at least one; kept as an unmodifiable set in declaration order
 * @param useRslora rank-stabilised scaling: {@code lora_alpha / sqrt(r)} instead of {@code lora_alpha / r}
 */
public record LoraConfig(int r, double loraAlpha, Set<LoraTarget> targets, boolean useRslora) {

    /** Rejects a rank below 1, a non-positive or non-finite alpha and an empty target set. */
    public LoraConfig {
        if (r < 1) {
            throw new IllegalArgumentException("r must be at least 1, got " + r);
        }
        if (!(loraAlpha > 0) || Double.isInfinite(loraAlpha)) {
            throw new IllegalArgumentException("lora_alpha must be finite and positive, got " + loraAlpha);
        }
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("targets must name at least one module, got " + targets);
        }
        targets = Collections.unmodifiableSet(EnumSet.copyOf(targets));
    }

    /**
     * An adapter of every projection of every layer (not the head), with standard (not rank-stabilised) scaling.
     */
    public static LoraConfig allProjections(int r, double loraAlpha) {
        return new LoraConfig(r, loraAlpha, LoraTarget.layerProjections(), false);
    }

    /** This config with the unembedding ({@link LoraTarget#LM_HEAD}) adapted as well. */
    public LoraConfig withHead() {
        Set<LoraTarget> all = EnumSet.copyOf(targets);
        all.add(LoraTarget.LM_HEAD);
        return new LoraConfig(r, loraAlpha, all, useRslora);
    }

    /** The factor on {@code B (A x)}: {@code lora_alpha / r}, or {@code lora_alpha / sqrt(r)} with rsLoRA (PEFT's). */
    public double scaling() {
        return useRslora ? loraAlpha / Math.sqrt(r) : loraAlpha / r;
    }
}
