//! CSV import: the preview, the result and the refusal.

use crate::http::error::ErrorCode;
use moat_portfolio::broker_csv::{FormatId, SkipReason};
use moat_portfolio::csv_file;
use moat_portfolio::text_decode::TextEncoding;
use serde::Serialize;
use utoipa::ToSchema;

use super::TransactionDto;

/// Rows of the file the preview sends back (the summary counts them all, and every
/// error is sent).
pub const PREVIEW_ROWS: usize = 100;

/// One previewed row.
#[derive(Serialize, ToSchema)]
pub struct PreviewRowDto {
    /// The file line.
    pub line: usize,
    pub transaction: TransactionDto,
    /// Already in the portfolio: will not be imported.
    pub duplicate: bool,
}

/// A problem with one row (`line`) or the whole file (line 1, the header).
#[derive(Serialize, ToSchema)]
pub struct RowErrorDto {
    pub line: usize,
    /// The column at fault (`date`, `type`, `instrument`, `quantity`, …).
    pub column: Option<String>,
    /// What is wrong with the row.
    pub code: ErrorCode,
    /// English; the UI words it from `code`.
    pub message: String,
}

impl RowErrorDto {
    /// Import problems as the contract sends them.
    pub fn all(errors: &[csv_file::RowError]) -> Vec<Self> {
        errors
            .iter()
            .map(|e| Self {
                line: e.row,
                column: e.column.map(|c| c.as_str().to_owned()),
                code: e.code.into(),
                message: e.message.clone(),
            })
            .collect()
    }
}

/// The file formats an import reads, as detected from the header row.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum ImportFormat {
    /// Moat's own columns (English headers, as the export writes them).
    Moat,
    /// Moat's columns under Korean headers (일자, 구분, 종목코드…).
    GenericKorean,
    /// 키움증권 계좌거래내역.
    Kiwoom,
    /// 미래에셋증권 해외주식 매매내역.
    Mirae,
    /// 미래에셋증권 국내주식 기간별 매매내역.
    MiraeDomestic,
    /// 한국투자증권 매매일지.
    Kis,
    /// NH투자증권 (나무, QV) 종합거래내역.
    Nh,
}

impl From<FormatId> for ImportFormat {
    fn from(f: FormatId) -> Self {
        match f {
            FormatId::Moat => Self::Moat,
            FormatId::GenericKorean => Self::GenericKorean,
            FormatId::Kiwoom => Self::Kiwoom,
            FormatId::Mirae => Self::Mirae,
            FormatId::MiraeDomestic => Self::MiraeDomestic,
            FormatId::Kis => Self::Kis,
            FormatId::Nh => Self::Nh,
        }
    }
}

/// The file's text encoding.
#[derive(Serialize, ToSchema, Clone, Copy)]
pub enum ImportEncoding {
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "euc-kr")]
    EucKr,
}

/// Why a broker row is not imported.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum SkipReasonDto {
    /// Interest on the cash balance.
    Interest,
    /// Shares moved in or out without a trade.
    Transfer,
    /// A currency exchange.
    Exchange,
    /// The share movement of a split; record the split itself.
    SplitMovement,
    /// A CMA or RP sweep.
    Sweep,
    /// A row with neither a buy nor a sell.
    NoTrade,
}

impl From<SkipReason> for SkipReasonDto {
    fn from(r: SkipReason) -> Self {
        match r {
            SkipReason::Interest => Self::Interest,
            SkipReason::Transfer => Self::Transfer,
            SkipReason::Exchange => Self::Exchange,
            SkipReason::SplitMovement => Self::SplitMovement,
            SkipReason::Sweep => Self::Sweep,
            SkipReason::NoTrade => Self::NoTrade,
        }
    }
}

/// A row of a broker file that is not a trade, listed and not imported.
#[derive(Serialize, ToSchema)]
pub struct SkippedRowDto {
    pub line: usize,
    pub reason: SkipReasonDto,
    /// The row's trade-type word as the file wrote it (e.g. `예탁금이용료`).
    pub label: String,
}

/// What importing a file would do.
#[derive(Serialize, ToSchema)]
pub struct ImportPreviewDto {
    /// The file's format, detected from its header row.
    pub format: ImportFormat,
    /// The file's text encoding; absent when nothing could be read.
    pub encoding: Option<ImportEncoding>,
    /// Broker rows that are not trades (interest, transfers…): not imported.
    pub skipped: Vec<SkippedRowDto>,
    /// Rows read (duplicates included, bad rows not).
    pub total_rows: usize,
    /// Rows that would be imported.
    pub new_rows: usize,
    /// Rows already in the portfolio, which would be skipped.
    pub duplicate_rows: usize,
    /// The earliest and latest trade dates read.
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// The first rows of the file (at most 100).
    pub rows: Vec<PreviewRowDto>,
    /// Every problem; nothing is imported while there is one.
    pub errors: Vec<RowErrorDto>,
    pub warnings: Vec<RowErrorDto>,
    /// Headers that name no known column.
    pub ignored_columns: Vec<String>,
}

impl From<&csv_file::ImportPreview> for ImportPreviewDto {
    fn from(p: &csv_file::ImportPreview) -> Self {
        let dates = p.rows.iter().map(|r| r.transaction.trade_date);
        Self {
            format: p.format.into(),
            encoding: p.encoding.map(|e| match e {
                TextEncoding::Utf8 => ImportEncoding::Utf8,
                TextEncoding::EucKr => ImportEncoding::EucKr,
            }),
            skipped: p
                .skipped
                .iter()
                .map(|s| SkippedRowDto {
                    line: s.row,
                    reason: s.reason.into(),
                    label: s.label.clone(),
                })
                .collect(),
            total_rows: p.rows.len(),
            new_rows: p.new_rows(),
            duplicate_rows: p.rows.len() - p.new_rows(),
            first_date: dates.clone().min().map(|d| d.to_string()),
            last_date: dates.max().map(|d| d.to_string()),
            rows: p
                .rows
                .iter()
                .take(PREVIEW_ROWS)
                .map(|r| PreviewRowDto {
                    line: r.row,
                    transaction: (&r.transaction).into(),
                    duplicate: r.duplicate,
                })
                .collect(),
            errors: RowErrorDto::all(&p.errors),
            warnings: RowErrorDto::all(&p.warnings),
            ignored_columns: p.ignored_columns.clone(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ImportResult {
    pub imported: u64,
    pub skipped_duplicates: usize,
}

/// The 422 of an import with bad rows.
#[derive(Serialize, ToSchema)]
pub struct ImportRefused {
    /// `invalid_import`.
    pub code: ErrorCode,
    pub message: String,
    pub errors: Vec<RowErrorDto>,
}

impl ImportRefused {
    pub fn new(errors: &[csv_file::RowError]) -> Self {
        Self {
            code: ErrorCode::InvalidImport,
            message: format!("{} rows are not valid; nothing was imported.", errors.len()),
            errors: RowErrorDto::all(errors),
        }
    }
}
