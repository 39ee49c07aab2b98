//! The frames of the live stream (docs/stream.md): what a client sends
//! ([`ClientFrame`]), the server's answers ([`ServerFrame`]) and the frames areas
//! publish on their topics ([`PushFrame`]). JSON text frames, tagged by `op`.

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};

/// A frame from the client.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum ClientFrame {
    /// `{"op":"subscribe","topics":[…]}`
    Subscribe { topics: Vec<String> },
    /// `{"op":"unsubscribe","topics":[…]}`
    Unsubscribe { topics: Vec<String> },
    /// `{"op":"ping"}`
    Ping,
    /// `{"op":"auth","token":"<token>"}`: the socket acts for the token's member.
    Auth { token: String },
}

/// A frame the server sends in answer to the client, or about the connection.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum ServerFrame {
    /// The topics now subscribed, of those asked for.
    Subscribed { topics: Vec<String> },
    /// The topics asked to be dropped.
    Unsubscribed { topics: Vec<String> },
    /// The answer to a ping.
    Pong,
    /// The socket now acts for this member.
    Authed { member: i64 },
    /// Frames of `topic` were lost because the client read too slowly: `last_seq` is
    /// the last `seq` of the topic this socket was sent (0 when none); re-fetch.
    Gap { topic: String, last_seq: u64 },
    /// Something the client sent was refused; `code` is stable, `message` is for people.
    Error { code: String, message: String },
}

impl ServerFrame {
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self::Error {
            code: code.to_owned(),
            message: message.into(),
        }
    }

    /// The frame as JSON text.
    pub fn text(&self) -> Utf8Bytes {
        serde_json::to_string(self)
            .expect("server frames serialise")
            .into()
    }
}

/// A frame published on a topic: `{"op":…,"topic":…,"seq":…,"data":…}`. `op` names
/// the kind of data (`quote`, `event`).
#[derive(Debug, Serialize)]
pub struct PushFrame<'a, T: Serialize> {
    pub op: &'a str,
    pub topic: &'a str,
    pub seq: u64,
    pub data: T,
}

impl<T: Serialize> PushFrame<'_, T> {
    /// The frame as JSON text.
    pub fn text(&self) -> Utf8Bytes {
        serde_json::to_string(self)
            .expect("push frames serialise")
            .into()
    }
}

/// Why the server closed an authenticated socket: a WebSocket close code and reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Revocation {
    /// Logged out, password changed, the token expired or its session was revoked.
    SessionEnded,
    /// The member was banned.
    Banned,
    /// The member deleted the account.
    Deleted,
}

/// Close code of a socket whose session ended (log-out, password change, expiry,
/// account deletion): log in again before reconnecting with a token.
pub const CLOSE_SESSION_ENDED: u16 = 4401;
/// Close code of a socket whose member was banned: do not reconnect with the token.
pub const CLOSE_BANNED: u16 = 4403;
/// Close code for a policy violation (RFC 6455 §7.4.1): too many messages or errors.
pub const CLOSE_POLICY_VIOLATION: u16 = 1008;

impl Revocation {
    /// The close code and reason sent.
    pub fn close(self) -> (u16, &'static str) {
        match self {
            Self::SessionEnded => (CLOSE_SESSION_ENDED, "session ended"),
            Self::Deleted => (CLOSE_SESSION_ENDED, "account deleted"),
            Self::Banned => (CLOSE_BANNED, "banned"),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn json_of(frame: Utf8Bytes) -> Value {
        serde_json::from_str(frame.as_str()).unwrap()
    }

    #[test]
    fn server_frames_have_the_documented_shape() {
        let cases = [
            (
                ServerFrame::Subscribed {
                    topics: vec!["quote:KRX:005930".into()],
                },
                json!({"op": "subscribed", "topics": ["quote:KRX:005930"]}),
            ),
            (
                ServerFrame::Unsubscribed { topics: vec![] },
                json!({"op": "unsubscribed", "topics": []}),
            ),
            (ServerFrame::Pong, json!({"op": "pong"})),
            (
                ServerFrame::Authed { member: 7 },
                json!({"op": "authed", "member": 7}),
            ),
            (
                ServerFrame::Gap {
                    topic: "member:7:account".into(),
                    last_seq: 12,
                },
                json!({"op": "gap", "topic": "member:7:account", "last_seq": 12}),
            ),
            (
                ServerFrame::error("forbidden", "no"),
                json!({"op": "error", "code": "forbidden", "message": "no"}),
            ),
        ];
        for (frame, want) in cases {
            assert_eq!(json_of(frame.text()), want);
        }
    }

    #[test]
    fn push_frames_carry_op_topic_seq_and_data() {
        let frame = PushFrame {
            op: "event",
            topic: "member:7:account",
            seq: 3,
            data: json!({"kind": "account_changed"}),
        };
        assert_eq!(
            json_of(frame.text()),
            json!({"op": "event", "topic": "member:7:account", "seq": 3,
                   "data": {"kind": "account_changed"}})
        );
    }

    #[test]
    fn client_frames_parse_by_op_and_refuse_the_rest() {
        let ok = [
            (
                r#"{"op":"subscribe","topics":["a"]}"#,
                ClientFrame::Subscribe {
                    topics: vec!["a".into()],
                },
            ),
            (
                r#"{"op":"unsubscribe","topics":[]}"#,
                ClientFrame::Unsubscribe { topics: vec![] },
            ),
            (r#"{"op":"ping"}"#, ClientFrame::Ping),
            (
                r#"{"op":"auth","token":"t"}"#,
                ClientFrame::Auth { token: "t".into() },
            ),
        ];
        for (text, want) in ok {
            assert_eq!(serde_json::from_str::<ClientFrame>(text).unwrap(), want);
        }
        for bad in [
            r#"{"op":"auth"}"#,
            r#"{"op":"dance"}"#,
            "[]",
            r#"{"op":"AUTH","token":"t"}"#,
        ] {
            assert!(serde_json::from_str::<ClientFrame>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn revocations_close_with_the_documented_codes() {
        assert_eq!(Revocation::SessionEnded.close(), (4401, "session ended"));
        assert_eq!(Revocation::Deleted.close(), (4401, "account deleted"));
        assert_eq!(Revocation::Banned.close(), (4403, "banned"));
    }
}
