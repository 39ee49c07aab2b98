//! Topic policies: each area registers one per topic prefix (`quote:`, `member:`).
//! The hub asks it whether a topic exists, who may subscribe, and for the frame to
//! send at once on subscribing (the current state, if the area has one).

use super::{Hub, Pushed};

/// Who may subscribe to a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, logged in or not.
    Public,
    /// Any authenticated socket.
    AnyMember,
    /// Only sockets authenticated as this member (`member:{id}:…`).
    Member(i64),
}

impl Access {
    /// Whether a socket acting for `member` (`None`: a visitor) may subscribe.
    pub fn allows(self, member: Option<i64>) -> bool {
        match self {
            Self::Public => true,
            Self::AnyMember => member.is_some(),
            Self::Member(id) => member == Some(id),
        }
    }
}

/// An area's rules for the topics under its prefix.
#[async_trait::async_trait]
pub trait TopicPolicy: Send + Sync {
    /// Who may subscribe to `topic` (which starts with the registered prefix), or
    /// `None` when there is no such topic (`unknown_topic`).
    fn access(&self, topic: &str) -> Option<Access>;

    /// The frame sent at once to a new subscriber (made with [`Hub::current`], so that
    /// it carries the topic's latest `seq`), if the topic has a current state.
    async fn snapshot(&self, _topic: &str, _hub: &Hub) -> Option<Pushed> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Access;

    #[test]
    fn access_by_identity() {
        assert!(Access::Public.allows(None));
        assert!(Access::Public.allows(Some(1)));
        assert!(!Access::AnyMember.allows(None));
        assert!(Access::AnyMember.allows(Some(1)));
        assert!(Access::Member(1).allows(Some(1)));
        assert!(!Access::Member(1).allows(Some(2)));
        assert!(!Access::Member(1).allows(None));
    }
}
