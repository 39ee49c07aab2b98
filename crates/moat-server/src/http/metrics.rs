//! `GET /metrics`: the server's own figures in Prometheus' text format (version
//! 0.0.4), for a scraper. Aggregates only: no member, portfolio or request is named.
//! Today: the portfolio area's derived-results cache (portfolio::derived) — lookups by
//! kind and outcome, the hit rate since start, its entries, weight and bound.

use std::fmt::Write;

use axum::{extract::State, http::header, response::IntoResponse};

use crate::AppState;

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The server's figures.
#[utoipa::path(get, path = "/metrics", tag = "ops", responses(
    (status = 200, description = "Prometheus text exposition format 0.0.4", content_type = "text/plain"),
))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, CONTENT_TYPE)], render(&state))
}

fn render(state: &AppState) -> String {
    let stats = state.portfolio.derived.stats();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# HELP moat_portfolio_cache_lookups_total Derived portfolio results (daily value series, ledgers, instruments' daily closes, finished performance replies) looked up in the cache, by outcome: hit, extended (kept, then carried on by newly settled days) or miss (computed)."
    );
    let _ = writeln!(out, "# TYPE moat_portfolio_cache_lookups_total counter");
    let kinds = [
        ("series", stats.series),
        ("ledger", stats.ledgers),
        ("closes", stats.closes),
        ("reply", stats.replies),
    ];
    for (kind, counts) in kinds {
        for (outcome, n) in ["hit", "extended", "miss"].iter().zip(counts) {
            let _ = writeln!(
                out,
                "moat_portfolio_cache_lookups_total{{kind=\"{kind}\",outcome=\"{outcome}\"}} {n}"
            );
        }
    }
    let _ = writeln!(
        out,
        "# HELP moat_portfolio_cache_hit_ratio Lookups served from the cache (hits and extensions) over all lookups since start; 0 before any."
    );
    let _ = writeln!(out, "# TYPE moat_portfolio_cache_hit_ratio gauge");
    for (kind, [hits, extended, misses]) in kinds {
        let all = hits + extended + misses;
        let ratio = if all == 0 {
            0.0
        } else {
            (hits + extended) as f64 / all as f64
        };
        let _ = writeln!(
            out,
            "moat_portfolio_cache_hit_ratio{{kind=\"{kind}\"}} {ratio}"
        );
    }
    for (name, help, value) in [
        (
            "moat_portfolio_cache_entries",
            "Entries the derived-results cache holds.",
            stats.entries,
        ),
        (
            "moat_portfolio_cache_bytes",
            "Estimated bytes the derived-results cache holds.",
            stats.weight_bytes,
        ),
        (
            "moat_portfolio_cache_capacity_bytes",
            "The derived-results cache's bound ([portfolio] derived_cache_mb).",
            stats.capacity_bytes,
        ),
    ] {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} gauge");
        let _ = writeln!(out, "{name} {value}");
    }
    out
}
