//! The accounts' pages and their link-preview cards; a member's profile card names the
//! member.

use axum::http::StatusCode;
use futures_util::future::BoxFuture;

use crate::{
    http::pages::{percent_decode, trim, Card, Lang, PageRoute, Text, NOT_FOUND},
    AppState,
};

/// The public profile route; its card names the member.
pub const MEMBER_PROFILE: &str = "/u/{nickname}";

/// The accounts area's pages and their link-preview cards.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: "/login",
        title: Text {
            ko: "로그인 — Moat",
            en: "Log in — Moat",
        },
        description: Text {
            ko: "이메일 또는 카카오·네이버·구글·애플 계정으로 Moat에 로그인하세요.",
            en: "Log in to Moat with your email or a Kakao, Naver, Google or Apple account.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/signup",
        title: Text {
            ko: "회원가입 — Moat",
            en: "Sign up — Moat",
        },
        description: Text {
            ko: "Moat 계정을 만들고 포트폴리오, 배당, 커뮤니티를 한곳에서 관리하세요.",
            en: "Create a Moat account for your portfolios, dividends and community in one place.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/signup/social",
        title: Text {
            ko: "닉네임 정하기 — Moat",
            en: "Choose a nickname — Moat",
        },
        description: Text {
            ko: "소셜 계정으로 가입을 마치려면 닉네임을 정하세요.",
            en: "Choose a nickname to finish signing up with your social account.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/forgot-password",
        title: Text {
            ko: "비밀번호 찾기 — Moat",
            en: "Forgot your password — Moat",
        },
        description: Text {
            ko: "가입한 이메일로 비밀번호 재설정 링크를 받으세요.",
            en: "Get a link to reset your password at the email you signed up with.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/reset-password",
        title: Text {
            ko: "새 비밀번호 정하기 — Moat",
            en: "Choose a new password — Moat",
        },
        description: Text {
            ko: "메일로 받은 링크로 새 비밀번호를 정하세요.",
            en: "Choose a new password with the link from your mail.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/verify-email",
        title: Text {
            ko: "이메일 확인 — Moat",
            en: "Confirm your email — Moat",
        },
        description: Text {
            ko: "Moat 계정의 이메일 주소를 확인합니다.",
            en: "Confirms the email address of your Moat account.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/auth/complete",
        title: Text {
            ko: "로그인 중 — Moat",
            en: "Logging in — Moat",
        },
        description: Text {
            ko: "로그인을 마무리하는 중입니다.",
            en: "Finishing your log-in.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/settings/account",
        title: Text {
            ko: "계정 설정 — Moat",
            en: "Account settings — Moat",
        },
        description: Text {
            ko: "닉네임, 비밀번호, 내 데이터 내보내기와 회원 탈퇴.",
            en: "Nickname, password, exporting your data and deleting your account.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: MEMBER_PROFILE,
        title: Text {
            ko: "회원 프로필 — Moat",
            en: "Member profile — Moat",
        },
        description: Text {
            ko: "Moat 회원의 프로필.",
            en: "A Moat member's profile.",
        },
        noindex: false,
        lookup: Some(profile_card),
        replay_styles: false,
    },
];

/// A member's profile names the member; an unknown, banned or deleted member is a
/// 404; a database failure falls back to the generic profile card.
fn profile_card<'a>(
    state: &'a AppState,
    path: &'a str,
    lang: Lang,
) -> BoxFuture<'a, (Card, StatusCode)> {
    Box::pin(async move {
        let nickname = percent_decode(trim(path).trim_start_matches("/u/"));
        match crate::accounts::service::public_profile(&state.accounts, &nickname).await {
            Ok(Some(profile)) => {
                let n = &profile.nickname;
                let card = match lang {
                    Lang::Ko => Card {
                        title: format!("{n} — Moat"),
                        description: format!("Moat 회원 {n}님의 프로필."),
                        noindex: false,
                    },
                    Lang::En => Card {
                        title: format!("{n} — Moat"),
                        description: format!("{n}'s profile on Moat."),
                        noindex: false,
                    },
                };
                (card, StatusCode::OK)
            }
            Ok(None) => (Card::of(&NOT_FOUND, lang), StatusCode::NOT_FOUND),
            Err(_) => (Card::of(profile_page(), lang), StatusCode::OK),
        }
    })
}

fn profile_page() -> &'static PageRoute {
    PAGES
        .iter()
        .find(|p| p.path == MEMBER_PROFILE)
        .expect("the profile page is listed")
}
