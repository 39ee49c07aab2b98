//! Feed HTML → plain text.

/// All markup removed (script and style contents dropped), entities decoded,
/// whitespace collapsed and trimmed.
pub fn plain_text(html: &str) -> String {
    let _ = html;
    todo!()
}

/// Cuts `text` to at most `max_chars` characters, the last being "…" when cut.
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    let _ = (text, max_chars);
    todo!()
}
