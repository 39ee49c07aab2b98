//! Web vitals: canonical names, the spec's good/poor thresholds (§9), ratings and the
//! 75th percentile the console shows per page.

/// The category web vitals are stored under.
pub const WEB_VITAL_CATEGORY: &str = "WebVital";

/// Good at or below the first value, poor above the second (spec §9); times in ms.
pub const FCP_MS: (f64, f64) = (1800.0, 3000.0);
pub const CLS: (f64, f64) = (0.1, 0.25);
pub const FID_MS: (f64, f64) = (100.0, 300.0);
pub const INP_MS: (f64, f64) = (200.0, 500.0);
pub const LCP_MS: (f64, f64) = (2500.0, 4000.0);
pub const TTFB_MS: (f64, f64) = (800.0, 1800.0);

/// The six vitals with their thresholds, in display order.
pub const VITALS: [(&str, (f64, f64)); 6] = [
    ("LCP", LCP_MS),
    ("FCP", FCP_MS),
    ("CLS", CLS),
    ("INP", INP_MS),
    ("TTFB", TTFB_MS),
    ("FID", FID_MS),
];

/// The canonical vital a metric name stands for (`LCP`, `web-vital.lcp`,
/// `WebVitals_INP` …), if any.
pub fn canonical(name: &str) -> Option<&'static str> {
    let upper = name.trim().to_ascii_uppercase();
    let last = upper
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    VITALS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == last || *n == upper)
}

pub fn thresholds(vital: &str) -> Option<(f64, f64)> {
    VITALS.iter().find(|(n, _)| *n == vital).map(|(_, t)| *t)
}

/// `good`, `needs_improvement` or `poor`.
pub fn rating(value: f64, (good, poor): (f64, f64)) -> &'static str {
    if value <= good {
        "good"
    } else if value <= poor {
        "needs_improvement"
    } else {
        "poor"
    }
}

/// The 75th percentile by nearest rank (the value three quarters of samples are at or
/// below); `None` without samples.
pub fn p75(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    let rank = (values.len() * 3).div_ceil(4).max(1);
    Some(values[rank - 1])
}

/// The page a metric belongs to, for grouping: the URL's path (no origin, query or
/// fragment) with numeric and UUID segments as `:id`.
pub fn page_of(url: &str) -> String {
    let without_origin = match url.find("://") {
        Some(i) => {
            let after = &url[i + 3..];
            after.find('/').map_or("/", |j| &after[j..])
        }
        None => url,
    };
    let path = without_origin.split(['?', '#']).next().unwrap_or("");
    if path.is_empty() {
        return String::new();
    }
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            let numeric = !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit());
            let uuid = seg.len() == 36 && seg.bytes().filter(|b| *b == b'-').count() == 4;
            if numeric || uuid {
                ":id".to_owned()
            } else {
                seg.to_owned()
            }
        })
        .collect();
    super::redact::truncate(&segments.join("/"), 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_the_specs() {
        assert_eq!(thresholds("FCP"), Some((1800.0, 3000.0)));
        assert_eq!(thresholds("CLS"), Some((0.1, 0.25)));
        assert_eq!(thresholds("FID"), Some((100.0, 300.0)));
        assert_eq!(thresholds("INP"), Some((200.0, 500.0)));
        assert_eq!(thresholds("LCP"), Some((2500.0, 4000.0)));
        assert_eq!(thresholds("TTFB"), Some((800.0, 1800.0)));
        assert_eq!(thresholds("XYZ"), None);
    }

    #[test]
    fn ratings_include_the_boundaries_on_the_better_side() {
        assert_eq!(rating(2500.0, LCP_MS), "good");
        assert_eq!(rating(2500.1, LCP_MS), "needs_improvement");
        assert_eq!(rating(4000.0, LCP_MS), "needs_improvement");
        assert_eq!(rating(4000.1, LCP_MS), "poor");
        assert_eq!(rating(0.1, CLS), "good");
        assert_eq!(rating(0.26, CLS), "poor");
        assert_eq!(rating(150.0, FID_MS), "needs_improvement");
        assert_eq!(rating(501.0, INP_MS), "poor");
        assert_eq!(rating(800.0, TTFB_MS), "good");
        assert_eq!(rating(1799.0, FCP_MS), "good");
    }

    #[test]
    fn p75_is_the_nearest_rank() {
        assert_eq!(p75(&mut []), None);
        assert_eq!(p75(&mut [5.0]), Some(5.0));
        assert_eq!(p75(&mut [4.0, 1.0, 3.0, 2.0]), Some(3.0));
        let mut hundred: Vec<f64> = (1..=100).map(f64::from).rev().collect();
        assert_eq!(p75(&mut hundred), Some(75.0));
        assert_eq!(p75(&mut [1.0, 2.0, 3.0, 4.0, 5.0]), Some(4.0));
    }

    #[test]
    fn names_are_recognised() {
        assert_eq!(canonical("LCP"), Some("LCP"));
        assert_eq!(canonical("web-vital.lcp"), Some("LCP"));
        assert_eq!(canonical("WebVitals_INP"), Some("INP"));
        assert_eq!(canonical("ttfb"), Some("TTFB"));
        assert_eq!(canonical("jank"), None);
        assert_eq!(canonical("CLSX"), None);
    }

    #[test]
    fn pages_group_ids() {
        assert_eq!(
            page_of("https://m.example/portfolios/12?x=1"),
            "/portfolios/:id"
        );
        assert_eq!(page_of("https://m.example"), "/");
        assert_eq!(page_of("/stocks/KRX:005930#chart"), "/stocks/KRX:005930");
        assert_eq!(page_of(""), "");
    }
}
