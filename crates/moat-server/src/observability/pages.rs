//! The observability area's operator pages (sessions, errors, feedback, vitals, traces)
//! and their link-preview cards.

use crate::http::pages::{PageRoute, Text};

/// The observability area's pages and their link-preview cards.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: "/operator/sessions",
        title: Text {
            ko: "세션 — Moat 운영",
            en: "Sessions — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/sessions/{id}",
        title: Text {
            ko: "세션 재생 — Moat 운영",
            en: "Session replay — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/errors",
        title: Text {
            ko: "오류 — Moat 운영",
            en: "Errors — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/errors/{id}",
        title: Text {
            ko: "오류 그룹 — Moat 운영",
            en: "Error group — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/feedback",
        title: Text {
            ko: "의견 — Moat 운영",
            en: "Feedback — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/vitals",
        title: Text {
            ko: "웹 바이탈 — Moat 운영",
            en: "Web vitals — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/traces",
        title: Text {
            ko: "트레이스 — Moat 운영",
            en: "Traces — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
    PageRoute {
        path: "/operator/traces/{id}",
        title: Text {
            ko: "트레이스 — Moat 운영",
            en: "Trace — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
        lookup: None,
        replay_styles: true,
    },
];
