//! The European Central Bank's euro foreign exchange reference rates, published each
//! TARGET working day around 16:00 CET:
//! `/stats/eurofxref/eurofxref-daily.xml` (the latest day),
//! `eurofxref-hist-90d.xml` (the last 90 days) and `eurofxref-hist.xml` (since 1999).
//!
//! Each day is `<Cube time="2019-11-29">` holding `<Cube currency="USD" rate="1.0982"/>`
//! elements: units of the currency per one euro. Other pairs are derived:
//!
//! - `EUR`/`X` = rate(X), as published;
//! - `X`/`EUR` = 1 / rate(X);
//! - `X`/`Y` = rate(Y) / rate(X): USD/KRW = (KRW per EUR) / (USD per EUR).
//!
//! Derived rates are computed with full `Decimal` precision and rounded once, at the
//! end, half away from zero, by [`round_rate`]: six significant digits and never
//! fewer than two decimals, so USD/KRW has exactly two (1295.81 / 1.0982 =
//! 1179.9399… → 1179.94). A day without either currency is absent, never filled.
//! Pairs of currencies the ECB does not publish are `Unsupported`.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{Days, NaiveDate, Utc};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use rust_decimal::Decimal;

use super::http::{self, Expect};
use super::{currency_code, round_rate, shorten};
use crate::{FxProvider, FxRate, ProviderError, ProviderKind};

/// Where the ECB lives.
pub const DEFAULT_BASE_URL: &str = "https://www.ecb.europa.eu";

/// The latest day's rates.
pub const DAILY_PATH: &str = "stats/eurofxref/eurofxref-daily.xml";
/// The last 90 days.
pub const HIST_90D_PATH: &str = "stats/eurofxref/eurofxref-hist-90d.xml";
/// Every day since 1999-01-04.
pub const HIST_PATH: &str = "stats/eurofxref/eurofxref-hist.xml";

/// Currencies the ECB publishes or has published reference rates for (with `EUR`).
pub const CURRENCIES: [&str; 43] = [
    "EUR", "USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK",
    "NOK", "TRY", "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR",
    "NZD", "PHP", "SGD", "THB", "ZAR", "HRK", "RUB", "CYP", "EEK", "LTL", "LVL", "MTL", "SIT",
    "SKK", "ROL", "TRL", "GRD",
];

/// One day of reference rates: units of each currency per one euro.
#[derive(Debug, Clone, PartialEq)]
pub struct EcbDay {
    pub date: NaiveDate,
    pub rates: BTreeMap<String, Decimal>,
}

impl EcbDay {
    /// Units of `quote` per one `base` on this day (see the module documentation), or
    /// `None` when either currency is missing.
    pub fn cross(&self, base: &str, quote: &str) -> Option<Decimal> {
        let per_euro = |c: &str| -> Option<Decimal> {
            if c == "EUR" {
                Some(Decimal::ONE)
            } else {
                self.rates.get(c).copied().filter(|r| !r.is_zero())
            }
        };
        let (b, q) = (per_euro(base)?, per_euro(quote)?);
        if base == "EUR" {
            return Some(q);
        }
        q.checked_div(b).map(round_rate)
    }
}

/// Parses any of the reference-rate files into days, oldest first (the files list the
/// newest first). Text that is not such a file (HTML, JSON, an empty envelope) is
/// `Malformed`.
pub fn parse_reference_rates(body: &[u8]) -> Result<Vec<EcbDay>, ProviderError> {
    let mut reader = Reader::from_reader(body);
    reader.config_mut().trim_text(true);
    let mut buf = Vec::new();
    let mut days: Vec<EcbDay> = Vec::new();
    let mut saw_cube = false;
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            ProviderError::Malformed(format!("not ECB XML: {}", shorten(&e.to_string(), 120)))
        })?;
        match event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"Cube" => {
                saw_cube = true;
                read_cube(&e, &mut days)?;
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !saw_cube {
        return Err(ProviderError::Malformed(
            "not ECB reference rates (no Cube)".into(),
        ));
    }
    days.sort_by_key(|d| d.date);
    days.dedup_by(|later, earlier| {
        if later.date == earlier.date {
            earlier.rates.append(&mut later.rates);
            true
        } else {
            false
        }
    });
    Ok(days)
}

/// One `<Cube>`: a day (`time`), a rate (`currency`, `rate`) for the current day, or
/// the outer wrapper (no attributes).
fn read_cube(element: &BytesStart<'_>, days: &mut Vec<EcbDay>) -> Result<(), ProviderError> {
    let mut time = None;
    let mut currency = None;
    let mut rate = None;
    for attribute in element.attributes() {
        let attribute =
            attribute.map_err(|e| ProviderError::Malformed(format!("bad XML attribute: {e}")))?;
        // Decoded by hand rather than with `unescape_value`, which quick-xml leaves out
        // when another crate of the build (feed-rs) turns its `encoding` feature on.
        let raw = std::str::from_utf8(&attribute.value)
            .map_err(|e| ProviderError::Malformed(format!("bad XML attribute: {e}")))?;
        let value = quick_xml::escape::unescape(raw)
            .map_err(|e| ProviderError::Malformed(format!("bad XML attribute: {e}")))?
            .trim()
            .to_string();
        match attribute.key.local_name().as_ref() {
            b"time" => time = Some(value),
            b"currency" => currency = Some(value),
            b"rate" => rate = Some(value),
            _ => {}
        }
    }
    if let Some(time) = time {
        let date = NaiveDate::parse_from_str(&time, "%Y-%m-%d")
            .map_err(|_| ProviderError::Malformed(format!("not a date: {}", shorten(&time, 40))))?;
        days.push(EcbDay {
            date,
            rates: BTreeMap::new(),
        });
        return Ok(());
    }
    match (currency, rate) {
        (Some(currency), Some(rate)) => {
            let day = days
                .last_mut()
                .ok_or_else(|| ProviderError::Malformed("a rate outside a dated Cube".into()))?;
            let code = currency_code(&currency).ok_or_else(|| {
                ProviderError::Malformed(format!("not a currency: {}", shorten(&currency, 20)))
            })?;
            let rate: Decimal = rate.parse().map_err(|_| {
                ProviderError::Malformed(format!("not a rate: {}", shorten(&rate, 20)))
            })?;
            if rate > Decimal::ZERO {
                day.rates.insert(code, rate.normalize());
            }
            Ok(())
        }
        (None, None) => Ok(()),
        _ => Err(ProviderError::Malformed(
            "a rate Cube without currency or rate".into(),
        )),
    }
}

