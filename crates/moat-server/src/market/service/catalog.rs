//! The catalogue: the instruments and their search index, looked up by id and
//! reloaded when another process imports instruments.

use std::{collections::HashMap, sync::Arc};

use moat_market::{search::SearchIndex, Instrument, InstrumentId};

use super::MarketService;
use crate::http::error::{ApiError, ErrorCode, FieldError};

/// The instruments and their search index, replaced as a whole when they change.
pub struct Catalog {
    pub by_id: HashMap<InstrumentId, Arc<Instrument>>,
    pub index: SearchIndex,
}

impl Catalog {
    pub(super) fn new(instruments: Vec<Instrument>) -> Self {
        let all: Vec<Arc<Instrument>> = instruments.into_iter().map(Arc::new).collect();
        Self {
            index: SearchIndex::new(all.iter().cloned()),
            by_id: all.into_iter().map(|i| (i.id.clone(), i)).collect(),
        }
    }
}

impl MarketService {
    pub fn catalog(&self) -> Arc<Catalog> {
        self.catalog
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn instrument(&self, id: &InstrumentId) -> Option<Arc<Instrument>> {
        self.catalog().by_id.get(id).cloned()
    }

    /// The instrument a request names by its raw id (`KRX:005930`): `invalid_parameter`
    /// when the id is malformed, 404 when the catalogue has no such instrument.
    pub fn find(&self, raw: &str) -> Result<Arc<Instrument>, ApiError> {
        let id: InstrumentId = raw.parse().map_err(|e: moat_market::ParseIdError| {
            ApiError::invalid_parameter("id", FieldError::new(ErrorCode::InvalidId, e.to_string()))
        })?;
        self.instrument(&id)
            .ok_or_else(|| ApiError::not_found(format!("There is no instrument {id}.")))
    }

    /// Reloads the catalogue when the stored instruments differ from it (an operator
    /// ran `moat import instruments` against this database). Returns whether it did.
    pub async fn refresh_catalog(&self) -> anyhow::Result<bool> {
        let stored = self.storage.list_instruments().await?;
        let catalog = self.catalog();
        let same = stored.len() == catalog.by_id.len()
            && stored
                .iter()
                .all(|i| catalog.by_id.get(&i.id).is_some_and(|c| **c == *i));
        if same {
            return Ok(false);
        }
        tracing::info!(
            instruments = stored.len(),
            "instruments changed: search rebuilt"
        );
        *self.catalog.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Catalog::new(stored));
        Ok(true)
    }
}
