//! Validation: what is wrong with a transaction list, per transaction and field, with a
//! stable code for programs and an English message for people (the UI localises by
//! code).
//!
//! Two kinds of check: those on one transaction alone ([`check_transaction`]) and
//! those that need the holdings at the trade date (a sell of more than is held, a split
//! of nothing), which replay the ledger ([`validate`]). A dividend on an instrument not
//! held on its date is **allowed, with a warning** ([`IssueCode::DividendNotHeld`]):
//! members often start recording after buying elsewhere, and refusing the dividend
//! would lose real cash from the record; the warning lets the UI suggest adding the
//! missing buy.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ledger::Ledger;
use crate::money::is_supported_currency;
use crate::transaction::{whole_shares_only, PortfolioSettings, Transaction, TxKind};

/// A transaction field, named as the CSV column and the API field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Date,
    Type,
    Instrument,
    Quantity,
    Price,
    Fee,
    Tax,
    Currency,
    FxRate,
    Ratio,
    Note,
}

impl Field {
    pub const ALL: [Field; 11] = [
        Field::Date,
        Field::Type,
        Field::Instrument,
        Field::Quantity,
        Field::Price,
        Field::Fee,
        Field::Tax,
        Field::Currency,
        Field::FxRate,
        Field::Ratio,
        Field::Note,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Field::Date => "date",
            Field::Type => "type",
            Field::Instrument => "instrument",
            Field::Quantity => "quantity",
            Field::Price => "price",
            Field::Fee => "fee",
            Field::Tax => "tax",
            Field::Currency => "currency",
            Field::FxRate => "fx_rate",
            Field::Ratio => "ratio",
            Field::Note => "note",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Stable codes of everything validation and CSV import can report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueCode {
    // One transaction.
    CurrencyUnsupported,
    InstrumentMissing,
    InstrumentUnexpected,
    QuantityNotPositive,
    PriceNotPositive,
    FractionalShares,
    FeeNegative,
    TaxNegative,
    FxRateMissing,
    FxRateNotPositive,
    SplitRatioInvalid,
    // Against the holdings at the date.
    InsufficientQuantity,
    SplitNotHeld,
    CurrencyMismatch,
    /// Warning only.
    DividendNotHeld,
    /// A rate for a reporting currency other than the base is not in the FX history.
    FxRateUnavailable,
    // CSV import.
    EmptyFile,
    MissingColumn,
    MalformedRow,
    InvalidDate,
    InvalidType,
    InvalidNumber,
    InvalidInstrument,
    /// Well formed, but not an instrument the catalogue knows (the server checks).
    UnknownInstrument,
    InvalidRatio,
    /// The file's bytes are not valid in its encoding (UTF-8 or EUC-KR).
    InvalidEncoding,
}

impl IssueCode {
    pub fn as_str(self) -> &'static str {
        match self {
            IssueCode::CurrencyUnsupported => "currency_unsupported",
            IssueCode::InstrumentMissing => "instrument_missing",
            IssueCode::InstrumentUnexpected => "instrument_unexpected",
            IssueCode::QuantityNotPositive => "quantity_not_positive",
            IssueCode::PriceNotPositive => "price_not_positive",
            IssueCode::FractionalShares => "fractional_shares",
            IssueCode::FeeNegative => "fee_negative",
            IssueCode::TaxNegative => "tax_negative",
            IssueCode::FxRateMissing => "fx_rate_missing",
            IssueCode::FxRateNotPositive => "fx_rate_not_positive",
            IssueCode::SplitRatioInvalid => "split_ratio_invalid",
            IssueCode::InsufficientQuantity => "insufficient_quantity",
            IssueCode::SplitNotHeld => "split_not_held",
            IssueCode::CurrencyMismatch => "currency_mismatch",
            IssueCode::DividendNotHeld => "dividend_not_held",
            IssueCode::FxRateUnavailable => "fx_rate_unavailable",
            IssueCode::EmptyFile => "empty_file",
            IssueCode::MissingColumn => "missing_column",
            IssueCode::MalformedRow => "malformed_row",
            IssueCode::InvalidEncoding => "invalid_encoding",
            IssueCode::InvalidDate => "invalid_date",
            IssueCode::InvalidType => "invalid_type",
            IssueCode::InvalidNumber => "invalid_number",
            IssueCode::InvalidInstrument => "invalid_instrument",
            IssueCode::UnknownInstrument => "unknown_instrument",
            IssueCode::InvalidRatio => "invalid_ratio",
        }
    }
}

impl fmt::Display for IssueCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem with one transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// The transaction concerned.
    pub transaction_id: i64,
    pub field: Option<Field>,
    pub code: IssueCode,
    /// English, for logs and API clients; the UI localises by `code`.
    pub message: String,
    /// The values the message names (`instrument`, `held`, `date` …), as text, for
    /// clients that word the issue themselves.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, String>,
}

impl Issue {
    pub fn new(
        tx: &Transaction,
        field: Option<Field>,
        code: IssueCode,
        message: impl Into<String>,
    ) -> Self {
        Self {
            transaction_id: tx.id,
            field,
            code,
            message: message.into(),
            params: Default::default(),
        }
    }

    /// Adds a value the message names.
    pub fn param(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.params.insert(name.to_owned(), value.to_string());
        self
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "transaction {}: {} ({})",
            self.transaction_id, self.message, self.code
        )
    }
}

/// The outcome of [`validate`]: errors make the list unusable; warnings do not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationReport {
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
}

