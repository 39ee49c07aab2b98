-- Observability (docs/observability.md): what the session recorder (highlight.run)
-- and the OpenTelemetry exporters send to Moat's own ingest. Every time is a whole
-- number of milliseconds since the Unix epoch (spans: nanoseconds), so both backends
-- compare and purge with plain integer ranges. JSON is stored as TEXT.
-- Rows older than `observe.retention_days` are deleted in batches by the retention job.

-- One recorded browser session, keyed by the recorder's secure id.
CREATE TABLE obs_sessions (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    secure_id       TEXT NOT NULL UNIQUE,
    -- From identifySession: the member's identifier and the flattened user object.
    user_identifier TEXT,
    user_object     TEXT,
    -- From addSessionProperties (merged JSON object).
    properties      TEXT,
    environment     TEXT NOT NULL DEFAULT '',
    app_version     TEXT,
    client_version  TEXT,
    service_name    TEXT,
    fingerprint     TEXT,
    client_id       TEXT,
    user_agent      TEXT,
    -- A salted hash of the client address, never the address itself.
    ip_hash         TEXT,
    -- Server clock: first seen, last push.
    started_at      BIGINT NOT NULL,
    last_push_at    BIGINT NOT NULL,
    -- Client clock: the earliest replay event (replay offsets count from it).
    first_event_at  BIGINT,
    first_url       TEXT,
    has_errors      BOOLEAN NOT NULL DEFAULT FALSE,
    has_feedback    BOOLEAN NOT NULL DEFAULT FALSE,
    -- Compressed bytes received for this session (the per-session budget).
    bytes_received  BIGINT NOT NULL DEFAULT 0,
    event_count     BIGINT NOT NULL DEFAULT 0,
    error_count     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX obs_sessions_by_start ON obs_sessions (started_at, id);
CREATE INDEX obs_sessions_by_member ON obs_sessions (user_identifier, started_at);
CREATE INDEX obs_sessions_by_environment ON obs_sessions (environment, started_at);
CREATE INDEX obs_sessions_by_last_push ON obs_sessions (last_push_at);

-- One push of replay events, stored as the gzip the recorder sent (empty when the
-- push held no replay events: the row still marks the payload id as received, which
-- makes pushes idempotent on (session, payload_id)).
CREATE TABLE obs_replay_chunks (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id  BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    payload_id  BIGINT NOT NULL,
    data        BYTEA NOT NULL,
    events      BIGINT NOT NULL,
    first_ts    BIGINT,
    last_ts     BIGINT,
    received_at BIGINT NOT NULL,
    CONSTRAINT obs_replay_chunks_once UNIQUE (session_id, payload_id)
);

-- Navigations, reloads and clicks, derived from the replay's custom events.
CREATE TABLE obs_timeline (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    ts         BIGINT NOT NULL,
    kind       TEXT NOT NULL,
    detail     TEXT NOT NULL
);
CREATE INDEX obs_timeline_by_session ON obs_timeline (session_id, ts);

CREATE TABLE obs_console (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    ts         BIGINT NOT NULL,
    level      TEXT NOT NULL,
    message    TEXT NOT NULL,
    trace      TEXT
);
CREATE INDEX obs_console_by_session ON obs_console (session_id, ts);

-- Network requests, headers and query parameters redacted on ingest.
CREATE TABLE obs_resources (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id       BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    ts               BIGINT NOT NULL,
    initiator        TEXT NOT NULL,
    method           TEXT,
    url              TEXT NOT NULL,
    status           BIGINT,
    duration_ms      DOUBLE PRECISION,
    transfer_size    BIGINT,
    request_headers  TEXT,
    response_headers TEXT,
    request_body     TEXT,
    response_body    TEXT
);
CREATE INDEX obs_resources_by_session ON obs_resources (session_id, ts);

-- Errors grouped by fingerprint (normalised message + top frames).
CREATE TABLE obs_error_groups (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fingerprint  TEXT NOT NULL UNIQUE,
    error_type   TEXT NOT NULL,
    message      TEXT NOT NULL,
    first_seen   BIGINT NOT NULL,
    last_seen    BIGINT NOT NULL,
    occurrences  BIGINT NOT NULL DEFAULT 0,
    sample_stack TEXT
);
CREATE INDEX obs_error_groups_by_last_seen ON obs_error_groups (last_seen);

CREATE TABLE obs_error_occurrences (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    group_id         BIGINT NOT NULL REFERENCES obs_error_groups (id) ON DELETE CASCADE,
    session_id       BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    ts               BIGINT NOT NULL,
    -- Milliseconds from the session's first replay event: where the replay shows it.
    replay_offset_ms BIGINT NOT NULL,
    url              TEXT,
    message          TEXT NOT NULL,
    source           TEXT,
    stack            TEXT
);
CREATE INDEX obs_error_occurrences_by_group ON obs_error_occurrences (group_id, ts);
CREATE INDEX obs_error_occurrences_by_session ON obs_error_occurrences (session_id, ts);

CREATE TABLE obs_feedback (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES obs_sessions (id) ON DELETE CASCADE,
    user_name  TEXT,
    user_email TEXT,
    verbatim   TEXT NOT NULL,
    ts         BIGINT NOT NULL
);
CREATE INDEX obs_feedback_by_ts ON obs_feedback (ts);
CREATE INDEX obs_feedback_by_session ON obs_feedback (session_id);

-- Metrics from pushMetrics and OTLP; web vitals have category 'WebVital' and their
-- canonical name (LCP, FCP, CLS, INP, TTFB, FID). Sessions are linked by secure id
-- (OTLP data may arrive before the session is initialised).
CREATE TABLE obs_metrics (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_secure_id TEXT,
    name              TEXT NOT NULL,
    value             DOUBLE PRECISION NOT NULL,
    category          TEXT NOT NULL DEFAULT '',
    page              TEXT NOT NULL DEFAULT '',
    ts                BIGINT NOT NULL,
    tags              TEXT,
    source            TEXT NOT NULL
);
CREATE INDEX obs_metrics_by_category ON obs_metrics (category, ts);
CREATE INDEX obs_metrics_by_name ON obs_metrics (name, ts);
CREATE INDEX obs_metrics_by_ts ON obs_metrics (ts);

-- Spans: the browser's (OTLP) and the server's own request spans.
CREATE TABLE obs_spans (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trace_id          TEXT NOT NULL,
    span_id           TEXT NOT NULL,
    parent_span_id    TEXT,
    name              TEXT NOT NULL,
    service           TEXT NOT NULL DEFAULT '',
    kind              BIGINT NOT NULL DEFAULT 0,
    start_ns          BIGINT NOT NULL,
    end_ns            BIGINT NOT NULL,
    status_code       BIGINT NOT NULL DEFAULT 0,
    status_message    TEXT,
    attributes        TEXT,
    session_secure_id TEXT,
    CONSTRAINT obs_spans_once UNIQUE (trace_id, span_id)
);
CREATE INDEX obs_spans_by_start ON obs_spans (start_ns);
CREATE INDEX obs_spans_by_session ON obs_spans (session_secure_id, start_ns);
