//! The feed parser against small fixtures of our own (tests/fixtures) and the real SEC
//! feeds of the workplace (../shared/data/fixtures/sec, skipped when absent).

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use moat_news::parse::{generate_guid, MAX_ITEMS_PER_FEED, SUMMARY_MAX_CHARS};
use moat_news::{parse_feed, FeedItem, ParseContext, ParseError, ParsedFeed};

const FEED_URL: &str = "https://feeds.example.com/feed.xml";

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0)
        .single()
        .expect("a valid date")
}

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("a test date")
        .with_timezone(&Utc)
}

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(name: &str, country: &str) -> ParsedFeed {
    parse_feed(&fixture(name), FEED_URL, &ParseContext::new(country, now()))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn item<'a>(feed: &'a ParsedFeed, guid: &str) -> &'a FeedItem {
    feed.items
        .iter()
        .find(|i| i.guid == guid)
        .unwrap_or_else(|| panic!("no item {guid}"))
}

#[test]
fn a_korean_rss_feed_gives_clean_items() {
    let feed = parse("rss2-ko.xml", "KR");
    assert_eq!(feed.title, "한국경제 | 전체뉴스");
    assert_eq!(feed.items.len(), 3);

    let first = item(&feed, "hk-2026112812345");
    assert_eq!(
        first.title,
        "삼성전자, HBM3E 12단 엔비디아 공급 확정…주가 5% 급등"
    );
    assert_eq!(
        first.summary,
        "삼성전자(005930)가 엔비디아에 HBM3E 12단 제품을 공급한다. 28일 유가증권시장에서 삼성전자는 5% 올랐다."
    );
    assert!(
        !first.summary.contains("track"),
        "script contents are dropped"
    );
    assert_eq!(
        first.url.as_deref(),
        Some("https://www.hankyung.com/article/2026112812345?utm_source=rss&utm_medium=feed"),
        "the original URL is kept; canonical_url is the dedup key"
    );
    assert_eq!(first.published_at, Some(utc("2026-11-28T00:30:00Z")));
    assert_eq!(
        first.image_url.as_deref(),
        Some("https://img.hankyung.com/photo/202611/AA.123.jpg")
    );

    let second = item(&feed, "hk-2026112812346");
    assert_eq!(second.title, "SK하이닉스 & LG에너지솔루션 \"동반 강세\"");
    assert_eq!(
        second.image_url.as_deref(),
        Some("https://img.hankyung.com/photo/202611/BB.456.png"),
        "an image enclosure"
    );

    let third = item(&feed, "hk-2026112812347");
    assert_eq!(
        third.url.as_deref(),
        Some("https://feeds.example.com/article/2026112812347"),
        "resolved against the feed URL"
    );
    assert_eq!(
        third.image_url.as_deref(),
        Some("https://img.hankyung.com/photo/202611/CC.789.jpg"),
        "a media:thumbnail"
    );
}

#[test]
fn an_euc_kr_feed_decodes_from_its_bytes() {
    let bytes = fixture("euc-kr.xml");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture really is EUC-KR"
    );
    let feed = parse("euc-kr.xml", "KR");
    assert_eq!(feed.title, "머니투데이 증권");
    assert_eq!(
        feed.items[0].title,
        "현대차, 3분기 영업이익 3조원 돌파…기아도 선방"
    );
    assert!(feed.items[0]
        .summary
        .starts_with("현대자동차가 3분기 사상 최대 실적을 냈다."));
    assert_eq!(
        feed.items[0].published_at,
        Some(utc("2026-11-27T23:00:00Z"))
    );
}

#[test]
fn an_iso_8859_1_edgar_feed_decodes_and_carries_accession_numbers() {
    // Its first entry has EDGAR's `<content type="text/xml">`, which feed-rs rejects.
    let bytes = fixture("iso-8859-1.xml");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture really is ISO-8859-1"
    );
    let feed = parse("iso-8859-1.xml", "US");
    assert_eq!(feed.title, "Latest Filings - Société Générale");
    let filer = &feed.items[0];
    assert_eq!(
        filer.title,
        "8-K - Café Société Holdings (0001234567) (Filer)"
    );
    assert!(filer.summary.ends_with("302 KB £"), "{}", filer.summary);
    assert_eq!(filer.accession.as_deref(), Some("0001628280-26-063717"));
    assert_eq!(
        filer.published_at,
        Some(utc("2026-11-27T21:05:12Z")),
        "Atom's updated when nothing is published"
    );
    assert_eq!(
        moat_news::cik_from_edgar(&filer.title, filer.url.as_deref().unwrap_or_default()),
        Some(1234567)
    );
    // The Subject entry of the same filing has the same accession: one story.
    assert_eq!(feed.items[1].accession, filer.accession);
}

