//! Email and nickname rules (docs/accounts.md, "Members").

use crate::http::error::{ErrorCode, FieldError};

/// Shortest nickname, in characters.
pub const NICKNAME_MIN_CHARS: usize = 2;
/// Longest nickname, in characters.
pub const NICKNAME_MAX_CHARS: usize = 20;
/// Longest email address.
pub const EMAIL_MAX_BYTES: usize = 254;

/// Nicknames nobody may take (compared case-insensitively).
pub const RESERVED_NICKNAMES: &[&str] = &[
    "admin",
    "administrator",
    "moat",
    "operator",
    "root",
    "system",
    "support",
    "staff",
    "moderator",
    "official",
    "help",
    "security",
    "anonymous",
    "deleted",
    "null",
    "undefined",
    "me",
    "운영자",
    "관리자",
    "운영진",
    "관리인",
    "모트",
    "고객센터",
    "공지",
    "탈퇴회원",
    "알수없음",
];

/// Trimmed and lower-cased.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// What is wrong with a normalised email, if anything.
pub fn check_email(email: &str) -> Option<FieldError> {
    if email.is_empty() {
        return Some(FieldError::new(
            ErrorCode::Required,
            "Enter your email address.",
        ));
    }
    if email.len() > EMAIL_MAX_BYTES {
        return Some(
            FieldError::new(
                ErrorCode::EmailInvalid,
                format!("An email address has at most {EMAIL_MAX_BYTES} characters."),
            )
            .param("max", EMAIL_MAX_BYTES),
        );
    }
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && local.len() <= 64
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
                && email
                    .chars()
                    .all(|c| !c.is_whitespace() && !c.is_control() && !"<>()[],;:\\\"".contains(c))
        }
        None => false,
    };
    (!valid).then(|| {
        FieldError::new(
            ErrorCode::EmailInvalid,
            "Enter a valid email address, like name@example.com.",
        )
    })
}

/// The case-insensitive key of a nickname (Unicode lower case).
pub fn fold_nickname(nickname: &str) -> String {
    nickname.to_lowercase()
}

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// Which rule a nickname breaks, if any.
pub fn check_nickname(nickname: &str) -> Option<FieldError> {
    let n = nickname.chars().count();
    if !(NICKNAME_MIN_CHARS..=NICKNAME_MAX_CHARS).contains(&n) {
        return Some(
            FieldError::new(
                ErrorCode::NicknameLength,
                format!("A nickname has {NICKNAME_MIN_CHARS} to {NICKNAME_MAX_CHARS} characters."),
            )
            .param("min", NICKNAME_MIN_CHARS)
            .param("max", NICKNAME_MAX_CHARS),
        );
    }
    if !nickname.chars().all(allowed) {
        return Some(FieldError::new(
            ErrorCode::NicknameCharacters,
            "Use only Hangul, Latin letters, digits and _.",
        ));
    }
    let folded = fold_nickname(nickname);
    if RESERVED_NICKNAMES.iter().any(|r| *r == folded) {
        return Some(FieldError::new(
            ErrorCode::NicknameReserved,
            "This nickname is reserved; choose another.",
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(normalize_email("  Ant@Moat.Example "), "ant@moat.example");
        assert_eq!(check_email("ant@moat.example"), None);
        for bad in [
            "",
            "ant",
            "ant@",
            "@moat.example",
            "a@b",
            "a b@c.d",
            "a@b..c",
            "a@@b.c",
        ] {
            assert!(check_email(bad).is_some(), "{bad:?}");
        }
        assert!(check_email(&format!("{}@x.io", "a".repeat(250))).is_some());
    }

    #[test]
    fn nicknames_follow_the_rules() {
        for ok in [
            "개미",
            "ant_1",
            "Moat_Fan",
            "가나다라마바사아자차카타파하가나다라마바",
        ] {
            assert_eq!(check_nickname(ok), None, "{ok}");
        }
        for bad in [
            "a",
            "ㄱㄴ",
            "개미 1",
            "ant-1",
            "ant!",
            "admin",
            "ADMIN",
            "운영자",
            "é_ok",
        ] {
            assert!(check_nickname(bad).is_some(), "{bad}");
        }
        assert!(check_nickname(&"가".repeat(21)).is_some());
        assert_eq!(fold_nickname("AnT"), "ant");
    }
}
