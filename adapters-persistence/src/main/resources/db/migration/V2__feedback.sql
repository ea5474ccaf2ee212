-- Feedback rows on traced objects (Weave's feedback table). The key is (project_id, id): ids are unique
-- within a project, and one tenant cannot probe another project's ids. project_id is "<entity>/<project>",
-- so every read scoped by project is scoped by entity too.
CREATE TABLE feedback (
    project_id     text        NOT NULL,
    id             uuid        NOT NULL,
    svc_ref        text        NOT NULL,
    svc_user_id    text        NOT NULL,
    creator        text,
    created_at     timestamptz NOT NULL,
    feedback_type  text        NOT NULL,
    payload        jsonb       NOT NULL,
    annotation_ref text,
    runnable_ref   text,
    call_ref       text,
    trigger_ref    text,
    queue_id       text,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX feedback_project_ref ON feedback (project_id, svc_ref);
CREATE INDEX feedback_project_created ON feedback (project_id, created_at);
CREATE INDEX feedback_project_queue ON feedback (project_id, queue_id);