#[test]
fn an_atom_feed_prefers_the_alternate_link_and_the_published_date() {
    let feed = parse("atom.xml", "US");
    assert_eq!(feed.title, "Example Markets");
    let apple = item(&feed, "tag:example.com,2026:apple-beats");
    assert_eq!(apple.title, "Apple (NASDAQ: AAPL) beats & raises");
    assert_eq!(
        apple.url.as_deref(),
        Some("https://blog.example.com/news/apple-beats.html"),
        "xml:base + rel=alternate, not rel=edit"
    );
    assert_eq!(apple.published_at, Some(utc("2026-11-28T14:00:00Z")));
    assert_eq!(
        apple.summary, "Apple reported record iPhone revenue.",
        "content when no summary; style dropped"
    );
    let plain = item(&feed, "tag:example.com,2026:only-updated");
    assert_eq!(plain.summary, "Plain summary & more.");
}

#[test]
fn a_json_feed_is_read_too() {
    let feed = parse("feed.json", "US");
    assert_eq!(feed.title, "JSON Markets");
    let first = item(&feed, "json-1");
    assert_eq!(first.title, "NVIDIA $NVDA hits a record");
    assert_eq!(first.summary, "Shares of NVIDIA rose 4%.");
    assert_eq!(
        first.url.as_deref(),
        Some("https://json.example.com/posts/1")
    );
    let second = item(&feed, "json-2");
    assert_eq!(second.url, None, "javascript: is not a link");
    assert_eq!(second.summary, "Plain text: 5 < 6 & it stays.");
    assert_eq!(second.published_at, Some(utc("2026-11-28T06:00:00Z")));
}

#[test]
fn zone_less_dates_are_seoul_time_in_korean_feeds_and_utc_elsewhere() {
    let kr = parse("kst-zoneless.xml", "KR");
    assert_eq!(
        item(&kr, "coin-1").published_at,
        Some(utc("2026-11-28T00:30:00Z"))
    );
    assert_eq!(
        item(&kr, "coin-2").published_at,
        Some(utc("2026-11-27T22:00:00Z"))
    );
    assert_eq!(
        item(&kr, "coin-3").published_at,
        None,
        "an unreadable date is unknown, not now"
    );
    let us = parse("kst-zoneless.xml", "US");
    assert_eq!(
        item(&us, "coin-1").published_at,
        Some(utc("2026-11-28T09:30:00Z"))
    );
}

#[test]
fn items_without_guid_or_link_get_a_stable_id_of_ours() {
    let first = parse("no-guid-no-link.xml", "KR");
    let again = parse("no-guid-no-link.xml", "KR");
    let ids: Vec<&str> = first.items.iter().map(|i| i.guid.as_str()).collect();
    assert_eq!(
        ids,
        again
            .items
            .iter()
            .map(|i| i.guid.as_str())
            .collect::<Vec<_>>(),
        "the same ids on every poll"
    );
    assert!(
        ids.iter()
            .all(|id| id.starts_with("moat:") && id.len() == 5 + 64),
        "{ids:?}"
    );
    assert_ne!(
        ids[0], ids[1],
        "same title, different dates: different items"
    );
    assert_eq!(
        first.items[0].title, first.items[1].title,
        "whitespace is collapsed in titles"
    );
    assert_eq!(
        ids[0],
        generate_guid(
            FEED_URL,
            "[기재정정] 주요사항보고서",
            Some(utc("2026-11-28T00:00:00Z"))
        ),
        "feed URL + normalised title + date"
    );
    let elsewhere = parse_feed(
        &fixture("no-guid-no-link.xml"),
        "https://other.example.com/rss",
        &ParseContext::new("KR", now()),
    )
    .expect("parses");
    assert_ne!(
        elsewhere.items[0].guid, ids[0],
        "another feed's item is another item"
    );
    assert!(first.items.iter().all(|i| i.url.is_none()));
}

