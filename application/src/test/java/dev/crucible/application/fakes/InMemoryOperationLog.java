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

/** The operation log in memory, with the JDBC log's rules: one operation per place, one state change. */
public final class InMemoryOperationLog implements OperationLog {

    private final Map<UUID, StoredOperation> rows = new LinkedHashMap<>();

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
    public synchronized int failPending(String message, Instant now) {
        int failed = 0;
        for (UUID id : rows.keySet().stream().toList()) {
            if (rows.get(id).state() instanceof OperationState.Pending) {
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
