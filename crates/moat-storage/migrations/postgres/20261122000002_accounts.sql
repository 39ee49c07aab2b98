-- Accounts and identity (docs/accounts.md).
--
-- A member's row is never deleted: account deletion turns it into a tombstone
-- (email, nickname, password hash nulled, `deleted_at` set; identities and sessions
-- deleted) so later content can still point at "a deleted member". Ids are never
-- reused (identity sequence).
CREATE TABLE users (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_user_id    TEXT NOT NULL UNIQUE,
    -- Trimmed and lower-cased by the server; NULL for social-only members without
    -- one, and for deleted members.
    email           TEXT,
    nickname        TEXT,
    -- Unicode lower-case of the nickname: the case-insensitive unique key.
    nickname_folded TEXT,
    -- Argon2id PHC string; NULL for social-only members.
    password_hash   TEXT,
    role            TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'operator')),
    premium         BOOLEAN NOT NULL DEFAULT FALSE,
    banned_at       TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    deleted_at      TIMESTAMPTZ,
    CHECK (deleted_at IS NOT NULL OR nickname IS NOT NULL)
);
CREATE UNIQUE INDEX users_email_unique ON users (email);
CREATE UNIQUE INDEX users_nickname_unique ON users (nickname_folded);

-- Social identities (OpenID Connect `sub` per configured provider).
CREATE TABLE user_identities (
    provider   TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- One row per issued token (its `jti`). Times are Unix seconds, as in the token.
CREATE TABLE sessions (
    jti        TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued_at  BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

-- OpenID Connect log-ins in progress, keyed by `state`; single use.
CREATE TABLE oidc_pending (
    state         TEXT PRIMARY KEY,
    provider      TEXT NOT NULL,
    nonce         TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    redirect_uri  TEXT NOT NULL,
    next_path     TEXT NOT NULL,
    intent        TEXT NOT NULL,
    expires_at    BIGINT NOT NULL
);

-- Sign-up and link tickets handed to the web app after a social log-in; the key is
-- the SHA-256 of the ticket, so the table alone cannot be replayed.
CREATE TABLE oidc_tickets (
    ticket_hash TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('signup', 'link')),
    provider    TEXT NOT NULL,
    subject     TEXT NOT NULL,
    email       TEXT,
    next_path   TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);
