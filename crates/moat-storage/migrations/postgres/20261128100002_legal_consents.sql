-- The terms and the privacy policy, versioned, and each member's consent to them
-- (docs/accounts.md). A new version is a new row; members accept it at their next
-- log-in.
CREATE TABLE legal_documents (
    kind         TEXT NOT NULL CHECK (kind IN ('terms', 'privacy')),
    version      BIGINT NOT NULL CHECK (version > 0),
    body         TEXT NOT NULL,
    published_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (kind, version)
);

-- A member's acceptance of one version of one document; deleted with the account.
CREATE TABLE consents (
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('terms', 'privacy')),
    version     BIGINT NOT NULL,
    accepted_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, kind, version)
);
