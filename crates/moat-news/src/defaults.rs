//! The default public feeds.

/// One default feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultFeed {
    pub url: &'static str,
    pub source_name: &'static str,
    /// `KR` or `US`.
    pub country: &'static str,
    /// `ko` or `en`.
    pub language: &'static str,
}

/// The default feeds (nothing here is contacted by this crate).
pub fn default_feeds() -> &'static [DefaultFeed] {
    &[]
}
