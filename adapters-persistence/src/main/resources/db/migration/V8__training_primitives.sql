-- The training primitives (Tinker's API): client sessions, training runs (each a Crucible model of its entity, with
-- the LoRA settings it was created with), sampling sessions, and the operation log that backs durable futures.
-- Every accepted operation is a row here before its request id is answered; a row stays 'pending' until its result
-- or failure is written. On start, rows a previous process left pending are failed with category 'server'.

CREATE TABLE primitive_sessions (
    id                uuid PRIMARY KEY,
    entity            text        NOT NULL,
    tags              jsonb       NOT NULL DEFAULT '[]'::jsonb,
    sdk_version       text,
    created_at        timestamptz NOT NULL,
    last_heartbeat_at timestamptz NOT NULL
);
CREATE INDEX primitive_sessions_entity ON primitive_sessions (entity, created_at);

CREATE TABLE training_runs (
    model_id        uuid PRIMARY KEY REFERENCES models (id) ON DELETE CASCADE,
    entity          text        NOT NULL,
    session_id      uuid,
    base_model      text        NOT NULL,
    lora_rank       integer     NOT NULL CHECK (lora_rank > 0),
    train_unembed   boolean     NOT NULL,
    train_mlp       boolean     NOT NULL,
    train_attn      boolean     NOT NULL,
    seed            bigint,
    created_at      timestamptz NOT NULL,
    last_request_at timestamptz NOT NULL
);
CREATE INDEX training_runs_entity ON training_runs (entity, created_at);

CREATE TABLE sampling_sessions (
    id          uuid PRIMARY KEY,
    entity      text        NOT NULL,
    session_id  uuid,
    base_model  text        NOT NULL,
    model_id    uuid REFERENCES models (id) ON DELETE CASCADE,  -- the run whose adapter it samples; null: the base
    step        integer,                                         -- that run's checkpoint step, when it has one
    model_path  text,                                            -- the tinker:// path it was made from, if any
    created_at  timestamptz NOT NULL,
    CONSTRAINT sampling_sessions_adapter CHECK (model_id IS NOT NULL OR step IS NULL)
);

-- One row per accepted operation. A sequenced operation (a run's forward_backward, optim_step, ...) names its
-- sequence ('run:<model id>') and seq_id; an identical retry of (sequence, seq_id) finds its row by the digest.
CREATE TABLE training_operations (
    request_id  uuid PRIMARY KEY,
    entity      text        NOT NULL,
    kind        text        NOT NULL,
    model_id    uuid,                          -- the run it belongs to, when it belongs to one
    sequence    text,
    seq_id      bigint,
    digest      text        NOT NULL,          -- SHA-256 of the request's canonical form
    status      text        NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    result      jsonb,
    error       text,
    category    text        CHECK (category IN ('user', 'server')),
    created_at  timestamptz NOT NULL,
    finished_at timestamptz,
    CONSTRAINT training_operations_sequenced CHECK ((sequence IS NULL) = (seq_id IS NULL)),
    CONSTRAINT training_operations_seq_unique UNIQUE (sequence, seq_id),
    CONSTRAINT training_operations_outcome CHECK (
        (status = 'pending' AND result IS NULL AND error IS NULL AND finished_at IS NULL)
        OR (status = 'done' AND result IS NOT NULL AND error IS NULL AND finished_at IS NOT NULL)
        OR (status = 'failed' AND result IS NULL AND error IS NOT NULL AND category IS NOT NULL
            AND finished_at IS NOT NULL))
);
CREATE INDEX training_operations_pending ON training_operations (status) WHERE status = 'pending';
CREATE INDEX training_operations_model ON training_operations (model_id, created_at);

-- The names a run's saved states go by in tinker:// paths: 'weights' (save_weights: adapter and optimiser state) and
-- 'sampler_weights' (save_weights_for_sampler), each the Crucible checkpoint step whose files hold it.
CREATE TABLE run_saved_states (
    model_id   uuid        NOT NULL REFERENCES models (id) ON DELETE CASCADE,
    kind       text        NOT NULL CHECK (kind IN ('weights', 'sampler_weights')),
    name       text        NOT NULL,
    step       integer     NOT NULL CHECK (step > 0),
    created_at timestamptz NOT NULL,
    CONSTRAINT run_saved_states_pkey PRIMARY KEY (model_id, kind, name)
);
