//! The news domain (see the crate description).
