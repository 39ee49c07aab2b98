//! The private topics of the live stream (crate::hub, docs/stream.md):
//! `member:{id}:{area}` is member `id`'s alone. Accounts publishes
//! `member:{id}:account` when the account changes, so that the web app refetches
//! `/api/me`; other areas add their own `{area}` later (notifications, messages).

use std::sync::Arc;

use serde::Serialize;

use crate::hub::{Access, Hub, TopicPolicy};

/// Prefix of the private topics.
pub const MEMBER_TOPIC: &str = "member:";
/// The areas with a private topic: `member:{id}:{area}`.
pub const MEMBER_AREAS: &[&str] = &["account"];
/// The `op` of the frames on private topics.
pub const EVENT_OP: &str = "event";

/// The private topic of `area` for `member`.
pub fn member_topic(member: i64, area: &str) -> String {
    format!("{MEMBER_TOPIC}{member}:{area}")
}

/// The `member:` topics: `member:{id}:{area}` for a known area, only for member `id`.
pub struct MemberTopics;

#[async_trait::async_trait]
impl TopicPolicy for MemberTopics {
    fn access(&self, topic: &str) -> Option<Access> {
        let (id, area) = topic.strip_prefix(MEMBER_TOPIC)?.split_once(':')?;
        // Canonical ids only ("7", not "07" or "+7"): one topic per member and area.
        let member: i64 = id.parse().ok()?;
        (member.to_string() == id && MEMBER_AREAS.contains(&area)).then_some(Access::Member(member))
    }
}

/// Registers the `member:` topics on the hub.
pub fn register(hub: &Hub) {
    hub.register(MEMBER_TOPIC, Arc::new(MemberTopics));
}

/// The data of an event on `member:{id}:account`.
#[derive(Debug, Serialize)]
pub struct AccountEvent {
    /// `account_changed`: refetch `/api/me`.
    pub kind: &'static str,
}

/// Tells the member's sockets that their account changed (profile, premium, password).
pub fn account_changed(hub: &Hub, member: i64) {
    hub.publish(
        &member_topic(member, "account"),
        EVENT_OP,
        &AccountEvent {
            kind: "account_changed",
        },
    );
}

/// Moves the sockets of session `old` to the session of `token` (issued to replace it).
pub fn session_renewed(state: &crate::accounts::AccountsState, old: &str, token: &str) {
    if let Ok(claims) = state.auth.keys.verify(token, state.auth.now()) {
        state.hub.renew_session(old, &claims.jti);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_topics_are_their_members_alone() {
        let p = MemberTopics;
        assert_eq!(p.access("member:7:account"), Some(Access::Member(7)));
        for bad in [
            "member:7:nope",
            "member:7",
            "member::account",
            "member:07:account",
            "member:+7:account",
            "member:x:account",
            "member:7:account:more",
        ] {
            assert_eq!(p.access(bad), None, "{bad}");
        }
    }
}
