package dev.crucible.adapters.persistence.reward;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.reward.NewRewardModel;
import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardModelStore;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.reward.RewardMetrics;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Reward models' rows on a real PostgreSQL: versions per entity and name, artifacts, tenancy, pages, deletion. */
class JdbcRewardModelStoreIT {

    private static final RewardArtifact ARTIFACT = new RewardArtifact(new byte[] {8, 7, 0, 1, -1},
            List.of("answer-hash=12", "prompt-hash=3", "answer-length=5"), 1);

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final RewardModelStore models = stores.bean(RewardModelStore.class);

    private static NewRewardModel model(EntityName entity, String name, int second) {
        return new NewRewardModel(RewardModelId.random(), entity, "proj", name,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(second), new RewardMetrics(0.75, 0.875, 16, 4),
                "word n-grams", "logistic regression");
    }

    @Test
    void versionsCountPerEntityAndNameAndArtifactsComeBackWhole() {
        RewardModel first = models.insertNextVersion(model(ADA, "judge", 0), ARTIFACT);
        RewardModel second = models.insertNextVersion(model(ADA, "judge", 1), ARTIFACT);
        RewardModel other = models.insertNextVersion(model(ADA, "critic", 2), ARTIFACT);
        RewardModel bobs = models.insertNextVersion(model(BOB, "judge", 3), ARTIFACT);

        assertEquals(List.of(1, 2, 1, 1), List.of(first.version(), second.version(), other.version(), bobs.version()));
        assertEquals(Optional.of(second), models.find(ADA, second.id()));
        RewardArtifact read = models.artifact(ADA, second.id()).orElseThrow();
        assertArrayEquals(ARTIFACT.onnx(), read.onnx());
        assertEquals(ARTIFACT.featureNames(), read.featureNames());
        assertEquals(1, read.positiveColumn());
    }

    @Test
    void anotherEntitySeesListsAndDeletesNothing() {
        RewardModel adas = models.insertNextVersion(model(ADA, "judge", 0), ARTIFACT);

        assertEquals(Optional.empty(), models.find(BOB, adas.id()));
        assertEquals(Optional.empty(), models.artifact(BOB, adas.id()));
        assertEquals(List.of(), models.fetchPage(BOB, new PageRequest(Optional.empty(), 10, SortOrder.ASC),
                Optional.empty()));
        assertFalse(models.delete(BOB, adas.id()));
        assertTrue(models.delete(ADA, adas.id()));
        assertEquals(Optional.empty(), models.find(ADA, adas.id()));
        assertEquals(Optional.empty(), models.artifact(ADA, adas.id()));
    }

    @Test
    void pagesRunByCreationTimeInEitherOrder() {
        List<RewardModel> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            made.add(models.insertNextVersion(model(ADA, "judge", i), ARTIFACT));
        }
        PageRequest two = new PageRequest(Optional.empty(), 2, SortOrder.ASC);
        assertEquals(made, models.fetchPage(ADA, two, Optional.empty()));
        assertEquals(List.of(made.get(2)), models.fetchPage(ADA, two, Optional.of(made.get(1))));
        PageRequest down = new PageRequest(Optional.empty(), 2, SortOrder.DESC);
        assertEquals(List.of(made.get(1), made.get(0)), models.fetchPage(ADA, down, Optional.of(made.get(2))));
    }

    @Test
    void fitsOfOneNameStoredAtOnceGetDistinctVersions() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Integer>> inserts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int second = i;
                inserts.add(() -> models.insertNextVersion(model(ADA, "judge", second), ARTIFACT).version());
            }
            var versions = new HashSet<Integer>();
            for (Future<Integer> done : pool.invokeAll(inserts)) {
                versions.add(done.get());
            }
            assertEquals(java.util.Set.of(1, 2, 3, 4, 5, 6, 7, 8), versions);
        } finally {
            pool.shutdownNow();
        }
    }
}