impl ValidationReport {
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Checks one transaction on its own; every problem is reported, not just the first.
pub fn check_transaction(settings: &PortfolioSettings, tx: &Transaction) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut push =
        |field, code, message: String| issues.push(Issue::new(tx, Some(field), code, message));
    let kind = tx.kind;

    if !is_supported_currency(&tx.currency) {
        push(
            Field::Currency,
            IssueCode::CurrencyUnsupported,
            format!("currency {:?} is not supported (KRW or USD)", tx.currency),
        );
    }
    match (
        &tx.instrument,
        kind.needs_instrument(),
        kind.allows_instrument(),
    ) {
        (None, true, _) => push(
            Field::Instrument,
            IssueCode::InstrumentMissing,
            format!("a {} needs an instrument", kind.as_str()),
        ),
        (Some(_), _, false) => push(
            Field::Instrument,
            IssueCode::InstrumentUnexpected,
            format!("a {} has no instrument", kind.as_str()),
        ),
        _ => {}
    }
    if kind == TxKind::Split {
        if tx.split.and_then(|r| r.factor()).is_none() {
            push(
                Field::Ratio,
                IssueCode::SplitRatioInvalid,
                "a split needs a ratio of two positive whole numbers, e.g. 4/1 or 1/10".into(),
            );
        }
    } else {
        if tx.quantity <= rust_decimal::Decimal::ZERO {
            push(
                Field::Quantity,
                IssueCode::QuantityNotPositive,
                "the quantity must be more than zero".into(),
            );
        }
        if tx.price <= rust_decimal::Decimal::ZERO {
            let what = if matches!(kind, TxKind::Buy | TxKind::Sell) {
                "price"
            } else {
                "amount"
            };
            push(
                Field::Price,
                IssueCode::PriceNotPositive,
                format!("the {what} must be more than zero"),
            );
        }
    }
    if matches!(kind, TxKind::Buy | TxKind::Sell) {
        if let Some(id) = &tx.instrument {
            if whole_shares_only(id) && !tx.quantity.fract().is_zero() {
                push(
                    Field::Quantity,
                    IssueCode::FractionalShares,
                    format!("{id} trades in whole shares only"),
                );
            }
        }
    }
    if tx.fee.is_sign_negative() && !tx.fee.is_zero() {
        push(
            Field::Fee,
            IssueCode::FeeNegative,
            "the fee cannot be negative".into(),
        );
    }
    if tx.tax.is_sign_negative() && !tx.tax.is_zero() {
        push(
            Field::Tax,
            IssueCode::TaxNegative,
            "the tax cannot be negative".into(),
        );
    }
    if kind != TxKind::Split && tx.currency != settings.base_currency {
        match tx.fx_rate {
            None => push(
                Field::FxRate,
                IssueCode::FxRateMissing,
                format!(
                    "a {} trade in a {} portfolio needs the exchange rate",
                    tx.currency, settings.base_currency
                ),
            ),
            Some(rate) if rate <= rust_decimal::Decimal::ZERO => push(
                Field::FxRate,
                IssueCode::FxRateNotPositive,
                "the exchange rate must be more than zero".into(),
            ),
            Some(_) => {}
        }
    }
    issues
}

/// Validates a whole list: each transaction alone, then in ledger order (by date, then
/// id) against the holdings built from the valid ones before it. A transaction with an
/// error is left out of the replay, so that one mistake is not reported again on every
/// later transaction.
pub fn validate(settings: &PortfolioSettings, transactions: &[Transaction]) -> ValidationReport {
    let mut report = ValidationReport::default();
    let mut ledger = Ledger::empty(settings, &settings.base_currency);
    for tx in crate::transaction::sorted(transactions) {
        let issues = check_transaction(settings, tx);
        if !issues.is_empty() {
            report.errors.extend(issues);
            continue;
        }
        let rate = crate::ledger::trade_rate_to_base(settings, tx);
        match ledger.apply(tx, rate) {
            Ok(applied) => report.warnings.extend(applied.warnings),
            Err(issue) => report.errors.push(issue),
        }
    }
    report
}

/// What of a transaction list can be applied: every transaction, in ledger order,
/// before the first one with an error (of its own, or against the holdings at its
/// date), and that error. A ledger that is valid as a whole gives every transaction and
/// no error.
#[derive(Debug, Clone, PartialEq)]
pub struct Applicable {
    /// In ledger order (by date, then id).
    pub transactions: Vec<Transaction>,
    /// Why the next transaction could not be applied; `None` when all were.
    pub stopped_at: Option<Issue>,
}

/// Cuts a ledger at its first transaction that cannot be applied. Data imported from
/// elsewhere or written by a past bug can leave a ledger invalid (a sell of more than
/// was held); valuation and performance then show everything before that transaction
/// and name it, so the member can fix it, instead of failing as a whole.
pub fn applicable(settings: &PortfolioSettings, transactions: &[Transaction]) -> Applicable {
    let mut ledger = Ledger::empty(settings, &settings.base_currency);
    let ordered = crate::transaction::sorted(transactions);
    for (index, tx) in ordered.iter().enumerate() {
        let issue = check_transaction(settings, tx)
            .into_iter()
            .next()
            .or_else(|| {
                let rate = crate::ledger::trade_rate_to_base(settings, tx);
                ledger.apply(tx, rate).err()
            });
        if let Some(issue) = issue {
            return Applicable {
                transactions: ordered[..index].iter().map(|t| (*t).clone()).collect(),
                stopped_at: Some(issue),
            };
        }
    }
    Applicable {
        transactions: ordered.into_iter().cloned().collect(),
        stopped_at: None,
    }
}
