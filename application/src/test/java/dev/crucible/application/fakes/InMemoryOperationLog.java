package dev.crucible.application.fakes;

import dev.crucible.application.primitives.FailureCategory;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.StoredOperation;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The operation log in memory, with the JDBC log's rules: one operation per place, one state change, each row owned by
 * the process that wrote it, whose liveness is its {@link InMemoryProcessRegistry}'s.
 */
public final class InMemoryOperationLog implements OperationLog {

    private final Map<UUID, StoredOperation> rows = new LinkedHashMap<>();
    private final Map<UUID, UUID> owners = new LinkedHashMap<>();
    private final InMemoryProcessRegistry processes;
    private UUID writer = UUID.randomUUID();

    public InMemoryOperationLog() {
        this(new InMemoryProcessRegistry());
    }

    public InMemoryOperationLog(InMemoryProcessRegistry processes) {
        this.processes = processes;
    }

    /** Operations inserted from now on are owned by process {@code owner}, as if that process accepted them. */
    public synchronized InMemoryOperationLog writtenBy(UUID owner) {
        this.writer = owner;
        return this;
    }

    @Override
    public synchronized Optional<StoredOperation> insertUnlessSequenced(Operation op) {
        if (op.sequence().isPresent()) {
            Optional<StoredOperation> holder = rows.values().stream().filter(r -> r.operation().sequence()
                    .equals(op.sequence()) && r.operation().seqId().equals(op.seqId())).findFirst();
            if (holder.isPresent()) {
                return holder;
            }
        }
        rows.put(op.requestId(), new StoredOperation(op, new OperationState.Pending()));
        owners.put(op.requestId(), writer);
        return Optional.empty();
    }

    @Override
    public synchronized Optional<StoredOperation> find(EntityName entity, UUID requestId) {
        return Optional.ofNullable(rows.get(requestId)).filter(r -> r.operation().entity().equals(entity));
    }

    @Override
    public synchronized void complete(UUID requestId, OperationResult result, Instant now) {
        finish(requestId, new OperationState.Done(result));
    }

    @Override
    public synchronized void fail(UUID requestId, String message, FailureCategory category, Instant now) {
        finish(requestId, new OperationState.Failed(message, category));
    }

    @Override
    public synchronized int failOrphaned(String message, Instant staleBefore, Instant now) {
        return failWhere(owner -> !processes.aliveAt(owner, staleBefore), message);
    }

    @Override
    public synchronized int failOwned(UUID owner, String message, Instant now) {
        return failWhere(owner::equals, message);
    }

    private int failWhere(java.util.function.Predicate<UUID> owner, String message) {
        int failed = 0;
        for (UUID id : rows.keySet().stream().toList()) {
            if (rows.get(id).state() instanceof OperationState.Pending && owner.test(owners.get(id))) {
                finish(id, new OperationState.Failed(message, FailureCategory.SERVER));
                failed++;
            }
        }
        return failed;
    }

    private void finish(UUID id, OperationState state) {
        StoredOperation row = rows.get(id);
        if (row != null && row.state() instanceof OperationState.Pending) {
            rows.put(id, new StoredOperation(row.operation(), state));
        }
    }
}