#[test]
fn malicious_markup_and_links_never_survive() {
    let feed = parse("malicious.xml", "US");
    assert_eq!(feed.title, "Evil feed");
    for item in &feed.items {
        for text in [&item.title, &item.summary] {
            assert!(!text.contains('<') && !text.contains('>'), "{text:?}");
            for word in [
                "script",
                "onerror",
                "onload",
                "onclick",
                "alert",
                "javascript",
                "display:none",
            ] {
                assert!(!text.contains(word), "{word} in {text:?}");
            }
        }
        if let Some(url) = &item.url {
            assert!(
                url.starts_with("https://") || url.starts_with("http://"),
                "{url}"
            );
        }
        assert!(item.image_url.is_none(), "javascript: is no image");
    }
    let img = item(&feed, "evil-1");
    assert_eq!(
        img.title, "click me",
        "a title that was only an <img> is empty: the summary stands in"
    );
    assert_eq!(img.url, None, "javascript: link dropped");
    assert_eq!(img.summary, "click me");
    let tom = item(&feed, "evil-2");
    assert_eq!(
        tom.title, "Tom & Jerry",
        "double-escaped script removed, the rest kept"
    );
    assert_eq!(tom.url, None, "data: link dropped");
    assert_eq!(tom.summary, "Safe text");
}

#[test]
fn dates_far_ahead_are_clamped_and_epoch_dates_are_unknown() {
    let feed = parse("malicious.xml", "US");
    let future = item(&feed, "evil-3");
    assert_eq!(future.published_at, Some(now()));
    assert!(future.date_clamped);
    let epoch = item(&feed, "evil-4");
    assert_eq!(
        epoch.published_at, None,
        "1970: the caller uses the fetch time"
    );
    assert!(!epoch.date_clamped);
    let ahead = item(&feed, "evil-5");
    assert_eq!(
        ahead.published_at,
        Some(utc("2026-11-28T20:00:00Z")),
        "within a day ahead is kept (clock skew)"
    );
    assert!(!ahead.date_clamped);
    // The id of a clamped item does not move with the clock.
    let later = parse_feed(
        &fixture("malicious.xml"),
        FEED_URL,
        &ParseContext::new("US", now() + chrono::Duration::hours(1)),
    )
    .expect("parses");
    assert_eq!(
        later.items.iter().map(|i| &i.guid).collect::<Vec<_>>(),
        feed.items.iter().map(|i| &i.guid).collect::<Vec<_>>()
    );
}

#[test]
fn what_is_not_a_feed_is_told_apart_from_a_broken_feed() {
    let ctx = ParseContext::new("KR", now());
    let not_feeds: [(&str, &[u8]); 6] = [
        ("empty", b""),
        ("blank", b"  \n\t "),
        ("html page", &fixture("html-page.html")),
        (
            "html without doctype",
            b"<html><body><p>hi</p></body></html>",
        ),
        (
            "other xml",
            b"<?xml version=\"1.0\"?><sitemapindex><sitemap/></sitemapindex>",
        ),
        ("other json", b"{\"error\": \"rate limited\"}"),
    ];
    for (what, bytes) in not_feeds {
        assert!(
            matches!(
                parse_feed(bytes, FEED_URL, &ctx),
                Err(ParseError::NotAFeed(_))
            ),
            "{what}"
        );
    }
    let broken: [(&str, &[u8]); 3] = [
        ("truncated rss", &fixture("truncated.xml")),
        (
            "broken json feed",
            b"{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [ {",
        ),
        (
            "bad nesting",
            b"<rss version=\"2.0\"><channel><item><title>x</item></title></channel></rss>",
        ),
    ];
    for (what, bytes) in broken {
        let result = parse_feed(bytes, FEED_URL, &ctx);
        assert!(
            matches!(result, Err(ParseError::Malformed(_))),
            "{what}: {result:?}"
        );
    }
}

