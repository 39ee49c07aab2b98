//! The news area's pages and their link-preview cards; an article's card carries its
//! title, outlet and summary.

use axum::http::StatusCode;
use futures_util::future::BoxFuture;

use crate::{
    http::pages::{trim, Card, Lang, PageRoute, Text, NOT_FOUND},
    AppState,
};

/// An article's page.
pub const ARTICLE: &str = "/news/{id}";
/// The longest description of an article's card, in characters.
pub const CARD_DESCRIPTION_CHARS: usize = 160;

/// The news area's pages and their link-preview cards.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: "/news",
        title: Text {
            ko: "뉴스 — Moat",
            en: "News — Moat",
        },
        description: Text {
            ko: "국내·해외 증시 뉴스와 공시를 종목별로 모아 봅니다.",
            en: "Korean and US market news and filings, linked to the stocks they name.",
        },
        noindex: false,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/news/search",
        title: Text {
            ko: "뉴스 검색 — Moat",
            en: "Search news — Moat",
        },
        description: Text {
            ko: "종목명, 키워드로 국내·해외 증시 뉴스를 검색하세요.",
            en: "Search Korean and US market news by company or keyword.",
        },
        noindex: false,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: ARTICLE,
        title: Text {
            ko: "뉴스 — Moat",
            en: "News — Moat",
        },
        description: Text {
            ko: "증시 뉴스와 관련 종목의 실시간 시세.",
            en: "Market news with live prices of the stocks it names.",
        },
        noindex: false,
        lookup: Some(article_card),
        replay_styles: false,
    },
    PageRoute {
        path: "/operator/news",
        title: Text {
            ko: "뉴스 피드 — Moat 운영",
            en: "News feeds — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 뉴스 피드 추가, 수정, 상태.",
            en: "Operator console: add, edit and watch news feeds.",
        },
        noindex: true,
        lookup: None,
        // A page of the operator console, which may replay a session in place.
        replay_styles: true,
    },
];

fn article_card<'a>(
    state: &'a AppState,
    path: &'a str,
    lang: Lang,
) -> BoxFuture<'a, (Card, StatusCode)> {
    Box::pin(article_card_async(state, path, lang))
}

/// `/news/{id}`: `<title> — <outlet> | Moat`, the summary as its description.
async fn article_card_async(state: &AppState, path: &str, lang: Lang) -> (Card, StatusCode) {
    let not_found = || (Card::of(&NOT_FOUND, lang), StatusCode::NOT_FOUND);
    let Some(id) = trim(path)
        .strip_prefix("/news/")
        .and_then(|s| s.parse::<i64>().ok())
        .filter(|id| *id > 0)
    else {
        return not_found();
    };
    match state.news.service.storage.get_article(id).await {
        Ok(row) => (
            card_of(&row.title, &row.source_name, &row.summary, lang),
            StatusCode::OK,
        ),
        Err(moat_storage::StorageError::NotFound) => not_found(),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read an article for its card");
            (Card::of(&PAGES[2], lang), StatusCode::OK)
        }
    }
}

/// An article's card.
pub fn card_of(title: &str, source: &str, summary: &str, lang: Lang) -> Card {
    let mut description: String = summary.chars().take(CARD_DESCRIPTION_CHARS).collect();
    if summary.chars().count() > CARD_DESCRIPTION_CHARS {
        description.push('…');
    }
    if description.is_empty() {
        description = match lang {
            Lang::Ko => format!("{source}의 기사. 관련 종목의 실시간 시세와 함께 봅니다."),
            Lang::En => format!("A story from {source}, with live prices of the stocks it names."),
        };
    }
    Card {
        title: format!("{title} — {source} | Moat"),
        description,
        noindex: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_summary_is_cut_with_an_ellipsis() {
        let card = card_of(
            "삼성전자, 3분기 실적 발표",
            "한국경제",
            &"가".repeat(300),
            Lang::Ko,
        );
        assert_eq!(card.title, "삼성전자, 3분기 실적 발표 — 한국경제 | Moat");
        assert_eq!(card.description.chars().count(), CARD_DESCRIPTION_CHARS + 1);
        assert!(card.description.ends_with('…'));
        let empty = card_of("Apple earnings", "SEC", "", Lang::En);
        assert!(empty.description.contains("SEC"));
    }
}
