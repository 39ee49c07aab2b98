//! What the ingest drops (spec §8), mirroring the browser's own ignore lists: errors
//! that are noise (network failures, aborted requests, service workers, browser
//! extensions, chunk loading, the ResizeObserver notice, memory and quota, the
//! Korean invalid-session message) and everything sent by search-engine crawlers.
//! The browser filters first; the server applies the same list again because any
//! client can post to the ingest. This is the one place the list lives.

/// One kind of noise: an error is dropped when its message (or, for extensions, any
/// of its URLs) contains one of the `patterns`, compared in lower case; a pattern
/// starting with `=` must be the whole (trimmed) message.
#[derive(Debug)]
pub struct DropRule {
    pub name: &'static str,
    pub patterns: &'static [&'static str],
    /// Also match the error's source URL and stack frame files (extensions).
    pub match_urls: bool,
}

/// Error drop rules (spec §8), in the spec's order.
pub const ERROR_RULES: &[DropRule] = &[
    DropRule {
        name: "failed_fetch",
        patterns: &[
            "failed to fetch",
            "networkerror when attempting to fetch resource",
            "load failed",
        ],
        match_urls: false,
    },
    DropRule {
        name: "network_request_failed",
        patterns: &["network request failed", "network error"],
        match_urls: false,
    },
    DropRule {
        name: "aborted_or_cancelled",
        patterns: &[
            "aborterror",
            "the operation was aborted",
            "the user aborted a request",
            "request aborted",
            "signal is aborted",
            "cancelederror",
            "request cancelled",
            "request canceled",
            "=cancelled",
            "=canceled",
            // iOS Safari in Korean names a cancelled fetch "취소됨".
            "=취소됨",
        ],
        match_urls: false,
    },
    DropRule {
        name: "service_worker",
        patterns: &["serviceworker", "service worker"],
        match_urls: false,
    },
    DropRule {
        name: "browser_extension",
        patterns: &[
            "chrome-extension://",
            "moz-extension://",
            "safari-extension://",
            "safari-web-extension://",
            "ms-browser-extension://",
            "webkit-masked-url://",
        ],
        match_urls: true,
    },
    DropRule {
        name: "chunk_load",
        patterns: &[
            "chunkloaderror",
            "loading chunk",
            "loading css chunk",
            "failed to fetch dynamically imported module",
            "error loading dynamically imported module",
            "importing a module script failed",
        ],
        match_urls: false,
    },
    DropRule {
        name: "resize_observer",
        patterns: &["resizeobserver loop"],
        match_urls: false,
    },
    DropRule {
        name: "memory_or_quota",
        patterns: &[
            "out of memory",
            "quotaexceedederror",
            "quota exceeded",
            "exceeded the quota",
        ],
        match_urls: false,
    },
    DropRule {
        name: "invalid_session_ko",
        // "유효하지 않은 세션" (invalid session) and its sentence form.
        patterns: &["유효하지 않은 세션", "세션이 유효하지 않"],
        match_urls: false,
    },
];

/// User-agent fragments of search-engine crawlers and ad bots (lower case): Naver's
/// Yeti, Google's crawlers, Bing, Daum, Baidu, Yandex, DuckDuckGo, Apple.
pub const CRAWLER_AGENTS: &[&str] = &[
    "yeti",
    "googlebot",
    "adsbot-google",
    "mediapartners-google",
    "google-inspectiontool",
    "bingbot",
    "daumoa",
    "baiduspider",
    "yandexbot",
    "duckduckbot",
    "applebot",
];

/// The rule an error breaks, if any. `urls` are its source and stack file names.
pub fn error_rule<'a>(
    message: &str,
    urls: impl IntoIterator<Item = &'a str>,
) -> Option<&'static str> {
    let message = message.to_lowercase();
    let urls: Vec<String> = urls.into_iter().map(str::to_lowercase).collect();
    ERROR_RULES
        .iter()
        .find(|rule| {
            rule.patterns.iter().any(|p| match p.strip_prefix('=') {
                Some(whole) => message.trim() == whole,
                None => {
                    message.contains(p) || (rule.match_urls && urls.iter().any(|u| u.contains(p)))
                }
            })
        })
        .map(|rule| rule.name)
}

