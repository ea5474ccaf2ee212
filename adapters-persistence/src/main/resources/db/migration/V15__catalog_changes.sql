-- What the API processes serve changes when a checkpoint is added or removed, or a model removed. Every such change is
-- a row here, written in the transaction that made it (by triggers, so no writer can forget one), and wakes every
-- follower with NOTIFY crucible_catalog (delivered at commit). Followers read the rows after the last place they saw,
-- so a lost notification delays a change until the next poll and loses nothing. Rows older than an hour are pruned.

CREATE TABLE catalog_changes (
    seq        bigserial   PRIMARY KEY,
    model_id   uuid        NOT NULL,
    step       integer,                 -- null for a whole model
    kind       text        NOT NULL CHECK (kind IN ('checkpoint_added', 'checkpoint_removed', 'model_removed')),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT catalog_changes_step CHECK ((kind = 'model_removed') = (step IS NULL))
);
CREATE INDEX catalog_changes_created ON catalog_changes (created_at);

CREATE FUNCTION crucible_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'models' THEN
        INSERT INTO catalog_changes (model_id, step, kind) VALUES (OLD.id, NULL, 'model_removed');
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO catalog_changes (model_id, step, kind) VALUES (NEW.model_id, NEW.step, 'checkpoint_added');
    ELSE
        INSERT INTO catalog_changes (model_id, step, kind) VALUES (OLD.model_id, OLD.step, 'checkpoint_removed');
    END IF;
    PERFORM pg_notify('crucible_catalog', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER checkpoints_catalog_change AFTER INSERT OR DELETE ON checkpoints
    FOR EACH ROW EXECUTE FUNCTION crucible_catalog_change();
CREATE TRIGGER models_catalog_change AFTER DELETE ON models
    FOR EACH ROW EXECUTE FUNCTION crucible_catalog_change();
