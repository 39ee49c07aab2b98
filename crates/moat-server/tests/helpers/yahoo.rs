//! A stand-in for Yahoo's chart API, for tests of a real quote provider.

use std::sync::{
    atomic::{AtomicU16, AtomicU64, Ordering},
    Arc,
};

/// A stand-in for Yahoo's chart API on 127.0.0.1: answers chart requests with
/// [`chart_of`] while `status` is 200, else with that status.
pub struct FakeYahoo {
    pub url: String,
    status: Arc<AtomicU16>,
    /// Chart requests answered so far.
    pub requests: Arc<AtomicU64>,
}

/// A 5-day daily chart of AAPL, as Yahoo shapes it: the week of 2026-11-16, last
/// price 189.43 at Friday's close, and a dividend of $0.26 going ex on the Tuesday.
pub const AAPL_CHART: &str = r#"{"chart":{"result":[{"meta":{"currency":"USD","symbol":"AAPL",
  "exchangeName":"NMS","instrumentType":"EQUITY","regularMarketTime":1795208400,
  "gmtoffset":-18000,"timezone":"EST","exchangeTimezoneName":"America/New_York",
  "regularMarketPrice":189.43,"regularMarketDayHigh":190.12,"regularMarketDayLow":186.5,
  "regularMarketVolume":51234567,"chartPreviousClose":185.0,"previousClose":187.1,
  "priceHint":2,"dataGranularity":"1d"},
  "timestamp":[1794839400,1794925800,1795012200,1795098600,1795185000],
  "indicators":{"quote":[{"open":[185.2,186.0,185.9,187.0,187.3],
    "high":[186.9,187.4,187.8,188.2,190.12],"low":[184.7,185.1,185.3,186.4,186.5],
    "close":[186.1,185.95,186.8,187.1,189.43],
    "volume":[48000000,47100000,45200000,50300000,51234567]}]},
  "events":{"dividends":{"1794925800":{"amount":0.26,"date":1794925800}}}}],"error":null}}"#;

/// [`AAPL_CHART`] for every symbol, with other last prices for MSFT (unchanged from
/// the previous close, 187.10) and NVDA (10 % up).
pub fn chart_of(symbol: &str) -> String {
    let price = match symbol {
        "MSFT" => "187.1",
        "NVDA" => "205.81",
        _ => "189.43",
    };
    AAPL_CHART.replace(
        "\"regularMarketPrice\":189.43",
        &format!("\"regularMarketPrice\":{price}"),
    )
}

impl FakeYahoo {
    pub async fn start() -> Self {
        use axum::{extract::Path, http::StatusCode, response::IntoResponse, routing::get, Router};
        let status = Arc::new(AtomicU16::new(200));
        let requests = Arc::new(AtomicU64::new(0));
        let (answer, counter) = (status.clone(), requests.clone());
        let router = Router::new().route(
            "/v8/finance/chart/{symbol}",
            get(move |Path(symbol): Path<String>| {
                let status = answer.load(Ordering::SeqCst);
                counter.fetch_add(1, Ordering::SeqCst);
                async move {
                    match status {
                        200 => ([("content-type", "application/json")], chart_of(&symbol))
                            .into_response(),
                        429 => (
                            StatusCode::TOO_MANY_REQUESTS,
                            [("retry-after", "120")],
                            "Too Many Requests",
                        )
                            .into_response(),
                        s => (StatusCode::from_u16(s).unwrap(), "Internal Server Error")
                            .into_response(),
                    }
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self {
            url,
            status,
            requests,
        }
    }

    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }
}
