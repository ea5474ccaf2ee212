package dev.crucible.runtime.generation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps everything it hears and checks the streaming contract against the result. */
final class Recorder implements GenerationListener {

    final List<GenerationDelta> deltas = new CopyOnWriteArrayList<>();
    final List<GenerationResult> completions = new CopyOnWriteArrayList<>();
    final List<RuntimeException> failures = new CopyOnWriteArrayList<>();
    private final List<Recorder> completionOrder;

    Recorder() {
        this(new ArrayList<>());
    }

    Recorder(List<Recorder> completionOrder) {
        this.completionOrder = completionOrder;
    }

    @Override
    public void onDelta(GenerationDelta delta) {
        deltas.add(delta);
    }

    @Override
    public void onComplete(GenerationResult result) {
        completions.add(result);
        completionOrder.add(this);
    }

    @Override
    public void onFailure(RuntimeException failure) {
        failures.add(failure);
    }

    /** The deltas of sequence {@code index}'s texts, in order. */
    List<String> texts(int index) {
        return deltas.stream().filter(d -> d.index() == index).map(GenerationDelta::text).toList();
    }

    /** Each sequence's concatenated deltas equal its output, and only its last delta carries the finish. */
    void assertDeltasMatch(GenerationResult result) {
        assertEquals(List.of(result), completions);
        for (SequenceOutput out : result.sequences()) {
            List<GenerationDelta> own = deltas.stream().filter(d -> d.index() == out.index()).toList();
            assertEquals(out.text(), String.join("", own.stream().map(GenerationDelta::text).toList()));
            assertEquals(out.tokenIds(), own.stream().flatMap(d -> d.tokenIds().stream()).toList());
            assertEquals(out.logprobs(), own.stream().flatMap(d -> d.logprobs().stream()).toList());
            assertEquals(out.finish(), own.getLast().finish().orElseThrow());
            assertTrue(own.subList(0, own.size() - 1).stream().allMatch(d -> d.finish().isEmpty()));
        }
    }
}
