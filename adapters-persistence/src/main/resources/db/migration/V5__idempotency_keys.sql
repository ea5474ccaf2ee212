-- Idempotency keys of creating requests (Idempotency-Key header): one row per entity, kind of creation (scope)
-- and key. A row without a status is a request still being handled; with one, the answer that retries get again.
-- Rows are dropped once older than the retention (crucible.idempotency.retention, 24 hours by default).

CREATE TABLE idempotency_keys (
    entity      text        NOT NULL,
    scope       text        NOT NULL,
    idem_key    text        NOT NULL,
    fingerprint text        NOT NULL,  -- digest of the request's parameters
    status      integer     CHECK (status BETWEEN 200 AND 299),
    answer      text,                  -- the JSON body answered, once answered
    created_at  timestamptz NOT NULL,
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (entity, scope, idem_key),
    CONSTRAINT idempotency_keys_answered CHECK ((status IS NULL) = (answer IS NULL))
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
