//! The default public feeds, the one-click "use the default feeds" of the operator's
//! page. Nothing here is contacted by this crate.
//!
//! The Korean feeds are the ones the design notes name (a public list verified live on
//! 2026-08-20, and `akngs/knews-rss`'s list) and that several independent projects
//! use with the same URL; outlets whose feed URL varies between sources (이데일리,
//! 서울경제) are left out until someone checks them. One story often appears in several
//! of these feeds: the server merges them by canonical URL and SimHash.

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

const fn kr(url: &'static str, source_name: &'static str) -> DefaultFeed {
    DefaultFeed {
        url,
        source_name,
        country: "KR",
        language: "ko",
    }
}

const fn us(url: &'static str, source_name: &'static str) -> DefaultFeed {
    DefaultFeed {
        url,
        source_name,
        country: "US",
        language: "en",
    }
}

static DEFAULT_FEEDS: &[DefaultFeed] = &[
    kr("https://www.hankyung.com/feed/all-news", "한국경제"),
    kr("https://www.mk.co.kr/rss/30100041/", "매일경제"),
    kr("https://www.mk.co.kr/rss/50200011/", "매일경제"),
    kr("https://www.yna.co.kr/rss/economy.xml", "연합뉴스"),
    kr("https://rss.mt.co.kr/mt_news.xml", "머니투데이"),
    kr("https://newsis.com/RSS/economy.xml", "뉴시스"),
    kr(
        "https://news.einfomax.co.kr/rss/allArticle.xml",
        "연합인포맥스",
    ),
    kr("https://dart.fss.or.kr/api/todayRSS.xml", "DART 전자공시"),
    us(
        "https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=8-K&count=100&output=atom",
        "SEC EDGAR 8-K",
    ),
    us(
        "https://www.sec.gov/news/pressreleases.rss",
        "SEC Press Releases",
    ),
];

/// The default feeds.
pub fn default_feeds() -> &'static [DefaultFeed] {
    DEFAULT_FEEDS
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_default_is_a_distinct_https_feed_of_a_known_country() {
        let mut seen = HashSet::new();
        for feed in default_feeds() {
            assert!(
                crate::canonical::absolute_http_url(feed.url, None).is_some(),
                "{}",
                feed.url
            );
            assert!(feed.url.starts_with("https://"), "{}", feed.url);
            assert!(
                seen.insert(crate::canonical_url(feed.url)),
                "duplicate {}",
                feed.url
            );
            assert!(
                matches!((feed.country, feed.language), ("KR", "ko") | ("US", "en")),
                "{}",
                feed.url
            );
            assert!(!feed.source_name.is_empty());
        }
        assert!(default_feeds()
            .iter()
            .any(|f| f.url.contains("dart.fss.or.kr")));
        assert!(default_feeds().iter().filter(|f| f.country == "US").count() >= 2);
    }
}
