-- Training usage (GET /v1/organization/usage/training): the positions Tinker's forward_backward trained and forward
-- scored, per entity, minute, project, model and API key, as completion_usage (V6) keeps completions' tokens. Each
-- finished operation adds itself to its minute's row (one upsert).

CREATE TABLE training_usage (
    entity         text    NOT NULL,
    minute_start   bigint  NOT NULL CHECK (minute_start >= 0 AND minute_start % 60 = 0),  -- Unix seconds
    project_id     text    NOT NULL,  -- <team>/<project>
    model          text    NOT NULL,
    api_key_id     text    NOT NULL,
    trained_tokens bigint  NOT NULL CHECK (trained_tokens >= 0),
    forward_tokens bigint  NOT NULL CHECK (forward_tokens >= 0),
    num_operations bigint  NOT NULL CHECK (num_operations > 0),
    CONSTRAINT training_usage_pkey PRIMARY KEY (entity, minute_start, project_id, model, api_key_id)
);
