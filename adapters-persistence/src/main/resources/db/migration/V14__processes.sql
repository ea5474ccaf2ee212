-- The processes sharing this database (crucible serve --role all|api|worker), each with its heartbeat. A training
-- operation is owned by the process that accepted it (its run lives in that process's memory); its row stays pending
-- while the owner beats, and is failed, category 'server', by whichever process notices that the owner is gone (no row,
-- or a stale heartbeat). This replaces the single-process rule "on start, fail every pending row" of V8.

CREATE TABLE crucible_processes (
    id           uuid PRIMARY KEY,
    role         text        NOT NULL CHECK (role IN ('all', 'api', 'worker')),
    host         text        NOT NULL,
    started_at   timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
);

ALTER TABLE training_operations ADD COLUMN owner uuid;  -- null: accepted before owners existed; treated as dead
