//! The market area's pages and their link-preview cards; a stock's card names the
//! instrument and its price, formatted as the app writes it.

use std::time::Duration;

use axum::{
    extract::{Path, Request, State},
    http::StatusCode,
    response::{IntoResponse, Redirect, Response},
};
use futures_util::future::BoxFuture;
use moat_market::{Exchange, Instrument, InstrumentId, Kind, Quote};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::{
    http::pages::{percent_decode, trim, Card, Lang, PageRoute, Text, NOT_FOUND},
    AppState,
};

/// A stock's page; its card names the instrument and its price.
pub const STOCK: &str = "/stocks/{id}";

/// How long a link preview waits for a price from a real provider before it is
/// rendered without one (the simulator answers at once).
const STOCK_QUOTE_WAIT: Duration = Duration::from_secs(2);

/// The market area's pages and their link-preview cards.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: STOCK,
        title: Text {
            ko: "종목 — Moat",
            en: "Stock — Moat",
        },
        description: Text {
            ko: "종목의 실시간 시세, 차트, 주요 지표.",
            en: "Live price, chart and key figures.",
        },
        noindex: false,
        lookup: Some(stock_card),
        replay_styles: false,
    },
    PageRoute {
        path: "/search",
        title: Text {
            ko: "종목 검색 — Moat",
            en: "Search stocks — Moat",
        },
        description: Text {
            ko: "한국·미국 주식, ETF, 지수를 이름·티커·초성으로 찾아보세요.",
            en: "Find Korean and US stocks, ETFs and indices by name or ticker.",
        },
        noindex: false,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/favorites",
        title: Text {
            ko: "관심 종목 — Moat",
            en: "Favourites — Moat",
        },
        description: Text {
            ko: "관심 종목의 실시간 시세를 보고 순서를 바꿉니다.",
            en: "Live prices of your favourite stocks, in the order you choose.",
        },
        noindex: true,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/operator/market",
        title: Text {
            ko: "시세 제공자 — Moat 운영",
            en: "Market data providers — Moat operator",
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

/// The exchanges a bare code is looked up on, in order: a Korean code first (numbers),
/// then the US listings, then the indices (`/stocks/KOSPI`).
const BARE_CODE_EXCHANGES: [Exchange; 4] = [
    Exchange::Krx,
    Exchange::Nasdaq,
    Exchange::Nyse,
    Exchange::Index,
];

/// The route of a stock's page, `GET /stocks/{code}`: a bare code the catalogue knows
/// (`005930`, `aapl`) answers 308 to the canonical page (`/stocks/KRX:005930`), its
/// query kept, so typed and shared links work and link previews follow the redirect;
/// anything else is the web app's page as every other route (the card, or the 404).
pub async fn stock_page(
    State(state): State<AppState>,
    Path(code): Path<String>,
    request: Request,
) -> Response {
    if let Some(id) = bare_code(&state, &code) {
        let query = request
            .uri()
            .query()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        return Redirect::permanent(&format!("/stocks/{id}{query}")).into_response();
    }
    crate::http::assets::serve(State(state), request).await
}

/// The instrument a bare code (no exchange) names, when the catalogue has one.
fn bare_code(state: &AppState, code: &str) -> Option<InstrumentId> {
    if code.contains(':') {
        return None;
    }
    BARE_CODE_EXCHANGES.iter().find_map(|&exchange| {
        let id = InstrumentId::new(exchange, code).ok()?;
        state.market.service.instrument(&id).map(|i| i.id.clone())
    })
}

fn stock_card<'a>(
    state: &'a AppState,
    path: &'a str,
    lang: Lang,
) -> BoxFuture<'a, (Card, StatusCode)> {
    Box::pin(stock_card_async(state, path, lang))
}

