-- Weave-compatible objects: named, versioned JSON values in a project (<entity>/<project>), such as the
-- annotation specs that annotation feedback is checked against. A version is identified by the digest of its
-- value; creating the same value again finds the existing version instead of adding one.

CREATE TABLE objects (
    entity            text        NOT NULL,
    project           text        NOT NULL,
    object_id         text        NOT NULL,
    digest            text        NOT NULL,  -- Weave's bytes_digest of val_dump
    version_index     integer     NOT NULL CHECK (version_index >= 0),
    val_dump          text        NOT NULL,  -- the canonical JSON that digest hashes, kept byte for byte
    base_object_class text,
    svc_user_id       text        NOT NULL,
    created_at        timestamptz NOT NULL,
    deleted_at        timestamptz,
    CONSTRAINT objects_pkey PRIMARY KEY (entity, project, object_id, digest),
    CONSTRAINT objects_version_unique UNIQUE (entity, project, object_id, version_index)
);
