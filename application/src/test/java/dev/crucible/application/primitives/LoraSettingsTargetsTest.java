package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.hf.peft.LoraTarget;
import java.util.EnumSet;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Tinker's {@code train_attn}, {@code train_mlp} and {@code train_unembed} as PEFT's {@code target_modules}. */
class LoraSettingsTargetsTest {

    private static final EnumSet<LoraTarget> ATTENTION = EnumSet.of(LoraTarget.Q_PROJ, LoraTarget.K_PROJ,
            LoraTarget.V_PROJ, LoraTarget.O_PROJ);
    private static final EnumSet<LoraTarget> MLP = EnumSet.of(LoraTarget.GATE_PROJ, LoraTarget.UP_PROJ,
            LoraTarget.DOWN_PROJ);

    private static EnumSet<LoraTarget> targets(boolean unembed, boolean mlp, boolean attn) {
        return EnumSet.copyOf(LiveRun.loraConfig(new LoraSettings(4, unembed, mlp, attn, OptionalLong.empty()))
                .targets());
    }

    @Test
    void theSdksDefaultAdaptsEveryProjectionAndTheHead() {
        assertEquals(EnumSet.allOf(LoraTarget.class), targets(true, true, true));
    }

    @Test
    void eachFlagAddsItsOwnModules() {
        EnumSet<LoraTarget> withHead = EnumSet.copyOf(ATTENTION);
        withHead.add(LoraTarget.LM_HEAD);
        assertEquals(withHead, targets(true, false, true));
        assertEquals(EnumSet.of(LoraTarget.LM_HEAD), targets(true, false, false));
        assertEquals(MLP, targets(false, true, false));
        EnumSet<LoraTarget> layers = EnumSet.copyOf(ATTENTION);
        layers.addAll(MLP);
        assertEquals(layers, targets(false, true, true));
    }
}