/// Daily `base`/`quote` rates derived from `days` (see [`EcbDay::cross`]), oldest first;
/// days missing either currency are absent.
pub fn cross_rates(days: &[EcbDay], base: &str, quote: &str) -> Vec<FxRate> {
    days.iter()
        .filter_map(|day| {
            Some(FxRate {
                date: day.date,
                base: base.to_string(),
                quote: quote.to_string(),
                rate: day.cross(base, quote)?,
            })
        })
        .collect()
}

/// The ECB as an [`FxProvider`]. Requests within the last 85 days read the 90-day
/// file; older ones the full history.
#[derive(Debug, Clone)]
pub struct EcbProvider {
    client: reqwest::Client,
    base_url: String,
}

impl EcbProvider {
    /// `base_url` is [`DEFAULT_BASE_URL`] in production.
    pub fn new(client: reqwest::Client, base_url: impl Into<String>) -> Self {
        Self {
            client,
            base_url: base_url.into(),
        }
    }

    /// GETs and parses one of the files ([`DAILY_PATH`], [`HIST_90D_PATH`],
    /// [`HIST_PATH`]).
    pub async fn reference_rates(&self, path: &str) -> Result<Vec<EcbDay>, ProviderError> {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let url = http::url(&self.base_url, &segments, &[])?;
        let body = http::get(&self.client, url, Expect::Xml).await?;
        parse_reference_rates(&body)
    }
}

fn published(code: &str) -> Option<String> {
    currency_code(code).filter(|c| CURRENCIES.contains(&c.as_str()))
}

#[async_trait]
impl FxProvider for EcbProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Ecb
    }

    async fn daily_rates(
        &self,
        base: &str,
        quote: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<FxRate>, ProviderError> {
        let (Some(base), Some(quote)) = (published(base), published(quote)) else {
            return Err(ProviderError::Unsupported);
        };
        if base == quote {
            return Err(ProviderError::Unsupported);
        }
        if from > to {
            return Ok(Vec::new());
        }
        let recent = Utc::now()
            .date_naive()
            .checked_sub_days(Days::new(85))
            .is_some_and(|edge| from >= edge);
        let days = self
            .reference_rates(if recent { HIST_90D_PATH } else { HIST_PATH })
            .await?;
        let mut rates = cross_rates(&days, &base, &quote);
        rates.retain(|r| (from..=to).contains(&r.date));
        Ok(rates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_DAYS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time="2019-11-29"><Cube currency="USD" rate="1.0982"/><Cube currency="KRW" rate="1295.81"/></Cube>
    <Cube time='2019-11-28'><Cube currency='USD' rate='1.1005'/><Cube currency='JPY' rate='120.52'/></Cube>
  </Cube>
</gesmes:Envelope>"#;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn providers_ecb_days_are_read_oldest_first_with_euro_based_rates() {
        let days = parse_reference_rates(TWO_DAYS.as_bytes()).unwrap();
        assert_eq!(days.len(), 2);
        assert_eq!(days[0].date.to_string(), "2019-11-28");
        assert_eq!(days[1].rates["KRW"], d("1295.81"));
    }

    #[test]
    fn providers_ecb_cross_rates_are_rounded_once_and_skip_days_without_a_currency() {
        let days = parse_reference_rates(TWO_DAYS.as_bytes()).unwrap();
        let usd_krw = cross_rates(&days, "USD", "KRW");
        assert_eq!(usd_krw.len(), 1, "2019-11-28 has no KRW");
        assert_eq!(usd_krw[0].date.to_string(), "2019-11-29");
        assert_eq!(usd_krw[0].rate.to_string(), "1179.94");
        let eur_usd = cross_rates(&days, "EUR", "USD");
        assert_eq!(
            eur_usd.iter().map(|r| r.rate).collect::<Vec<_>>(),
            [d("1.1005"), d("1.0982")]
        );
        let usd_eur = cross_rates(&days, "USD", "EUR");
        // 1 / 1.0982 = 0.910581…
        assert_eq!(usd_eur[1].rate.to_string(), "0.910581");
        let krw_usd = cross_rates(&days, "KRW", "USD");
        // 1.0982 / 1295.81 = 0.000847501…
        assert_eq!(krw_usd[0].rate.to_string(), "0.000847501");
    }

    #[test]
    fn providers_ecb_rejects_what_is_not_reference_rates() {
        for body in [
            "<!DOCTYPE html><html><body>maintenance</body></html>",
            "{\"a\":1}",
            "",
            "<a><b>",
        ] {
            assert!(
                matches!(
                    parse_reference_rates(body.as_bytes()),
                    Err(ProviderError::Malformed(_))
                ),
                "{body}"
            );
        }
        let bad_rate =
            r#"<Cube><Cube time="2019-11-29"><Cube currency="USD" rate="n/a"/></Cube></Cube>"#;
        assert!(matches!(
            parse_reference_rates(bad_rate.as_bytes()),
            Err(ProviderError::Malformed(_))
        ));
    }
}
