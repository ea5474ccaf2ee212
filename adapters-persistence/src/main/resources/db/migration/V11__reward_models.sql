-- Reward models (POST /v1/reward-models): each row one fitted version of an entity's named model, with its held-out
-- metrics and the fitted artifact itself (ONNX bytes, tens of kilobytes: at most 2 x 4096 hashed features, two
-- classes), the input columns' feature names in order, and which output column is "good".

CREATE TABLE reward_models (
    id              uuid             PRIMARY KEY,
    entity          text             NOT NULL,
    project         text             NOT NULL,
    name            text             NOT NULL,
    version         integer          NOT NULL CHECK (version >= 1),
    created_at      timestamptz      NOT NULL,
    accuracy        double precision NOT NULL CHECK (accuracy BETWEEN 0 AND 1),
    auc             double precision NOT NULL CHECK (auc BETWEEN 0 AND 1),
    train_size      integer          NOT NULL CHECK (train_size >= 1),
    test_size       integer          NOT NULL CHECK (test_size >= 2),
    features        text             NOT NULL,
    algorithm       text             NOT NULL,
    onnx            bytea            NOT NULL,
    feature_names   text[]           NOT NULL,
    positive_column integer          NOT NULL CHECK (positive_column IN (0, 1)),
    -- Versions count 1, 2, ... per entity and name; the store numbers them under a lock, this catches a slip.
    UNIQUE (entity, name, version)
);

-- Listing pages through an entity's models by creation time (then id) in either direction.
CREATE INDEX reward_models_by_entity ON reward_models (entity, created_at, id);
