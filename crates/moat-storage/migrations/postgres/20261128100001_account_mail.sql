-- E-mail verification and password reset by e-mail (docs/accounts.md).

-- When the member's current email was proved theirs; NULL until then, and again
-- whenever the email changes or the account is deleted.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMPTZ;

-- Links sent by e-mail. The key is the SHA-256 of the token in the link, so the table
-- alone cannot be replayed; a row is deleted when its link is used (single use).
-- Times are Unix seconds.
CREATE TABLE mail_tokens (
    token_hash TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('verify_email', 'reset_password')),
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The address the link was sent to: it proves only that one.
    email      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX mail_tokens_user ON mail_tokens (user_id);
