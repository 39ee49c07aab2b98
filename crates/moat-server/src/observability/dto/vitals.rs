//! The web vitals report.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// A vital's thresholds (spec §9): good at or below `good`, poor above `poor`.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct VitalThresholdDto {
    pub name: String,
    pub good: f64,
    pub poor: f64,
    /// `ms`, or empty for CLS (unitless).
    pub unit: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct VitalStatDto {
    /// `LCP`, `FCP`, `CLS`, `INP`, `TTFB` or `FID`.
    pub name: String,
    /// 75th percentile (nearest rank).
    pub p75: f64,
    pub samples: i64,
    /// `good`, `needs_improvement` or `poor`.
    pub rating: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct PageVitalsDto {
    /// Path with ids as `:id`; empty when the page is unknown.
    pub page: String,
    pub vitals: Vec<VitalStatDto>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct VitalsReport {
    pub from: String,
    pub to: String,
    pub thresholds: Vec<VitalThresholdDto>,
    /// All pages together.
    pub overall: Vec<VitalStatDto>,
    /// Per page, pages with the most samples first.
    pub pages: Vec<PageVitalsDto>,
    /// True when more samples existed than were read (the newest were used).
    pub truncated: bool,
}

#[derive(Deserialize, IntoParams)]
pub struct VitalsParams {
    /// From (RFC 3339 or YYYY-MM-DD); default 7 days ago.
    pub from: Option<String>,
    /// To, exclusive; default now.
    pub to: Option<String>,
}
