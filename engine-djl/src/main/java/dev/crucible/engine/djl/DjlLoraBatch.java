package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import dev.crucible.hf.peft.LoraTarget;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The LoRA side of one forward batch: the projections {@code y = W x + b + scaling * B (A x)} (Hu et al., LoRA) with
 * rows grouped by adapter. For each target, the rows of the sequences whose adapter adapts it are gathered per adapter,
 * each group runs its two small matmuls, and the deltas (with zero rows for the rest) are put back in row order with
 * one gather and added to the base output; rows without an adapter thus get exactly the base value. A batch without
 * adapters ({@link #NONE}) runs the base projection alone. Lives for one forward, inside its NDScope.
 */
final class DjlLoraBatch {

    /** The plan of a batch in which no sequence has an adapter. */
    static final DjlLoraBatch NONE = new DjlLoraBatch(null, Map.of());

    /** The rows of one adapter, as an index array, or null when they are every row of the batch in order. */
    private record Group(DjlLoraMatrices adapter, NDArray rows) {
    }

    /**
     * One target's work: the groups, the count of rows no group covers, and the gather putting the concatenated deltas
     * back in row order (null when they already are).
     */
    private record Plan(List<Group> groups, int uncovered, NDArray inverse) {
    }

    private final NDManager manager;
    private final Map<LoraTarget, Plan> plans;

    private DjlLoraBatch(NDManager manager, Map<LoraTarget, Plan> plans) {
        this.manager = manager;
        this.plans = plans;
    }

    /** The plan of a batch whose every row runs with {@code adapter}, as in training. */
    static DjlLoraBatch whole(DjlLoraMatrices adapter, NDManager manager) {
        Map<LoraTarget, Plan> plans = new EnumMap<>(LoraTarget.class);
        Plan all = new Plan(List.of(new Group(adapter, null)), 0, null);
        for (LoraTarget t : LoraTarget.values()) {
            if (adapter.adapts(t)) {
                plans.put(t, all);
            }
        }
        return new DjlLoraBatch(manager, plans);
    }

    /**
     * Plans the batch; index arrays are made in {@code manager} (inside the forward's scope). The layers' plans are
     * over every row of the batch; the head's ({@link LoraTarget#LM_HEAD}) over the rows whose logits are computed
     * ({@link DjlPackedBatch#logitRows}, in that order), so the vocabulary-wide delta runs on those rows alone.
     */
    static DjlLoraBatch of(DjlPackedBatch batch, NDManager manager) {
        if (batch.adapters().stream().allMatch(Objects::isNull)) {
            return NONE;
        }
        int total = batch.tokens().length;
        int[] logitStarts = new int[batch.size()];
        int[] logitCounts = new int[batch.size()];
        int logitTotal = 0;
        for (int i = 0; i < batch.size(); i++) {
            logitStarts[i] = logitTotal;
            logitCounts[i] = batch.inputs().get(i).allPositions() ? batch.length(i) : 1;
            logitTotal += logitCounts[i];
        }
        Map<LoraTarget, Plan> plans = new EnumMap<>(LoraTarget.class);
        // Adapters usually adapt the same targets, so plans with the same groups are shared between targets.
        Map<List<DjlLoraAdapter>, Plan> byGroups = new HashMap<>();
        for (LoraTarget t : LoraTarget.values()) {
            boolean head = t == LoraTarget.LM_HEAD;
            Map<DjlLoraAdapter, List<Integer>> rows = new LinkedHashMap<>();
            for (int i = 0; i < batch.size(); i++) {
                DjlLoraAdapter adapter = batch.adapters().get(i);
                if (adapter != null && adapter.adapts(t)) {
                    List<Integer> own = rows.computeIfAbsent(adapter, x -> new ArrayList<>());
                    int start = head ? logitStarts[i] : batch.offsets()[i];
                    for (int r = start; r < start + (head ? logitCounts[i] : batch.length(i)); r++) {
                        own.add(r);
                    }
                }
            }
            if (rows.isEmpty()) {
                continue;
            }
            int count = head ? logitTotal : total;
            plans.put(t, head ? plan(rows, count, manager)
                    : byGroups.computeIfAbsent(List.copyOf(rows.keySet()), k -> plan(rows, count, manager)));
        }
        return new DjlLoraBatch(manager, plans);
    }

    private static Plan plan(Map<DjlLoraAdapter, List<Integer>> rows, int total, NDManager manager) {
        long[] order = new long[total];
        boolean[] covered = new boolean[total];
        int next = 0;
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<DjlLoraAdapter, List<Integer>> e : rows.entrySet()) {
            long[] own = e.getValue().stream().mapToLong(Integer::longValue).toArray();
            for (long r : own) {
                order[next++] = r;
                covered[(int) r] = true;
            }
            groups.add(new Group(e.getKey(), own.length == total ? null : manager.create(own)));
        }
        int uncovered = total - next;
        for (int r = 0; r < total; r++) {
            if (!covered[r]) {
                order[next++] = r;
            }
        }
        long[] inverse = new long[total];
        boolean identity = true;
        for (int j = 0; j < total; j++) {
            inverse[(int) order[j]] = j;
            identity &= order[j] == j;
        }
        return new Plan(groups, uncovered, identity ? null : manager.create(inverse));
    }

    /** Whether some row's adapter adapts {@code target}. */
    boolean adapts(LoraTarget target) {
        return plans.containsKey(target);
    }

    /**
     * {@code x W^T + bias} for every row, plus each row's adapter delta for {@code target} of {@code layer}; for the
     * head, {@code x} holds the logit rows and {@code layer} is 0.
     */
    NDArray linear(NDArray x, int layer, LoraTarget target, NDArray weight, NDArray bias) {
        return addDelta(x, layer, target, DjlOps.linear(x, weight, bias));
    }

    /** {@code y}, the base projection of {@code x}, plus each row's adapter delta for {@code target} of {@code layer}. */
    NDArray addDelta(NDArray x, int layer, LoraTarget target, NDArray y) {
        Plan plan = plans.get(target);
        if (plan == null) {
            return y;
        }
        NDList deltas = new NDList(plan.groups().size() + 1);
        for (Group g : plan.groups()) {
            NDArray rows = g.rows() == null ? x : x.get(new NDIndex("{}", g.rows()));
            NDArray down = DjlOps.linear(rows, g.adapter().a(layer, target), null);
            deltas.add(DjlOps.linear(down, g.adapter().scaledB(layer, target), null));
        }
        if (plan.uncovered() > 0) {
            deltas.add(manager.zeros(new Shape(plan.uncovered(), y.getShape().get(1))));
        }
        NDArray delta = deltas.size() == 1 ? deltas.singletonOrThrow() : NDArrays.concat(deltas, 0);
        if (plan.inverse() != null) {
            delta = delta.get(new NDIndex("{}", plan.inverse()));
        }
        // In place, and the delta freed at once: neither the base product's backward nor the sum's keeps an output,
        // so autograd needs neither array, and training would otherwise hold three [tokens, out] arrays per
        // projection (base, delta, sum) until its scope closes instead of one.
        NDArray sum = y.addi(delta);
        delta.close();
        return sum;
    }

    /**
     * {@code sum(delta(x) * g)} over every row, for {@code target}'s LoRA delta of {@code layer} ({@code target} must
     * be adapted, {@link #adapts}), without the {@code [rows, out]} delta: per adapter,
     * {@code sum((x A^T) * (g B))} with {@code B} scaled, two {@code [rows, r]} arrays. Its gradients are the delta's
     * vector-Jacobian product with {@code g}: {@code g^T (x A^T)} for {@code B}, and through {@code x A^T} for
     * {@code A} and {@code x}. Rows whose adapter does not adapt {@code target} add nothing.
     */
    NDArray deltaInner(NDArray x, int layer, LoraTarget target, NDArray g) {
        NDArray sum = null;
        for (Group group : plans.get(target).groups()) {
            NDIndex rows = group.rows() == null ? null : new NDIndex("{}", group.rows());
            NDArray down = DjlOps.linear(rows == null ? x : x.get(rows), group.adapter().a(layer, target), null);
            NDArray back = (rows == null ? g : g.get(rows)).matMul(group.adapter().scaledB(layer, target));
            NDArray term = DjlOps.inner(down, back);
            sum = sum == null ? term : sum.add(term);
        }
        return sum;
    }
}
