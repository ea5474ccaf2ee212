-- Completion usage (GET /v1/organization/usage/completions): token sums per entity, minute, project, model and API
-- key. Each ended completion adds itself to its minute's row (one upsert), so the table grows with the minutes
-- in which a key was used, not with the number of completions; a minute is the finest bucket the API offers.
-- Key ids are kept as text, without a reference: usage outlives the key that made it.

CREATE TABLE completion_usage (
    entity              text    NOT NULL,
    minute_start        bigint  NOT NULL CHECK (minute_start >= 0 AND minute_start % 60 = 0),  -- Unix seconds
    project_id          text    NOT NULL,  -- <team>/<project>
    model               text    NOT NULL,
    api_key_id          text    NOT NULL,
    input_tokens        bigint  NOT NULL CHECK (input_tokens >= 0),
    output_tokens       bigint  NOT NULL CHECK (output_tokens >= 0),
    input_cached_tokens bigint  NOT NULL CHECK (input_cached_tokens >= 0),
    num_model_requests  bigint  NOT NULL CHECK (num_model_requests > 0),
    CONSTRAINT completion_usage_pkey PRIMARY KEY (entity, minute_start, project_id, model, api_key_id)
);
