//! The portfolio area's pages (portfolios, transactions, imports, dividends) and their
//! link-preview cards.

use crate::http::pages::{PageRoute, Text};

/// The portfolio area's pages and their link-preview cards.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: "/portfolios",
        title: Text {
            ko: "포트폴리오 — Moat",
            en: "Portfolios — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/portfolios/{id}",
        title: Text {
            ko: "포트폴리오 — Moat",
            en: "Portfolio — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/portfolios/{id}/transactions/new",
        title: Text {
            ko: "거래 추가 — Moat",
            en: "Add a transaction — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/portfolios/{id}/transactions/{tx}",
        title: Text {
            ko: "거래 수정 — Moat",
            en: "Edit a transaction — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/portfolios/{id}/import",
        title: Text {
            ko: "거래 가져오기 — Moat",
            en: "Import transactions — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/dividends",
        title: Text {
            ko: "배당 캘린더 — Moat",
            en: "Dividend calendar — Moat",
        },
        description: Text {
            ko: "한국·미국 주식의 배당락일과 지급일, 내 배당 예상.",
            en: "Ex-dates and pay dates of Korean and US stocks, and your dividend projection.",
        },
        noindex: false,
        lookup: None,
        replay_styles: false,
    },
];
