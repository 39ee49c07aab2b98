//! The texts of the accounts' mails, in Korean and English. Plain text: the link on a
//! line of its own, so every mail program makes it clickable.

use super::dto::MailLanguage;
use crate::mail::Mail;

/// The password-reset mail to `to`, with its link.
pub fn password_reset(language: MailLanguage, to: &str, link: &str) -> Mail {
    let (subject, body) = match language {
        MailLanguage::Ko => (
            "[Moat] 비밀번호 재설정",
            format!(
                "Moat 비밀번호를 새로 정하려면 아래 링크를 여세요. 링크는 30분 동안, 한 번만 쓸 수 있습니다.\n\n\
                 {link}\n\n\
                 비밀번호 재설정을 요청하지 않으셨다면 이 메일을 무시하세요. 비밀번호는 바뀌지 않습니다.\n"
            ),
        ),
        MailLanguage::En => (
            "[Moat] Reset your password",
            format!(
                "Open the link below to choose a new Moat password. It works once, for 30 minutes.\n\n\
                 {link}\n\n\
                 If you did not ask for this, ignore this mail: your password stays as it is.\n"
            ),
        ),
    };
    Mail {
        to: to.to_owned(),
        subject: subject.to_owned(),
        body,
    }
}

/// The mail that verifies `to` is the member's, with its link.
pub fn verify_email(language: MailLanguage, to: &str, link: &str) -> Mail {
    let (subject, body) = match language {
        MailLanguage::Ko => (
            "[Moat] 이메일 주소 확인",
            format!(
                "Moat 계정의 이메일 주소를 확인하려면 아래 링크를 여세요. 링크는 30분 동안, 한 번만 쓸 수 있습니다.\n\n\
                 {link}\n\n\
                 Moat에 가입하지 않으셨다면 이 메일을 무시하세요.\n"
            ),
        ),
        MailLanguage::En => (
            "[Moat] Confirm your email address",
            format!(
                "Open the link below to confirm the email address of your Moat account. It works once, for 30 minutes.\n\n\
                 {link}\n\n\
                 If you did not sign up for Moat, ignore this mail.\n"
            ),
        ),
    };
    Mail {
        to: to.to_owned(),
        subject: subject.to_owned(),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mail_carries_its_link_on_a_line_of_its_own_in_both_languages() {
        let link = "https://moat.example/reset-password#token=abc";
        for lang in [MailLanguage::Ko, MailLanguage::En] {
            for mail in [
                password_reset(lang, "a@x.io", link),
                verify_email(lang, "a@x.io", link),
            ] {
                assert!(mail.body.lines().any(|l| l == link), "{mail:?}");
                assert_eq!(mail.to, "a@x.io");
                assert!(mail.subject.starts_with("[Moat]"));
            }
        }
    }
}
