-- Datasets (/v1/datasets): immutable snapshots built from an entity's stored completions and their feedback. The
-- rows are kept as built (JSONL lines), and so are the ids of the stored completions and feedback rows that went
-- into them (dataset_sources), so that later edits or deletions of those change no dataset. seq is the listing order.

CREATE TABLE datasets (
    id          uuid        PRIMARY KEY,
    seq         bigserial   NOT NULL UNIQUE,
    entity      text        NOT NULL,
    name        text        NOT NULL,
    project     text        NOT NULL,  -- the project's name within the entity
    kind        text        NOT NULL CHECK (kind IN ('sft', 'preference', 'rl')),
    query       jsonb       NOT NULL,  -- the request's filter, feedback and reward parts, as sent back
    created_at  timestamptz NOT NULL,
    row_count   integer     NOT NULL CHECK (row_count >= 1)
);
CREATE INDEX datasets_by_entity ON datasets (entity, seq);

CREATE TABLE dataset_rows (
    dataset_id uuid    NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    line_no    integer NOT NULL CHECK (line_no >= 0),
    line       text    NOT NULL,
    PRIMARY KEY (dataset_id, line_no)
);

-- What went into a dataset: stored completion ids (unique per entity) and feedback row ids (unique per project, and
-- a dataset reads one project), in row order.
CREATE TABLE dataset_sources (
    dataset_id uuid    NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    entity     text    NOT NULL,
    kind       text    NOT NULL CHECK (kind IN ('completion', 'feedback')),
    source_id  text    NOT NULL,
    ord        integer NOT NULL,
    PRIMARY KEY (dataset_id, kind, source_id)
);
-- Erasure: which datasets hold this completion or feedback row.
CREATE INDEX dataset_sources_by_source ON dataset_sources (entity, kind, source_id);

-- Lineage: the datasets a checkpoint was trained on, written with the checkpoint by the job that trained it. A
-- checkpoint's deletion drops its lineage; a dataset that trained a checkpoint cannot be deleted before it.
CREATE TABLE checkpoint_datasets (
    checkpoint_id uuid NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    dataset_id    uuid NOT NULL REFERENCES datasets (id) ON DELETE RESTRICT,
    PRIMARY KEY (checkpoint_id, dataset_id)
);
CREATE INDEX checkpoint_datasets_by_dataset ON checkpoint_datasets (dataset_id);
