package dev.crucible.adapters.http.tinker;

import dev.crucible.application.primitives.RunCheckpoint;
import dev.crucible.application.primitives.RunSummary;
import dev.crucible.application.primitives.RunsPage;
import dev.crucible.application.primitives.TrainingRun;
import java.util.List;
import java.util.Map;

/**
 * Tinker's REST shapes of runs and checkpoints (the SDK's {@code types/training_run.py}, {@code types/checkpoint.py},
 * {@code types/weights_info_response.py}); times are ISO-8601 instants, absent values are omitted.
 */
final class TinkerRunViews {

    private TinkerRunViews() {
    }

    static Map<String, Object> weightsInfo(TrainingRun run) {
        return TinkerReplies.ordered("base_model", run.baseModel(), "is_lora", true, "lora_rank", run.lora().rank(),
                "train_unembed", run.lora().trainUnembed(), "train_mlp", run.lora().trainMlp(), "train_attn",
                run.lora().trainAttn());
    }

    static Map<String, Object> page(RunsPage page) {
        return TinkerReplies.ordered("training_runs", page.runs().stream().map(TinkerRunViews::run).toList(),
                "cursor", TinkerReplies.ordered("offset", page.offset(), "limit", page.limit(), "total_count",
                        page.totalCount()));
    }

    static Map<String, Object> run(RunSummary summary) {
        TrainingRun run = summary.run();
        return TinkerReplies.ordered("training_run_id", run.model().toString(), "base_model", run.baseModel(),
                "model_owner", run.entity().value(), "is_lora", true, "corrupted", false, "lora_rank",
                run.lora().rank(), "last_request_time", summary.lastRequestTime().toString(), "last_checkpoint",
                summary.lastCheckpoint().map(TinkerRunViews::checkpoint).orElse(null), "last_sampler_checkpoint",
                summary.lastSamplerCheckpoint().map(TinkerRunViews::checkpoint).orElse(null));
    }

    static Map<String, Object> checkpoints(List<RunCheckpoint> checkpoints) {
        return Map.of("checkpoints", checkpoints.stream().map(TinkerRunViews::checkpoint).toList());
    }

    static Map<String, Object> checkpoint(RunCheckpoint c) {
        return TinkerReplies.ordered("checkpoint_id", c.checkpointId(), "checkpoint_type", c.checkpointType(),
                "time", c.state().createdAt().toString(), "tinker_path", c.state().path().toString(), "size_bytes",
                c.sizeBytes().isPresent() ? c.sizeBytes().getAsLong() : null, "public", false);
    }
}
