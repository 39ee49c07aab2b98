//! Tests of the tokenizer and the query parser.
