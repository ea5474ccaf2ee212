package dev.crucible.application.inference.chat;

import dev.crucible.application.fakes.FakeLoraAdapter;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.AdapterSource;
import dev.crucible.domain.model.ModelId;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.RequestOwner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a running chat holds (its admission ticket and its checkpoint's adapter lease) is given back when it ends,
 * once, however it ends; a released adapter can be evicted again.
 */
class ChatLaunchTest {

    private static final RequestOwner OWNER = new RequestOwner("entity", "key");

    /** An observer that records what it heard. */
    private static final class RecordingObserver implements ChatObserver {
        final List<String> heard = new ArrayList<>();

        @Override
        public void firstToken(String model, Duration afterArrival) {
            heard.add("first " + model);
        }

        @Override
        public void finished(String model, int promptTokens, Duration afterArrival, String finishReason) {
            heard.add("finished " + model + " " + promptTokens + " " + finishReason);
        }
    }

    private static final ModelId CHECKPOINTS = ModelId.random();

    private final Map<Path, FakeLoraAdapter> loaded = new HashMap<>();
    private final AdapterCache adapters = new AdapterCache(1);
    private final ChatAdmission admission = new ChatAdmission(new RequestLimits(4, 4));
    private final RecordingObserver observer = new RecordingObserver();
    private final ChatLaunch launch = new ChatLaunch(adapters, admission, observer);

    private AdapterCache.Lease lease(String folder) {
        return adapters.acquire("m", new AdapterSource(CHECKPOINTS, 1, Path.of(folder)), path -> {
            FakeLoraAdapter adapter = new FakeLoraAdapter();
            loaded.put(path, adapter);
            return adapter;
        });
    }

    /** A generation's listener holding a lease on adapter {@code /a} and one admission ticket. */
    private GenerationListener running() {
        AdapterCache.Lease lease = lease("/a");
        ChatAdmission.Ticket ticket = value(admission.admit(OWNER, Duration.ZERO));
        return launch.observed("m", System.nanoTime(), GenerationListener.NONE,
                ChatLaunch.releaser(Optional.of(lease), ticket));
    }

    /** Whether adapter {@code /a} is still loaded: leasing another one evicts it only when no one holds it. */
    private boolean stillHeldAfterAnotherLease() {
        lease("/b").close();
        return !loaded.get(Path.of("/a").toAbsolutePath()).closed();
    }

    @Test
    void aFinishedGenerationGivesBackItsAdapterAndItsPlace() {
        GenerationListener listener = running();
        assertEquals(1, admission.heldByKey(OWNER));

        listener.onComplete(new GenerationResult(3, List.of()));

        assertEquals(0, admission.heldByKey(OWNER));
        assertFalse(stillHeldAfterAnotherLease());
        assertEquals(List.of("finished m 3 abort"), observer.heard);
    }

    @Test
    void aFailedGenerationGivesBackItsAdapterAndItsPlace() {
        GenerationListener listener = running();

        listener.onFailure(new IllegalStateException("engine fault"));

        assertEquals(0, admission.heldByKey(OWNER));
        assertFalse(stillHeldAfterAnotherLease());
    }

    @Test
    void aRunningGenerationKeepsItsAdapter() {
        running();

        assertTrue(stillHeldAfterAnotherLease());
        assertEquals(1, admission.heldByKey(OWNER));
    }

    @Test
    void anEndHeardTwiceReleasesOnce() {
        GenerationListener first = running();
        value(admission.admit(OWNER, Duration.ZERO));

        first.onComplete(new GenerationResult(3, List.of()));
        first.onFailure(new IllegalStateException("late"));

        assertEquals(1, admission.heldByKey(OWNER));
    }
}
