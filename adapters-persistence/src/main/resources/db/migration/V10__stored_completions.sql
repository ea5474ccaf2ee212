-- Stored chat completions (store: true; GET /v1/chat/completions and its routes). One row per completion, owned by
-- an entity; its id (chatcmpl-...) is unique within the entity, and the first one kept wins. seq is the listing order
-- (the order they were stored) and the cursor behind `after`. The request's messages, the answer's choices and the
-- shown parameters are `json` (kept as written); metadata is `jsonb` so that `@>` filters it.

CREATE TABLE stored_completions (
    seq               bigserial   PRIMARY KEY,
    entity            text        NOT NULL,
    id                text        NOT NULL CHECK (length(id) BETWEEN 1 AND 512),
    project           text        NOT NULL,  -- the project's name within the entity
    created_at        timestamptz NOT NULL,
    model             text        NOT NULL,
    messages          json        NOT NULL,
    choices           json        NOT NULL,
    prompt_tokens     bigint      NOT NULL CHECK (prompt_tokens >= 0),
    completion_tokens bigint      NOT NULL CHECK (completion_tokens >= 0),
    metadata          jsonb       NOT NULL,
    params            json        NOT NULL,
    CONSTRAINT stored_completions_entity_id UNIQUE (entity, id)
);

-- Listing pages through an entity's completions in storing order, either direction.
CREATE INDEX stored_completions_by_entity ON stored_completions (entity, seq);
-- metadata[key]=value filters (metadata @> '{"key": "value"}').
CREATE INDEX stored_completions_metadata ON stored_completions USING gin (metadata jsonb_path_ops);
