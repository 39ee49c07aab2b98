//! What the ingest drops (spec §8): errors that are noise (network failures, aborted
//! requests, service workers, browser extensions, chunk loading, the ResizeObserver
//! notice, memory and quota, the Korean invalid-session message, native bridge
//! messages) and everything sent by search-engine crawlers. The browser filters first;
//! the server applies the same list again because any client can post to the ingest.
//!
//! The list is one file, `web/src/app/observability/drop-list.json`, which the web app
//! imports and this module includes: rules of regular expressions in the syntax
//! JavaScript and the `regex` crate share, matched case-insensitively and unanchored.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

/// The shared list, as written.
const DROP_LIST_JSON: &str = include_str!("../../../../web/src/app/observability/drop-list.json");

/// What a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Field {
    /// The error's message (the recorder's `event`).
    Message,
    /// The message, the error's source or a stack frame's file.
    Any,
    /// The user agent of the request that carried the data.
    UserAgent,
}

#[derive(Debug, Deserialize)]
struct RuleSource {
    name: String,
    field: Field,
    patterns: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    drops: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ListSource {
    rules: Vec<RuleSource>,
    #[cfg_attr(not(test), allow(dead_code))]
    keeps: Vec<String>,
}

/// One kind of noise: its name (as in the browser), the field it reads and its
/// patterns, compiled into one case-insensitive expression.
#[derive(Debug)]
pub struct DropRule {
    pub name: String,
    pub field: Field,
    matcher: Regex,
}

impl DropRule {
    pub fn matches(&self, text: &str) -> bool {
        self.matcher.is_match(text)
    }
}

fn compile(patterns: &[String]) -> Regex {
    let joined = patterns
        .iter()
        .map(|p| format!("(?:{p})"))
        .collect::<Vec<_>>()
        .join("|");
    RegexBuilder::new(&joined)
        .case_insensitive(true)
        .build()
        .unwrap_or_else(|e| panic!("drop-list.json: pattern {joined:?}: {e}"))
}

static SOURCE: LazyLock<ListSource> = LazyLock::new(|| {
    serde_json::from_str(DROP_LIST_JSON).expect("drop-list.json is the drop list")
});

/// The rules of the shared list, in its order (the first that matches names the drop).
pub static RULES: LazyLock<Vec<DropRule>> = LazyLock::new(|| {
    SOURCE
        .rules
        .iter()
        .map(|r| DropRule {
            name: r.name.clone(),
            field: r.field,
            matcher: compile(&r.patterns),
        })
        .collect()
});

/// The rule an error breaks, if any. `urls` are its source and stack file names.
pub fn error_rule<'a>(
    message: &str,
    urls: impl IntoIterator<Item = &'a str>,
) -> Option<&'static str> {
    let urls: Vec<&str> = urls.into_iter().collect();
    RULES
        .iter()
        .find(|rule| match rule.field {
            Field::Message => rule.matches(message),
            Field::Any => rule.matches(message) || urls.iter().any(|u| rule.matches(u)),
            Field::UserAgent => false,
        })
        .map(|rule| rule.name.as_str())
}

/// True for a crawler's user agent: everything it sends is dropped.
pub fn is_crawler(user_agent: &str) -> bool {
    RULES
        .iter()
        .any(|rule| rule.field == Field::UserAgent && rule.matches(user_agent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_drops_each_of_its_samples() {
        for (rule, source) in RULES.iter().zip(&SOURCE.rules) {
            assert!(!source.drops.is_empty(), "{}: no samples", rule.name);
            for sample in &source.drops {
                let dropped = match rule.field {
                    Field::UserAgent => is_crawler(sample).then_some(rule.name.as_str()),
                    _ => error_rule(sample, []),
                };
                assert_eq!(dropped, Some(rule.name.as_str()), "{sample}");
            }
        }
    }

    #[test]
    fn every_pattern_is_exercised_by_a_sample() {
        for source in &SOURCE.rules {
            for pattern in &source.patterns {
                let alone = compile(std::slice::from_ref(pattern));
                assert!(
                    source.drops.iter().any(|s| alone.is_match(s)),
                    "{}: no sample for {pattern}",
                    source.name
                );
            }
        }
    }

    #[test]
    fn the_kept_samples_are_kept_in_every_field() {
        assert!(!SOURCE.keeps.is_empty());
        for sample in &SOURCE.keeps {
            assert_eq!(error_rule(sample, [sample.as_str()]), None, "{sample}");
            assert!(!is_crawler(sample), "{sample}");
        }
    }

    #[test]
    fn extensions_are_found_in_stack_files_and_only_extensions() {
        assert_eq!(
            error_rule(
                "Cannot read properties of undefined",
                [
                    "https://moat.example/assets/index-abc.js",
                    "chrome-extension://abcdef/content.js"
                ]
            ),
            Some("browser-extension")
        );
        // A stack file naming a failed fetch is not a failed fetch: only `any` rules read files.
        assert_eq!(
            error_rule(
                "TypeError: x is null",
                ["https://moat.example/Failed to fetch.js"]
            ),
            None
        );
    }

    #[test]
    fn the_recorders_json_encoded_messages_are_matched() {
        assert_eq!(error_rule("\"Failed to fetch\"", []), Some("failed-fetch"));
        assert_eq!(error_rule("\"취소됨\"", []), Some("aborted-request"));
    }

    #[test]
    fn the_list_is_the_browsers_twelve_rules() {
        let names: Vec<_> = RULES.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "chunk-load",
                "service-worker",
                "browser-extension",
                "resize-observer",
                "failed-fetch",
                "network-request-failed",
                "aborted-request",
                "memory-or-quota",
                "invalid-session-ko",
                "native-bridge-focus",
                "native-bridge-json",
                "crawler",
            ]
        );
    }
}
