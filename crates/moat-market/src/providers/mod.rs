//! Adapters for real public sources (being written).
