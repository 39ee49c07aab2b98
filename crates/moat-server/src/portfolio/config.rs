//! `[portfolio]`: dividend withholding tax by the paying company's country
//! (docs/portfolio.md).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Section};

/// `[portfolio]`: withholding rates as fractions. Defaults: 15.4 % for Korean
/// dividends to residents (14 % income tax + 1.4 % local tax), 15 % for US dividends
/// under the Korea–US treaty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PortfolioConfig {
    pub withholding_kr: Decimal,
    pub withholding_us: Decimal,
    /// The bound of the derived-results cache (daily value series and ledgers kept
    /// between reads, portfolio::derived), in MB; 0 keeps nothing.
    pub derived_cache_mb: u64,
}

/// The largest `derived_cache_mb` accepted.
pub const MAX_DERIVED_CACHE_MB: u64 = 16_384;

impl Default for PortfolioConfig {
    fn default() -> Self {
        let rates = moat_portfolio::dividends::WithholdingRates::default();
        Self {
            withholding_kr: rates.rate_for("KR"),
            withholding_us: rates.rate_for("US"),
            derived_cache_mb: super::derived::DEFAULT_CACHE_MB,
        }
    }
}

impl PortfolioConfig {
    pub fn withholding(&self) -> moat_portfolio::dividends::WithholdingRates {
        let mut rates = moat_portfolio::dividends::WithholdingRates::default();
        rates.by_country.insert("KR".into(), self.withholding_kr);
        rates.by_country.insert("US".into(), self.withholding_us);
        rates
    }
}

impl Section for PortfolioConfig {
    const NAME: &'static str = "portfolio";
    const ENV_KEYS: &'static [&'static str] =
        &["withholding_kr", "withholding_us", "derived_cache_mb"];

    fn validate(&self) -> Result<(), ConfigError> {
        for (key, rate) in [
            ("withholding_kr", self.withholding_kr),
            ("withholding_us", self.withholding_us),
        ] {
            if rate < Decimal::ZERO || rate >= Decimal::ONE {
                return Err(ConfigError::key(
                    &format!("portfolio.{key}"),
                    "a fraction from 0 to below 1 (0.154 is 15.4 %)",
                ));
            }
        }
        if self.derived_cache_mb > MAX_DERIVED_CACHE_MB {
            return Err(ConfigError::key(
                "portfolio.derived_cache_mb",
                format!("at most {MAX_DERIVED_CACHE_MB} (MB)"),
            ));
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[portfolio]
# Dividend withholding tax by the paying company's country, as fractions: 15.4 % for
# Korean dividends to residents, 15 % for US dividends under the Korea–US treaty.
withholding_kr = "{kr}"
withholding_us = "{us}"
# Memory for performance results kept between reads (each portfolio's daily values
# and holdings), in MB; 0 recomputes everything on every read.
derived_cache_mb = {cache}
"#,
            kr = self.withholding_kr,
            us = self.withholding_us,
            cache = self.derived_cache_mb,
        )
    }
}
