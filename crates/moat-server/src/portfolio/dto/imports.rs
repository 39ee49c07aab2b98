//! CSV import: the preview, the result and the refusal.

use crate::http::error::ErrorCode;
use moat_portfolio::csv_file;
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

/// What importing a file would do.
#[derive(Serialize, ToSchema)]
pub struct ImportPreviewDto {
    /// The file's format (`moat`: Moat's own columns).
    pub format: String,
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
            format: "moat".into(),
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