#[test]
fn a_feed_keeps_at_most_its_first_500_items_and_summaries_are_capped() {
    let long = "가나다 ".repeat(200);
    let items: String = (0..MAX_ITEMS_PER_FEED + 20)
        .map(|i| format!("<item><title>기사 {i}</title><guid>g{i}</guid><description>{long}</description></item>"))
        .collect();
    let xml = format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>big</title>{items}</channel></rss>");
    let feed =
        parse_feed(xml.as_bytes(), FEED_URL, &ParseContext::new("KR", now())).expect("parses");
    assert_eq!(feed.items.len(), MAX_ITEMS_PER_FEED);
    assert_eq!(feed.items_dropped, 20);
    assert_eq!(feed.items[0].guid, "g0");
    assert_eq!(
        feed.items[MAX_ITEMS_PER_FEED - 1].guid,
        format!("g{}", MAX_ITEMS_PER_FEED - 1)
    );
    let summary = &feed.items[0].summary;
    assert_eq!(summary.chars().count(), SUMMARY_MAX_CHARS);
    assert!(summary.ends_with('…'));
}

fn shared_sec_fixtures() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/fixtures/sec");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "skipped: {} is absent (the workplace's shared data)",
            dir.display()
        );
        None
    }
}

#[test]
fn the_real_sec_atom_feeds_parse_with_accessions_and_ciks() {
    let Some(dir) = shared_sec_fixtures() else {
        return;
    };
    for name in ["atom.xml", "atom1.xml"] {
        let bytes = std::fs::read(dir.join(name)).expect("readable");
        let feed = parse_feed(
            &bytes,
            "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany",
            &ParseContext::new("US", now()),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!feed.items.is_empty(), "{name}");
        for item in &feed.items {
            let accession = item
                .accession
                .as_deref()
                .unwrap_or_else(|| panic!("{name}: {} has no accession", item.guid));
            assert_eq!(accession.len(), 20, "{accession}");
            assert!(item.guid.ends_with(accession), "{}", item.guid);
            let url = item.url.as_deref().expect("a filing link");
            assert!(
                url.starts_with("https://www.sec.gov/Archives/edgar/data/"),
                "{url}"
            );
            assert!(
                moat_news::cik_from_edgar(&item.title, url).is_some(),
                "{url}"
            );
            assert!(item.published_at.is_some(), "{name}: {}", item.guid);
            assert!(
                !item.title.is_empty() && !item.summary.contains('<'),
                "{:?}",
                item.summary
            );
        }
    }
    let bytes = std::fs::read(dir.join("atom1.xml")).expect("readable");
    let feed = parse_feed(
        &bytes,
        "https://www.sec.gov/",
        &ParseContext::new("US", now()),
    )
    .expect("parses");
    let first = item(
        &feed,
        "urn:tag:sec.gov,2008:accession-number=0001213900-25-006497",
    );
    assert_eq!(first.accession.as_deref(), Some("0001213900-25-006497"));
    assert_eq!(first.title, "8-K - Current report");
    assert!(
        first
            .summary
            .starts_with("Filed: 2025-01-24 AccNo: 0001213900-25-006497 Size: 302 KB Item 1.01"),
        "{}",
        first.summary
    );
    assert_eq!(first.published_at, Some(utc("2025-01-24T21:00:43Z")));
    assert_eq!(
        moat_news::cik_from_edgar(&first.title, first.url.as_deref().unwrap_or_default()),
        Some(1889983)
    );
}

