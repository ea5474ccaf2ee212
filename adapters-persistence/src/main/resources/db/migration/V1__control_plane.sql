-- Crucible control plane: keys, models, checkpoints, logged trajectories, training jobs and their events.
-- Every tenant-owned row carries its entity so that each read can be scoped by it.

CREATE TABLE api_keys (
    id          uuid PRIMARY KEY,
    entity      text        NOT NULL,
    key_hash    text        NOT NULL UNIQUE,  -- SHA-256 hex of the key; the key itself is never stored
    created_at  timestamptz NOT NULL
);

CREATE TABLE models (
    id          uuid PRIMARY KEY,
    entity      text        NOT NULL,
    project     text        NOT NULL,
    name        text        NOT NULL,
    base_model  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    CONSTRAINT models_coordinates_unique UNIQUE (entity, project, name)
);
CREATE INDEX models_entity_created ON models (entity, created_at);

CREATE TABLE checkpoints (
    id          uuid PRIMARY KEY,
    model_id    uuid        NOT NULL REFERENCES models (id) ON DELETE CASCADE,
    step        integer     NOT NULL CHECK (step >= 0),
    metrics     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL,
    CONSTRAINT checkpoints_step_unique UNIQUE (model_id, step)
);

CREATE TABLE trajectory_logs (
    id                uuid PRIMARY KEY,
    model_id          uuid        NOT NULL REFERENCES models (id) ON DELETE CASCADE,
    split             text        NOT NULL,
    trajectory_groups jsonb       NOT NULL,
    created_at        timestamptz NOT NULL
);
CREATE INDEX trajectory_logs_model ON trajectory_logs (model_id, created_at);

-- Jobs outlive their model (a client polling a cancelled job must still read its terminal event),
-- so model_id is not a foreign key.
CREATE TABLE training_jobs (
    id             uuid PRIMARY KEY,
    seq            bigserial   NOT NULL UNIQUE,  -- queue order
    type           text        NOT NULL CHECK (type IN ('RL', 'SFT')),
    model_id       uuid        NOT NULL,
    entity         text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    created_at     timestamptz NOT NULL,
    training_start timestamptz,
    training_end   timestamptz,
    error_message  text,
    result_step    integer,
    runner_id      uuid,
    heartbeat_at   timestamptz
);
CREATE INDEX training_jobs_queue ON training_jobs (seq) WHERE status = 'QUEUED';
CREATE INDEX training_jobs_model_active ON training_jobs (model_id) WHERE status IN ('QUEUED', 'RUNNING');
CREATE INDEX training_jobs_running ON training_jobs (heartbeat_at) WHERE status = 'RUNNING';

CREATE TABLE training_job_specs (
    job_id  uuid PRIMARY KEY REFERENCES training_jobs (id) ON DELETE CASCADE,
    spec    jsonb NOT NULL
);

CREATE TABLE training_job_events (
    id          uuid PRIMARY KEY,
    seq         bigserial   NOT NULL UNIQUE,  -- write order; the listing order
    job_id      uuid        NOT NULL REFERENCES training_jobs (id) ON DELETE CASCADE,
    type        text        NOT NULL,
    data        jsonb       NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX training_job_events_job ON training_job_events (job_id, seq);
