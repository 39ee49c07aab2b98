//! Full-text search tokenizer and query parser (see the crate description).