/// `/stocks/{id}`: `삼성전자 (005930) ₩71,200 +1.23% — Moat`. The id may carry its colon
/// as `%3A`; exchange and symbol are case-insensitive, as in the API.
async fn stock_card_async(state: &AppState, path: &str, lang: Lang) -> (Card, StatusCode) {
    let raw = percent_decode(trim(path).trim_start_matches("/stocks/"));
    let Some(instrument) = raw
        .parse::<InstrumentId>()
        .ok()
        .and_then(|id| state.market.service.instrument(&id))
    else {
        return (Card::of(&NOT_FOUND, lang), StatusCode::NOT_FOUND);
    };
    // A real provider may be slow or down; the card is then rendered without a price.
    let quote = tokio::time::timeout(STOCK_QUOTE_WAIT, state.market.service.quote(&instrument))
        .await
        .ok()
        .flatten();
    let simulated = state.market.service.is_simulated(&instrument);
    (
        stock_card_of(&instrument, quote.as_ref(), simulated, lang),
        StatusCode::OK,
    )
}

/// The card of an instrument with its quote (if any) in one language.
fn stock_card_of(
    instrument: &Instrument,
    quote: Option<&Quote>,
    simulated: bool,
    lang: Lang,
) -> Card {
    let (name, other) = match lang {
        Lang::Ko => (&instrument.name_ko, &instrument.name_en),
        Lang::En => (&instrument.name_en, &instrument.name_ko),
    };
    let name = if name.is_empty() { other } else { name };
    let ticker = instrument.ticker();
    let priced = quote.map(|q| {
        (
            format_price(q.price, instrument),
            format_percent(q.change_percent()),
        )
    });
    let title = match &priced {
        Some((price, change)) => format!("{name} ({ticker}) {price} {change} — Moat"),
        None => format!("{name} ({ticker}) — Moat"),
    };
    let mut description = match (lang, &priced) {
        (Lang::Ko, Some((price, change))) => format!(
            "{name}({ticker}) 현재가 {price}, 전일 대비 {change}. 실시간 시세, 차트, 주요 지표."
        ),
        (Lang::Ko, None) => format!("{name}({ticker})의 실시간 시세, 차트, 주요 지표."),
        (Lang::En, Some((price, change))) => format!(
            "{name} ({ticker}) at {price}, {change} from the previous close. Live price, chart and key figures."
        ),
        (Lang::En, None) => format!("Live price, chart and key figures of {name} ({ticker})."),
    };
    if simulated && priced.is_some() {
        description.push_str(match lang {
            Lang::Ko => " 모의 시세입니다.",
            Lang::En => " Prices are simulated.",
        });
    }
    Card {
        title,
        description,
        noindex: false,
    }
}

/// A price as the app writes it: money for stocks, ETFs and crypto (`₩71,200`,
/// `$189.43`), a plain number with two decimals for indices and exchange rates
/// (`3,150.00`); rounded half away from zero.
fn format_price(price: Decimal, instrument: &Instrument) -> String {
    let plain = matches!(instrument.kind, Kind::Index | Kind::Currency);
    let (symbol, decimals) = match instrument.currency.as_str() {
        _ if plain => ("", 2),
        "KRW" => ("₩", 0),
        "USD" => ("$", 2),
        _ => ("", 2),
    };
    let number = group_thousands(price, decimals);
    match (plain, symbol) {
        (true, _) => number,
        (false, "") => format!("{} {number}", instrument.currency),
        (false, symbol) => match number.strip_prefix('-') {
            Some(abs) => format!("-{symbol}{abs}"),
            None => format!("{symbol}{number}"),
        },
    }
}

/// A change in per cent with its sign and two decimals (`+1.23%`, `-0.45%`, `0.00%`).
fn format_percent(percent: Decimal) -> String {
    let rounded = percent.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    let text = group_thousands(rounded, 2);
    if rounded.is_sign_positive() && !rounded.is_zero() {
        format!("+{text}%")
    } else if rounded.is_zero() {
        format!("{}%", text.trim_start_matches('-'))
    } else {
        format!("{text}%")
    }
}

