-- Files uploaded through the OpenAI-style Files API (POST /v1/files), such as SFT datasets. Each belongs to one
-- entity; the bytes live in the data directory under files/<id>, written whole before the row is inserted.

CREATE TABLE files (
    id         uuid        PRIMARY KEY,
    entity     text        NOT NULL,
    filename   text        NOT NULL,
    purpose    text        NOT NULL,  -- OpenAI's name: fine-tune, batch, assistants, vision, user_data, evals
    bytes      bigint      NOT NULL CHECK (bytes > 0),
    created_at timestamptz NOT NULL
);

-- Listing pages through an entity's files by creation time (then id) in either direction.
CREATE INDEX files_by_entity ON files (entity, created_at, id);
