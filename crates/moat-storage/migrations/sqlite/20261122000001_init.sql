-- Instance-wide settings: small values the server keeps across restarts
-- (the install id, later the token-signing key id and the operator bootstrap flag).
CREATE TABLE app_settings (
    key        TEXT PRIMARY KEY NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
