package dev.crucible.adapters.persistence.dataset;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static dev.crucible.adapters.persistence.StoreContext.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.application.dataset.DatasetStore;
import dev.crucible.application.dataset.LineageStore;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.application.job.JobQueue;
import dev.crucible.application.job.JobStore;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetId;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Datasets and lineage on a real PostgreSQL: rows and sources kept as built, pages, another entity seeing none; a job
 * trained on a dataset writes its checkpoint's lineage; erasing a completion or feedback row names the checkpoint or,
 * refused, deletes nothing; a dataset that trained a checkpoint is not deleted until the checkpoint is.
 */
class JdbcDatasetStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final DatasetStore datasets = stores.bean(DatasetStore.class);
    private final LineageStore lineage = stores.bean(LineageStore.class);

    private static Dataset dataset(EntityName entity, String name, int rows, List<String> completions,
            List<String> feedback) {
        return new Dataset(DatasetId.random(), entity, name, "p", DatasetKind.SFT, Map.of("filter", Map.of()),
                T0, rows, completions, feedback);
    }

    private static List<String> lines(int n) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add("{\"messages\":[{\"role\":\"user\",\"content\":\"" + i + "\"}]}");
        }
        return lines;
    }

    @Test
    void keepsRowsAndSourcesAsBuiltAndScopesReadsByEntity() {
        Dataset big = dataset(ADA, "big", 2500, List.of("c1", "c2"), List.of("f1"));
        datasets.insert(big, lines(2500));
        Dataset small = dataset(ADA, "small", 1, List.of("c3"), List.of());
        datasets.insert(small, lines(1));

        Dataset found = datasets.find(ADA, big.id()).orElseThrow();
        assertEquals(List.of("c1", "c2"), found.completions());
        assertEquals(List.of("f1"), found.feedback());
        assertEquals(Map.of("filter", Map.of()), found.query());
        assertEquals(Optional.empty(), datasets.find(BOB, big.id()));
        assertEquals(lines(2500).subList(999, 1001), datasets.lines(big.id(), 999, 2));
        assertEquals(List.of(), datasets.lines(big.id(), 2500, 10));

        PageRequest first = new PageRequest(Optional.empty(), 1, SortOrder.ASC);
        assertEquals(List.of(big.id(), small.id()), datasets.fetchPage(ADA, first, Optional.empty()).stream()
                .map(Dataset::id).toList());
        assertEquals(List.of(small.id()), datasets.fetchPage(ADA, first, Optional.of(big)).stream()
                .map(Dataset::id).toList());
        assertEquals(List.of(), datasets.fetchPage(BOB, first, Optional.empty()));

        assertEquals(List.of(), datasets.deleteUnlessLearned(ADA, small.id()));
        assertEquals(Optional.empty(), datasets.find(ADA, small.id()));
    }

    @Test
    void aCheckpointTrainedOnADatasetNamesItAndErasureChecksIt() {
        StoredCompletionStore completions = stores.bean(StoredCompletionStore.class);
        completions.insertAll(List.of(completion("c1"), completion("c2")));
        FeedbackId rowId = FeedbackId.random();
        ProjectId project = new ProjectId("ada", "p");
        assertTrue(stores.bean(FeedbackStore.class).insert(new Feedback(rowId, project,
                "weave:///ada/p/call/c1", "u", Optional.empty(), T0, "thumbs", Map.of("value", "up"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()))
                instanceof Outcome.Done);
        Dataset trained = dataset(ADA, "trained", 1, List.of("c1"), List.of(rowId.toString()));
        datasets.insert(trained, lines(1));

        Model model = stores.model("ada", "m");
        TrainingJob job = TrainingJob.queue(JobType.SFT, model.id(), ADA, Instant.now());
        stores.bean(JobStore.class).enqueue(job, new JobSpec.Sft(trained.id().toString(), SftConfig.defaults(),
                Map.of()));
        JobQueue queue = stores.bean(JobQueue.class);
        UUID runner = UUID.randomUUID();
        TrainingJob running = queue.claimNext(runner, Instant.now()).orElseThrow();
        queue.complete(running, runner, 1, Map.of(), Instant.now());
        CheckpointRef checkpoint = new CheckpointRef(model.id(), 1);

        assertEquals(List.of(trained.id()), lineage.datasetsOf(ADA, model.id(), 1).stream().map(Dataset::id).toList());
        assertEquals(List.of(), lineage.datasetsOf(BOB, model.id(), 1));
        assertEquals(List.of(), lineage.datasetsOf(ADA, model.id(), 0), "step 0 learned from nothing");

        assertEquals(List.of(checkpoint), datasets.deleteUnlessLearned(ADA, trained.id()));
        assertTrue(datasets.find(ADA, trained.id()).isPresent(), "a dataset that trained a checkpoint stays");

        assertEquals(Optional.of(new LineageStore.Erasure(0, List.of(checkpoint))),
                lineage.eraseCompletion(ADA, "c1", true));
        assertTrue(completions.find(ADA, "c1").isPresent(), "refused: nothing deleted");
        assertEquals(new LineageStore.Erasure(0, List.of(checkpoint)),
                lineage.eraseFeedback(project, List.of(rowId), true));
        assertEquals(new LineageStore.Erasure(1, List.of(checkpoint)),
                lineage.eraseFeedback(project, List.of(rowId), false));
        assertEquals(Optional.of(new LineageStore.Erasure(1, List.of(checkpoint))),
                lineage.eraseCompletion(ADA, "c1", false));
        assertEquals(Optional.of(new LineageStore.Erasure(1, List.of())), lineage.eraseCompletion(ADA, "c2", true));
        assertEquals(Optional.empty(), lineage.eraseCompletion(BOB, "c2", false));
        assertEquals(List.of(trained.id()), lineage.datasetsOf(ADA, model.id(), 1).stream().map(Dataset::id).toList(),
                "the snapshot outlives its sources");
    }

    private static StoredCompletion completion(String id) {
        return new StoredCompletion(id, new UsageProject(ADA, "p"), T0, "tiny",
                List.of(Map.of("role", "user", "content", "hi")),
                List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", "yo"))),
                new CompletionTokens(1, 1), CompletionMetadata.empty(), Map.of());
    }
}