#[test]
fn the_real_sec_press_release_feeds_parse() {
    let Some(dir) = shared_sec_fixtures() else {
        return;
    };
    for name in ["pressreleases.rss", "testimony.rss"] {
        let bytes = std::fs::read(dir.join(name)).expect("readable");
        let feed = parse_feed(
            &bytes,
            "https://www.sec.gov/news/pressreleases.rss",
            &ParseContext::new("US", now()),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(feed.items.len(), 25, "{name}");
        for item in &feed.items {
            assert!(
                !item.title.is_empty() && item.title == item.title.trim(),
                "{:?}",
                item.title
            );
            assert!(
                item.url
                    .as_deref()
                    .is_some_and(|u| u.starts_with("https://www.sec.gov/")),
                "{:?}",
                item.url
            );
            assert!(item.published_at.is_some(), "{}", item.title);
            assert!(
                !item.summary.contains("&nbsp;") && !item.summary.contains('<'),
                "{:?}",
                item.summary
            );
            assert!(item.summary.chars().count() <= SUMMARY_MAX_CHARS);
            assert_eq!(item.accession, None, "press releases are not filings");
        }
    }
    let bytes = std::fs::read(dir.join("pressreleases.rss")).expect("readable");
    let feed = parse_feed(
        &bytes,
        "https://www.sec.gov/news/pressreleases.rss",
        &ParseContext::new("US", now()),
    )
    .expect("parses");
    let first = &feed.items[0];
    assert_eq!(
        first.title,
        "Acting Chairman Mark T. Uyeda Names Acting Senior Staff"
    );
    assert_eq!(first.guid, "ec1b9af9-5a0f-44b3-83c6-adc75a33096d");
    assert_eq!(first.published_at, Some(utc("2025-01-24T16:00:00Z")));
    assert!(
        first.summary.contains("Uyeda’s selections"),
        "{}",
        first.summary
    );
}

#[test]
fn an_item_without_a_title_takes_the_start_of_its_summary() {
    let long = "코스피가 외국인 순매수에 힘입어 2% 올랐다. ".repeat(10);
    let xml = format!(
        "<rss version=\"2.0\"><channel><title>t</title><item><description>{long}</description><guid>a</guid></item><item><guid>b</guid></item></channel></rss>"
    );
    let feed =
        parse_feed(xml.as_bytes(), FEED_URL, &ParseContext::new("KR", now())).expect("parses");
    let title = &feed.items[0].title;
    assert!(title.starts_with("코스피가 외국인 순매수에"), "{title}");
    let kept = title.chars().count();
    assert!(
        kept <= moat_news::parse::TITLE_FROM_SUMMARY_CHARS,
        "{kept}: {title}"
    );
    assert!(
        kept >= moat_news::parse::TITLE_FROM_SUMMARY_CHARS - 2,
        "{kept}: {title}"
    );
    assert!(title.ends_with('…'));
    assert_eq!(feed.items[1].title, "", "nothing to show");
}

#[test]
fn rss_without_a_version_or_with_an_odd_one_is_still_rss() {
    let ctx = ParseContext::new("KR", now());
    for root in [
        "<rss>",
        "<rss version=\"2.00\">",
        "<rss version='2.0.1' xmlns:dc=\"http://purl.org/dc/elements/1.1/\">",
    ] {
        let xml = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>{root}<channel><title>t</title><item><title>기사</title><guid>g1</guid></item></channel></rss>");
        let feed =
            parse_feed(xml.as_bytes(), FEED_URL, &ctx).unwrap_or_else(|e| panic!("{root}: {e}"));
        assert_eq!(feed.items.len(), 1, "{root}");
        assert_eq!(feed.items[0].title, "기사");
    }
}

#[test]
fn throughput_of_a_feed_of_full_articles() {
    let article = "<p>삼성전자가 <b>HBM3E</b> 12단 제품을 <a href=\"https://x.example/\">엔비디아</a>에 공급한다. 28일 유가증권시장에서 삼성전자는 5% 올랐다.</p>\n".repeat(150);
    let items: String = (0..MAX_ITEMS_PER_FEED)
        .map(|i| {
            format!(
                "<item><title>기사 {i}</title><guid>g{i}</guid><link>https://x.example/{i}</link><description><![CDATA[{article}]]></description><pubDate>Sat, 28 Nov 2026 09:30:00 +0900</pubDate></item>"
            )
        })
        .collect();
    let xml = format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>big</title>{items}</channel></rss>");
    let started = std::time::Instant::now();
    let feed =
        parse_feed(xml.as_bytes(), FEED_URL, &ParseContext::new("KR", now())).expect("parses");
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "parse: {} items, {:.1} MB of full articles in {:.0} ms ({:.0} items/s)",
        feed.items.len(),
        xml.len() as f64 / 1e6,
        elapsed * 1e3,
        feed.items.len() as f64 / elapsed
    );
    assert!(feed
        .items
        .iter()
        .all(|i| i.summary.chars().count() == SUMMARY_MAX_CHARS));
}
