//! Instruments and their stable, URL-readable ids (`KRX:005930`, `NASDAQ:AAPL`).

use std::{fmt, str::FromStr};

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Where an instrument is listed. Indices, currency pairs and crypto have
/// pseudo-exchanges of their own so that every id has the same `EXCHANGE:SYMBOL` form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Exchange {
    Krx,
    Nyse,
    Nasdaq,
    /// Market indices: `INDEX:KOSPI`, `INDEX:SPX`.
    Index,
    /// Currency pairs: `FX:USDKRW` (price of one USD in KRW).
    Fx,
    /// Crypto assets quoted in USD: `CRYPTO:BTC`.
    Crypto,
}

impl Exchange {
    pub const ALL: [Exchange; 6] = [
        Exchange::Krx,
        Exchange::Nyse,
        Exchange::Nasdaq,
        Exchange::Index,
        Exchange::Fx,
        Exchange::Crypto,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Exchange::Krx => "KRX",
            Exchange::Nyse => "NYSE",
            Exchange::Nasdaq => "NASDAQ",
            Exchange::Index => "INDEX",
            Exchange::Fx => "FX",
            Exchange::Crypto => "CRYPTO",
        }
    }

    /// Case-insensitive.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.as_str().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Exchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The KRX board a Korean stock trades on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Board {
    Kospi,
    Kosdaq,
}

impl Board {
    pub fn as_str(self) -> &'static str {
        match self {
            Board::Kospi => "KOSPI",
            Board::Kosdaq => "KOSDAQ",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_uppercase().as_str() {
            "KOSPI" => Some(Board::Kospi),
            "KOSDAQ" | "KOSDAQ GLOBAL" => Some(Board::Kosdaq),
            _ => None,
        }
    }
}

/// What kind of thing an instrument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Stock,
    Etf,
    Index,
    Currency,
    Crypto,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Stock => "stock",
            Kind::Etf => "etf",
            Kind::Index => "index",
            Kind::Currency => "currency",
            Kind::Crypto => "crypto",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stock" => Some(Kind::Stock),
            "etf" => Some(Kind::Etf),
            "index" => Some(Kind::Index),
            "currency" => Some(Kind::Currency),
            "crypto" => Some(Kind::Crypto),
            _ => None,
        }
    }
}

/// A stable instrument id: `EXCHANGE:SYMBOL`, e.g. `KRX:005930`, `NASDAQ:AAPL`,
/// `INDEX:KOSPI`, `FX:USDKRW`. Symbols are 1–20 characters of ASCII upper-case
/// letters, digits, `.` and `-` (`NYSE:BRK.B`); exchange names are case-insensitive
/// on input and upper-case in the canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct InstrumentId {
    exchange: Exchange,
    symbol: String,
}

/// Why a string is not an [`InstrumentId`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseIdError {
    #[error("an instrument id looks like EXCHANGE:SYMBOL, e.g. KRX:005930")]
    Shape,
    #[error("unknown exchange (KRX, NYSE, NASDAQ, INDEX, FX or CRYPTO)")]
    Exchange,
    #[error("a symbol is 1 to 20 letters, digits, '.' or '-'")]
    Symbol,
}

pub const MAX_SYMBOL_LEN: usize = 20;

impl InstrumentId {
    pub fn new(exchange: Exchange, symbol: &str) -> Result<Self, ParseIdError> {
        let symbol = symbol.trim().to_ascii_uppercase();
        let valid = !symbol.is_empty()
            && symbol.len() <= MAX_SYMBOL_LEN
            && symbol
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
        if !valid {
            return Err(ParseIdError::Symbol);
        }
        Ok(Self { exchange, symbol })
    }

    pub fn exchange(&self) -> Exchange {
        self.exchange
    }

    pub fn symbol(&self) -> &str {
        &self.symbol
    }
}

impl FromStr for InstrumentId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (exchange, symbol) = s.split_once(':').ok_or(ParseIdError::Shape)?;
        let exchange = Exchange::parse(exchange.trim()).ok_or(ParseIdError::Exchange)?;
        Self::new(exchange, symbol)
    }
}

impl TryFrom<String> for InstrumentId {
    type Error = ParseIdError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<InstrumentId> for String {
    fn from(id: InstrumentId) -> String {
        id.to_string()
    }
}

impl fmt::Display for InstrumentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.exchange, self.symbol)
    }
}

/// Which trading calendar an instrument follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Market {
    /// KRX: 09:00–15:30 Asia/Seoul, Korean holidays.
    Krx,
    /// NYSE and NASDAQ: 09:30–16:00 America/New_York, US market holidays.
    Us,
    /// Currencies: around the clock Monday to Friday.
    Fx,
    /// Crypto: always open.
    Crypto,
}

/// An instrument Moat knows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instrument {
    pub id: InstrumentId,
    pub kind: Kind,
    /// KOSPI or KOSDAQ for Korean stocks and ETFs; `None` elsewhere.
    pub board: Option<Board>,
    /// ISO 4217 code of the price currency (`KRW`, `USD`).
    pub currency: String,
    /// ISO 3166-1 alpha-2 country of the market (`KR`, `US`); empty for FX and crypto.
    pub country: String,
    pub name_ko: String,
    pub name_en: String,
    /// Free text, English (`Information Technology`); may be empty.
    pub sector: String,
    pub shares_outstanding: Option<i64>,
    /// A recent reference price in `currency`; the simulator anchors its path to it.
    pub reference_price: Option<Decimal>,
    /// Higher is more popular; breaks ties in search.
    pub popularity: i32,
    /// Other names people type (`삼전` for 삼성전자), lower-case for Latin.
    pub aliases: Vec<String>,
}

impl Instrument {
    pub fn ticker(&self) -> &str {
        self.id.symbol()
    }

    /// The calendar this instrument trades on.
    pub fn market(&self) -> Market {
        match self.kind {
            Kind::Currency => Market::Fx,
            Kind::Crypto => Market::Crypto,
            _ if self.country == "KR" || self.id.exchange() == Exchange::Krx => Market::Krx,
            _ => Market::Us,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_normalise_case() {
        let id: InstrumentId = "krx:005930".parse().unwrap();
        assert_eq!(id.to_string(), "KRX:005930");
        let id: InstrumentId = "NYSE:brk.b".parse().unwrap();
        assert_eq!(id.to_string(), "NYSE:BRK.B");
        assert_eq!(id.exchange(), Exchange::Nyse);
    }

    #[test]
    fn malformed_ids_say_what_is_wrong() {
        let cases = [
            ("005930", ParseIdError::Shape),
            ("LSE:VOD", ParseIdError::Exchange),
            ("KRX:", ParseIdError::Symbol),
            ("KRX:00 5930", ParseIdError::Symbol),
            ("NASDAQ:AAAAAAAAAAAAAAAAAAAAA", ParseIdError::Symbol),
            ("NASDAQ:<script>", ParseIdError::Symbol),
        ];
        for (input, want) in cases {
            assert_eq!(input.parse::<InstrumentId>(), Err(want), "{input}");
        }
    }
}
