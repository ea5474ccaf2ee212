package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.model.ModelId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** A worker's round: runs whose lease is gone are dropped, and it claims no more than its places left. */
class ClaimPlanTest {

    private static final ModelId A = new ModelId(UUID.randomUUID());
    private static final ModelId B = new ModelId(UUID.randomUUID());
    private static final ModelId C = new ModelId(UUID.randomUUID());

    @Test
    void aRunWhoseLeaseWasTakenOverIsDroppedAndFreesItsPlace() {
        ClaimPlan plan = ClaimPlan.of(Set.of(A, B), Set.of(A), 2);
        assertEquals(Set.of(B), plan.drop());
        assertEquals(1, plan.free());
    }

    @Test
    void aLeaseHeldWithoutItsRunInMemoryStillTakesAPlace() {
        assertEquals(new ClaimPlan(Set.of(), 0), ClaimPlan.of(Set.of(A), Set.of(A, C), 2));
        assertEquals(new ClaimPlan(Set.of(), 0), ClaimPlan.of(Set.of(A, B), Set.of(A, B, C), 2), "never negative");
    }

    @Test
    void aWorkerHoldsAtLeastOneRun() {
        assertThrows(IllegalArgumentException.class, () -> ClaimPlan.of(Set.of(), Set.of(), 0));
    }

    @Property
    void neverMoreThanCapacityAndNeverDropsAHeldLease(@ForAll @IntRange(min = 0, max = 6) int inMemory,
            @ForAll @IntRange(min = 0, max = 6) int leasedOfThem, @ForAll @IntRange(min = 0, max = 3) int leasedElse,
            @ForAll @IntRange(min = 1, max = 8) int capacity) {
        List<ModelId> memory = ids(inMemory);
        Set<ModelId> leased = new HashSet<>(memory.subList(0, Math.min(inMemory, leasedOfThem)));
        leased.addAll(ids(leasedElse));
        ClaimPlan plan = ClaimPlan.of(Set.copyOf(memory), leased, capacity);
        Set<ModelId> kept = new HashSet<>(memory);
        kept.removeAll(plan.drop());
        assertEquals(Set.copyOf(memory.subList(0, Math.min(inMemory, leasedOfThem))), kept);
        assertTrue(plan.free() >= 0);
        assertEquals(Math.max(0, capacity - leased.size()), plan.free());
    }

    private static List<ModelId> ids(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> new ModelId(UUID.randomUUID())).toList();
    }
}
