//! The web vitals report: the 75th percentile of each vital, overall and per page,
//! rated against the spec's thresholds (`observability::vitals`).

use std::collections::BTreeMap;

use super::params::time_param;
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{
        dto::{
            rfc3339_ms, PageVitalsDto, VitalStatDto, VitalThresholdDto, VitalsParams, VitalsReport,
        },
        now_ms,
        vitals::{self as web_vitals, VITALS, WEB_VITAL_CATEGORY},
        ObservabilityState,
    },
};

/// Metric samples read for one vitals report.
pub const MAX_VITAL_SAMPLES: i64 = 200_000;
/// Default span of the vitals report.
pub const DEFAULT_VITALS_DAYS: i64 = 7;

fn stats(samples: &mut BTreeMap<&'static str, Vec<f64>>) -> Vec<VitalStatDto> {
    VITALS
        .iter()
        .filter_map(|(name, thresholds)| {
            let values = samples.get_mut(name)?;
            let p75 = web_vitals::p75(values)?;
            Some(VitalStatDto {
                name: (*name).to_owned(),
                p75,
                samples: values.len() as i64,
                rating: web_vitals::rating(p75, *thresholds).to_owned(),
            })
        })
        .collect()
}

/// The report over `from` to `to` (default: the last [`DEFAULT_VITALS_DAYS`] days),
/// from the newest [`MAX_VITAL_SAMPLES`] samples.
pub async fn vitals_report(
    state: &ObservabilityState,
    p: VitalsParams,
) -> Result<VitalsReport, ApiError> {
    let now = now_ms();
    let to = time_param("to", p.to.as_deref())?.unwrap_or(now + 1);
    let from = time_param("from", p.from.as_deref())?
        .unwrap_or(to - DEFAULT_VITALS_DAYS * 24 * 3600 * 1000);
    if from >= to {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::DatesReversed, "Must be before `to`."),
        ));
    }
    let points = state
        .storage
        .obs_metric_values(WEB_VITAL_CATEGORY, from, to, MAX_VITAL_SAMPLES)
        .await?;
    let truncated = points.len() as i64 >= MAX_VITAL_SAMPLES;
    let mut overall: BTreeMap<&'static str, Vec<f64>> = BTreeMap::new();
    let mut by_page: BTreeMap<String, BTreeMap<&'static str, Vec<f64>>> = BTreeMap::new();
    for point in points {
        let Some(name) = web_vitals::canonical(&point.name) else {
            continue;
        };
        overall.entry(name).or_default().push(point.value);
        by_page
            .entry(point.page)
            .or_default()
            .entry(name)
            .or_default()
            .push(point.value);
    }
    let mut pages: Vec<(usize, PageVitalsDto)> = by_page
        .into_iter()
        .map(|(page, mut samples)| {
            let n = samples.values().map(Vec::len).sum();
            (
                n,
                PageVitalsDto {
                    page,
                    vitals: stats(&mut samples),
                },
            )
        })
        .collect();
    pages.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.page.cmp(&b.1.page)));
    Ok(VitalsReport {
        from: rfc3339_ms(from),
        to: rfc3339_ms(to),
        thresholds: VITALS
            .iter()
            .map(|(name, (good, poor))| VitalThresholdDto {
                name: (*name).to_owned(),
                good: *good,
                poor: *poor,
                unit: if *name == "CLS" {
                    String::new()
                } else {
                    "ms".into()
                },
            })
            .collect(),
        overall: stats(&mut overall),
        pages: pages.into_iter().map(|(_, p)| p).collect(),
        truncated,
    })
}