/// True for a crawler's user agent: everything it sends is dropped.
pub fn is_crawler(user_agent: &str) -> bool {
    let ua = user_agent.to_lowercase();
    CRAWLER_AGENTS.iter().any(|c| ua.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(message: &str) -> Option<&'static str> {
        error_rule(message, [])
    }

    #[test]
    fn failed_fetch() {
        assert_eq!(dropped("TypeError: Failed to fetch"), Some("failed_fetch"));
        assert_eq!(
            dropped("NetworkError when attempting to fetch resource."),
            Some("failed_fetch")
        );
        assert_eq!(dropped("TypeError: Load failed"), Some("failed_fetch"));
    }

    #[test]
    fn network_request_failed() {
        assert_eq!(
            dropped("Network request failed"),
            Some("network_request_failed")
        );
    }

    #[test]
    fn aborted_or_cancelled() {
        for m in [
            "AbortError: The operation was aborted.",
            "The user aborted a request.",
            "Request aborted",
            "cancelled",
            "canceled",
            "CanceledError: canceled",
            "취소됨",
            "signal is aborted without reason",
        ] {
            assert_eq!(dropped(m), Some("aborted_or_cancelled"), "{m}");
        }
    }

    #[test]
    fn service_worker() {
        assert_eq!(
            dropped("Failed to register a ServiceWorker for scope"),
            Some("service_worker")
        );
        assert_eq!(
            dropped("service worker navigation preload"),
            Some("service_worker")
        );
    }

    #[test]
    fn browser_extension() {
        assert_eq!(
            error_rule(
                "Cannot read properties of undefined",
                ["chrome-extension://abcdef/content.js"]
            ),
            Some("browser_extension")
        );
        assert_eq!(
            dropped("Error in moz-extension://x/y.js"),
            Some("browser_extension")
        );
        assert_eq!(
            error_rule("x is not defined", ["safari-web-extension://id/script.js"]),
            Some("browser_extension")
        );
    }

    #[test]
    fn chunk_load() {
        for m in [
            "ChunkLoadError: Loading chunk 42 failed.",
            "Loading CSS chunk 7 failed",
            "Failed to fetch dynamically imported module: https://moat.example/assets/x.js",
            "Importing a module script failed.",
        ] {
            // "Failed to fetch dynamically…" is also a failed fetch: either rule drops it.
            assert!(dropped(m).is_some(), "{m}");
        }
        assert_eq!(
            dropped("ChunkLoadError: Loading chunk 42 failed."),
            Some("chunk_load")
        );
    }

    #[test]
    fn resize_observer() {
        assert_eq!(
            dropped("ResizeObserver loop limit exceeded"),
            Some("resize_observer")
        );
        assert_eq!(
            dropped("ResizeObserver loop completed with undelivered notifications."),
            Some("resize_observer")
        );
    }

    #[test]
    fn memory_or_quota() {
        assert_eq!(dropped("Out of memory"), Some("memory_or_quota"));
        assert_eq!(
            dropped("QuotaExceededError: The quota has been exceeded."),
            Some("memory_or_quota")
        );
        assert_eq!(
            dropped(
                "Failed to execute 'setItem' on 'Storage': Setting the value exceeded the quota."
            ),
            Some("memory_or_quota")
        );
    }

    #[test]
    fn invalid_session_ko() {
        assert_eq!(
            dropped("유효하지 않은 세션입니다."),
            Some("invalid_session_ko")
        );
        assert_eq!(
            dropped("세션이 유효하지 않습니다"),
            Some("invalid_session_ko")
        );
    }

    #[test]
    fn every_rule_has_a_test_above() {
        let names: Vec<_> = ERROR_RULES.iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            [
                "failed_fetch",
                "network_request_failed",
                "aborted_or_cancelled",
                "service_worker",
                "browser_extension",
                "chunk_load",
                "resize_observer",
                "memory_or_quota",
                "invalid_session_ko",
            ]
        );
    }

    #[test]
    fn real_errors_are_kept() {
        for m in [
            "TypeError: Cannot read properties of undefined (reading 'price')",
            "ReferenceError: portfolio is not defined",
            "Unhandled rejection: 500 Internal Server Error",
            "Order was cancelled by the broker",
        ] {
            assert_eq!(
                error_rule(m, ["https://moat.example/assets/index-abc.js"]),
                None,
                "{m}"
            );
        }
    }

    #[test]
    fn crawlers() {
        for ua in [
            "Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "AdsBot-Google (+http://www.google.com/adsbot.html)",
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "Mozilla/5.0 (compatible; Daumoa/4.0)",
            "Mozilla/5.0 (compatible; Baiduspider/2.0)",
            "Mozilla/5.0 (compatible; YandexBot/3.0)",
            "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
            "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Applebot/0.1",
            "Mediapartners-Google",
        ] {
            assert!(is_crawler(ua), "{ua}");
        }
        assert!(!is_crawler(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 KAKAOTALK"
        ));
        assert!(!is_crawler(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"
        ));
    }
}