/// `decimals` places, rounded half away from zero, with `,` between thousands.
fn group_thousands(value: Decimal, decimals: u32) -> String {
    let rounded = value.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
    let text = format!("{:.*}", decimals as usize, rounded.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut grouped = String::with_capacity(text.len() + int.len() / 3 + 1);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        grouped.push('-');
    }
    for (i, digit) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if let Some(frac) = frac {
        grouped.push('.');
        grouped.push_str(frac);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instrument(
        id: &str,
        kind: Kind,
        currency: &str,
        name_ko: &str,
        name_en: &str,
    ) -> Instrument {
        Instrument {
            id: id.parse().unwrap(),
            kind,
            board: None,
            currency: currency.into(),
            country: String::new(),
            name_ko: name_ko.into(),
            name_en: name_en.into(),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: None,
            popularity: 0,
            aliases: vec![],
        }
    }

    fn quote(id: &str, price: &str, previous_close: &str) -> Quote {
        let price: Decimal = price.parse().unwrap();
        Quote {
            instrument_id: id.parse().unwrap(),
            price,
            previous_close: previous_close.parse().unwrap(),
            open: price,
            high: price,
            low: price,
            volume: 0,
            as_of: chrono::Utc::now(),
            state: moat_market::QuoteState::Live,
            source: "simulator".into(),
            simulated: true,
        }
    }

    #[test]
    fn prices_are_written_like_the_app_writes_them() {
        let samsung = instrument(
            "KRX:005930",
            Kind::Stock,
            "KRW",
            "삼성전자",
            "Samsung Electronics",
        );
        let apple = instrument("NASDAQ:AAPL", Kind::Stock, "USD", "애플", "Apple");
        let kospi = instrument("INDEX:KOSPI", Kind::Index, "KRW", "코스피", "KOSPI");
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(format_price(d("71200"), &samsung), "₩71,200");
        assert_eq!(format_price(d("1234567.5"), &samsung), "₩1,234,568");
        assert_eq!(format_price(d("189.425"), &apple), "$189.43");
        assert_eq!(format_price(d("-0.5"), &apple), "-$0.50");
        assert_eq!(format_price(d("3150"), &kospi), "3,150.00");
        assert_eq!(format_price(d("999.999"), &kospi), "1,000.00");
        assert_eq!(format_percent(d("1.234")), "+1.23%");
        assert_eq!(format_percent(d("-0.455")), "-0.46%");
        assert_eq!(format_percent(d("-0.001")), "0.00%");
        assert_eq!(format_percent(d("0")), "0.00%");
    }

    #[test]
    fn a_stock_card_names_the_instrument_its_ticker_and_price() {
        let samsung = instrument(
            "KRX:005930",
            Kind::Stock,
            "KRW",
            "삼성전자",
            "Samsung Electronics",
        );
        let q = quote("KRX:005930", "72000", "71200");
        let ko = stock_card_of(&samsung, Some(&q), true, Lang::Ko);
        assert_eq!(ko.title, "삼성전자 (005930) ₩72,000 +1.12% — Moat");
        assert!(ko.description.contains("모의 시세"), "{}", ko.description);
        let en = stock_card_of(&samsung, Some(&q), false, Lang::En);
        assert_eq!(
            en.title,
            "Samsung Electronics (005930) ₩72,000 +1.12% — Moat"
        );
        assert!(!en.description.contains("simulated"));
        let none = stock_card_of(&samsung, None, true, Lang::Ko);
        assert_eq!(none.title, "삼성전자 (005930) — Moat");
        let unnamed = instrument("NYSE:XYZ", Kind::Stock, "USD", "", "XYZ Corp");
        assert_eq!(
            stock_card_of(&unnamed, None, false, Lang::Ko).title,
            "XYZ Corp (XYZ) — Moat"
        );
    }
}
