package dev.crucible.adapters.persistence.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.process.CatalogChange;
import dev.crucible.application.process.CatalogChanges;
import dev.crucible.domain.model.Model;
import dev.crucible.testsupport.concurrent.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The catalog change log on a real PostgreSQL: the triggers record every checkpoint added or removed and every model
 * removed, whoever wrote it, and a NOTIFY wakes a listener on its own connection.
 */
class JdbcCatalogChangesIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final CatalogChanges changes = stores.bean(CatalogChanges.class);

    @Test
    void aNewCheckpointIsLoggedAndWakesTheListener() throws Exception {
        long start = changes.latest();
        assertFalse(changes.await(Duration.ofMillis(50)), "listening now; nothing happened yet");

        Model model = stores.model("ada", "m");

        assertTrue(changes.await(Duration.ofSeconds(30)), "the commit's NOTIFY woke the listener");
        assertEquals(List.of(new CatalogChange(start + 1, model.id(), OptionalInt.of(0),
                CatalogChange.Kind.CHECKPOINT_ADDED)), changes.after(start, 10));
        assertEquals(start + 1, changes.latest());
    }

    @Test
    void deletingAModelLogsItAndEachOfItsCheckpointsEvenWhenAnotherSessionDeletesIt() throws Exception {
        Model model = stores.model("ada", "m");
        long before = changes.latest();
        try (Connection other = stores.connection();
                PreparedStatement delete = other.prepareStatement("DELETE FROM models WHERE id = ?")) {
            delete.setObject(1, model.id().value());
            assertEquals(1, delete.executeUpdate());
        }

        List<CatalogChange> logged = changes.after(before, 10);
        assertEquals(Set.of(CatalogChange.Kind.MODEL_REMOVED, CatalogChange.Kind.CHECKPOINT_REMOVED),
                logged.stream().map(CatalogChange::kind).collect(Collectors.toSet()));
        assertTrue(logged.stream().allMatch(c -> c.model().equals(model.id())));
        assertEquals(2, logged.size());
    }

    /**
     * A server's stop closes the changes while its follower waits: the wait ends then, not at its limit (a blocked
     * socket read does not answer an interrupt). The wait's limit is a day; the join's two minutes only keep a
     * failure from hanging the build.
     */
    @Test
    void closingEndsAWaitInProgress() throws Exception {
        CompletableFuture<Boolean> woken = new CompletableFuture<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread follower = Thread.ofPlatform().start(() -> {
            try {
                assertFalse(changes.await(Duration.ofMillis(1)), "the channel is open: nothing happened yet");
                waiting.countDown();
                woken.complete(changes.await(Duration.ofDays(1)));
            } catch (Throwable e) {
                woken.completeExceptionally(e);
            }
        });
        waiting.await();
        assertTrue(Await.until(() -> Arrays.stream(follower.getStackTrace())
                .anyMatch(frame -> frame.getMethodName().equals("getNotifications"))), "the follower never waited");
        Thread.ofPlatform().start(changes::close);
        follower.join(Duration.ofMinutes(2));
        assertFalse(follower.isAlive(), "the wait did not end when the changes were closed");
        assertFalse(woken.get(), "a closed channel wakes nobody as if something had changed");
    }

    @Test
    void pruningRemovesOldChanges() {
        stores.model("ada", "m");
        assertEquals(1, changes.prune(Instant.now().plusSeconds(3600)));
        assertEquals(List.of(), changes.after(0, 10));
    }
}
