//! CSV import: a file parsed as it arrives and checked against the portfolio and the
//! catalogue (the preview), then written under the portfolio's lock (checked again
//! there: [`crate::portfolio::write::import`]).

use std::{collections::HashMap, sync::Arc};

use axum::http::StatusCode;
use chrono::NaiveDate;
use moat_market::{Exchange, InstrumentId};
use moat_portfolio::{csv_file, Field, PortfolioSettings};

use super::{before_history, latest_trade_date, owned, parse_portfolio_id, settings_of};
use crate::{
    http::error::{ApiError, ErrorCode},
    market::Catalog,
    portfolio::PortfolioState,
};

/// Parses a file on a blocking thread as `file` yields it, never holding it whole: at
/// most [`csv_file::MAX_IMPORT_ROWS`] rows and [`csv_file::MAX_IMPORT_BYTES`] bytes,
/// else 413.
async fn parse_upload(
    file: impl std::io::Read + Send + 'static,
    settings: PortfolioSettings,
    last_id: i64,
    catalog: Arc<Catalog>,
) -> Result<csv_file::ParsedFile, ApiError> {
    let parsed = tokio::task::spawn_blocking(move || {
        let mut file = file;
        let resolve = |named: &str| resolve_instrument(&catalog, named);
        let parsed = csv_file::parse_with(&mut file, &settings, last_id, &resolve);
        if matches!(parsed, Err(csv_file::FileTooLarge::Rows)) {
            // Read what the client is still sending (bounded by the route's body
            // limit) before answering: a socket closed with unread data is reset, and
            // the reset can reach the client before it has read the 413.
            let _ = std::io::copy(&mut file, &mut std::io::sink());
        }
        parsed
    })
    .await
    .map_err(ApiError::internal)?;
    parsed.map_err(|too_large| match too_large {
        csv_file::FileTooLarge::Bytes => ApiError::payload_too_large(csv_file::MAX_IMPORT_BYTES),
        csv_file::FileTooLarge::Rows => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::TooManyRows,
            format!(
                "The file has more than {} rows; split it into files of at most {} rows.",
                csv_file::MAX_IMPORT_ROWS,
                csv_file::MAX_IMPORT_ROWS
            ),
        ),
    })
}

/// The instrument a broker file names by a bare ticker (`AAPL`: a US-listed symbol)
/// or by its exact Korean or English name (`삼성전자`, spaces and case aside). `None`
/// when no instrument, or more than one, fits.
fn resolve_instrument(catalog: &Catalog, named: &str) -> Option<InstrumentId> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = key(named);
    if wanted.is_empty() {
        return None;
    }
    let listed = |i: &&Arc<moat_market::Instrument>| {
        matches!(
            i.id.exchange(),
            Exchange::Krx | Exchange::Nyse | Exchange::Nasdaq
        )
    };
    let by_symbol: Vec<&InstrumentId> = catalog
        .by_id
        .values()
        .filter(listed)
        .filter(|i| i.id.symbol().eq_ignore_ascii_case(named.trim()))
        .map(|i| &i.id)
        .collect();
    if let [one] = by_symbol.as_slice() {
        return Some((*one).clone());
    }
    let by_name: Vec<&InstrumentId> = catalog
        .by_id
        .values()
        .filter(listed)
        .filter(|i| key(&i.name_ko) == wanted || key(&i.name_en) == wanted)
        .map(|i| &i.id)
        .collect();
    match by_name.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// Parses and checks an uploaded file against the member's portfolio `raw`: every
/// bad row named, including instruments the catalogue does not know, dates in the
/// future and trades before an instrument's price history. Answers the portfolio's id
/// and the preview; nothing is stored.
pub async fn preview_of(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
    file: impl std::io::Read + Send + 'static,
) -> Result<(i64, csv_file::ImportPreview), ApiError> {
    let id = parse_portfolio_id(raw)?;
    let portfolio = owned(state, user_id, id).await?;
    let ledger = state.ledgers.ledger(state, &portfolio).await?;
    let settings = settings_of(&portfolio);
    let last_id = ledger.transactions.iter().map(|t| t.id).max().unwrap_or(0);
    let catalog = state.market.catalog();
    let mut parsed = parse_upload(file, settings.clone(), last_id, catalog).await?;
    let mut history_starts: HashMap<InstrumentId, Option<NaiveDate>> = HashMap::new();
    let mut bad_rows = Vec::new();
    for row in &parsed.rows {
        if row.transaction.trade_date > latest_trade_date() {
            bad_rows.push(csv_file::RowError {
                row: row.row,
                column: Some(Field::Date),
                code: moat_portfolio::IssueCode::InvalidDate,
                message: "The trade date is in the future.".into(),
            });
        }
        if let Some(iid) = &row.transaction.instrument {
            let Some(inst) = state.market.instrument(iid) else {
                bad_rows.push(csv_file::RowError {
                    row: row.row,
                    column: Some(Field::Instrument),
                    code: moat_portfolio::IssueCode::UnknownInstrument,
                    message: format!("There is no instrument {iid}."),
                });
                continue;
            };
            let start = match history_starts.get(iid) {
                Some(start) => *start,
                None => {
                    let start = state
                        .market
                        .history_start(&inst)
                        .await
                        .map_err(ApiError::internal)?;
                    history_starts.insert(iid.clone(), start);
                    start
                }
            };
            if let Some(start) = start.filter(|s| row.transaction.trade_date < *s) {
                bad_rows.push(csv_file::RowError {
                    row: row.row,
                    column: Some(Field::Date),
                    code: moat_portfolio::IssueCode::InvalidDate,
                    message: before_history(iid, start),
                });
            }
        }
    }
    parsed.errors.extend(bad_rows);
    let existing = ledger.clone();
    let preview = tokio::task::spawn_blocking(move || {
        csv_file::check(parsed, &settings, &existing.transactions)
    })
    .await
    .map_err(ApiError::internal)?;
    Ok((id, preview))
}

/// A portfolio's transactions as a CSV file (the import format) and its file name.
pub async fn export_csv(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
) -> Result<(String, String), ApiError> {
    let id = parse_portfolio_id(raw)?;
    let portfolio = owned(state, user_id, id).await?;
    let ledger = state.ledgers.ledger(state, &portfolio).await?;
    let file = format!("moat-portfolio-{}.csv", portfolio.id);
    Ok((file, csv_file::export(&ledger.transactions)))
}
