-- Tinker runs on workers (docs/decisions.md, "Tinker runs on workers"). An api process only writes a run's operations:
-- each is a pending row with no owner and its command (the checked request, as JSON) and the key it is counted under.
-- One worker at a time owns a run: it claims the run (owner, lease_until) with SKIP LOCKED, renews the lease while it
-- lives, and takes the run's queued rows lowest seq_id first, setting their owner to itself. A run whose lease ran out
-- (its owner was killed) or was given back (SIGTERM) is claimed by another worker, which loads its last saved state.
-- A run unloaded on a worker is never claimed again.

ALTER TABLE training_runs
    ADD COLUMN owner       uuid,
    ADD COLUMN lease_until timestamptz,
    ADD COLUMN unloaded    boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT training_runs_lease CHECK ((owner IS NULL) = (lease_until IS NULL));

ALTER TABLE training_operations
    ADD COLUMN command jsonb,   -- set on rows queued by an api process; null on rows run by the process that wrote them
    ADD COLUMN key_id  uuid,
    ADD CONSTRAINT training_operations_queued CHECK (command IS NULL OR (seq_id IS NOT NULL AND key_id IS NOT NULL));

CREATE INDEX training_operations_queued_rows ON training_operations (model_id, seq_id)
    WHERE status = 'pending' AND owner IS NULL AND command IS NOT NULL;

-- An api process bounds the operations pending per key (queued or running) by counting them before it queues one.
CREATE INDEX training_operations_pending_keys ON training_operations (key_id) WHERE status = 'pending';
