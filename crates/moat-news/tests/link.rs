//! The instrument linker on a realistic catalogue (instruments of Moat's curated list,
//! their Korean and English names and aliases) and Korean and English headlines.

use std::time::Instant;

use moat_news::link::DEFAULT_AMBIGUOUS;
use moat_news::{known_ciks, Link, LinkEntry, Linker};

fn entry(id: &str, names: &[&str]) -> LinkEntry {
    let (exchange, ticker) = id.split_once(':').expect("EXCHANGE:TICKER");
    let country = if exchange == "KRX" { "KR" } else { "US" };
    let cik = known_ciks()
        .iter()
        .find(|(t, _)| *t == ticker)
        .map(|(_, cik)| *cik);
    LinkEntry {
        instrument_id: id.to_owned(),
        ticker: ticker.to_owned(),
        country: country.to_owned(),
        names: names.iter().map(|n| n.to_string()).collect(),
        cik,
    }
}

fn catalogue() -> Vec<LinkEntry> {
    vec![
        entry(
            "KRX:005930",
            &["삼성전자", "Samsung Electronics", "삼전", "samsung", "삼성"],
        ),
        entry(
            "KRX:005935",
            &["삼성전자우", "Samsung Electronics (Preferred)", "삼전우"],
        ),
        entry(
            "KRX:000660",
            &["SK하이닉스", "SK hynix", "하이닉스", "하닉", "hynix"],
        ),
        entry(
            "KRX:005380",
            &["현대차", "Hyundai Motor", "현대자동차", "hyundai"],
        ),
        entry("KRX:000270", &["기아", "Kia", "기아차"]),
        entry("KRX:035420", &["NAVER", "네이버"]),
        entry("KRX:035720", &["카카오", "Kakao", "카카오톡"]),
        entry("KRX:030200", &["KT", "케이티", "kt corp"]),
        entry("KRX:033780", &["KT&G", "케이티앤지"]),
        entry("KRX:003550", &["LG", "LG Corp.", "엘지"]),
        entry("KRX:066570", &["LG전자", "LG Electronics", "엘지전자"]),
        entry("KRX:0015N0", &["아로마티카", "Aromatica"]),
        entry("NASDAQ:AAPL", &["애플", "Apple", "아이폰", "iphone"]),
        entry(
            "NASDAQ:META",
            &[
                "메타 플랫폼스",
                "Meta Platforms",
                "메타",
                "페이스북",
                "facebook",
                "Meta",
            ],
        ),
        entry("NASDAQ:NVDA", &["엔비디아", "NVIDIA", "젠슨황"]),
        entry("NASDAQ:TSLA", &["테슬라", "Tesla"]),
        entry("NASDAQ:MSFT", &["마이크로소프트", "Microsoft", "ms"]),
        entry(
            "NASDAQ:GOOGL",
            &["알파벳 A", "Alphabet Class A", "구글", "google"],
        ),
        entry("NASDAQ:GOOG", &["알파벳 C", "Alphabet Class C", "google"]),
        entry(
            "NYSE:BRK.B",
            &[
                "버크셔 해서웨이 B",
                "Berkshire Hathaway Class B",
                "버크셔",
                "berkshire",
            ],
        ),
        entry("NYSE:V", &["비자", "Visa"]),
        entry("NYSE:KO", &["코카콜라", "Coca-Cola", "코크", "coke"]),
        entry("NASDAQ:EBAY", &["이베이", "eBay"]),
    ]
}

fn linker() -> Linker {
    Linker::new(catalogue(), DEFAULT_AMBIGUOUS)
}

fn ids(links: &[Link]) -> Vec<&str> {
    links.iter().map(|l| l.instrument_id.as_str()).collect()
}

#[test]
fn korean_headlines_link_their_companies() {
    let linker = linker();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "삼성전자, HBM3E 12단 엔비디아 공급 확정",
            "삼성전자(005930)가 엔비디아에 HBM3E 제품을 공급한다.",
            &["KRX:005930", "NASDAQ:NVDA"],
        ),
        (
            "삼성전자우 4% 강세",
            "우선주가 보통주보다 많이 올랐다.",
            &["KRX:005935"],
        ),
        (
            "삼성전자가 오른 날, SK하이닉스는 내렸다",
            "",
            &["KRX:005930", "KRX:000660"],
        ),
        ("하이닉스·삼전 동반 상승", "", &["KRX:000660", "KRX:005930"]),
        (
            "현대차그룹, 美 관세 대응책 발표",
            "현대자동차와 기아가 공동으로 대응한다.",
            &["KRX:005380", "KRX:000270"],
        ),
        ("기아, 11월 美 판매 신기록", "", &["KRX:000270"]),
        (
            "네이버·카카오, AI 경쟁 본격화",
            "",
            &["KRX:035420", "KRX:035720"],
        ),
        ("KT&G 배당 확대", "KT&G가 배당을 늘린다.", &["KRX:033780"]),
        ("LG전자 목표가 상향", "", &["KRX:066570"]),
        ("코스닥 새내기 0015N0 상장 첫날 급등", "", &["KRX:0015N0"]),
        ("외국인 A005930 순매수", "", &["KRX:005930"]),
        ("애플, 아이폰 판매 부진", "", &["NASDAQ:AAPL"]),
    ];
    for (title, body, want) in cases {
        assert_eq!(ids(&linker.link(title, body)), *want, "title {title:?}");
    }
}

#[test]
fn words_that_merely_contain_a_name_do_not_link() {
    let linker = linker();
    let cases: &[(&str, &str)] = &[
        (
            "애플리케이션 개발자 행사 열려",
            "모바일 애플리케이션 시장이 커졌다.",
        ),
        ("메타버스 열풍 다시 부나", "메타버스 플랫폼이 늘었다."),
        ("Applebee's opens 20 new restaurants", "The chain grew."),
        ("Metadata leak exposes users", "The metadata was public."),
        (
            "apple prices rise on poor harvest",
            "Farmers sold fewer apples.",
        ),
        (
            "Fed holds rates at $100 billion balance-sheet pace",
            "Costs of $5 and $10.50 rose.",
        ),
        ("거래대금 100593012원", "코드 아닌 숫자 10059301"),
        ("Walking the talk", "A talk on stalking."),
    ];
    for (title, body) in cases {
        assert_eq!(
            ids(&linker.link(title, body)),
            Vec::<&str>::new(),
            "title {title:?}"
        );
    }
}

#[test]
fn english_headlines_link_by_name_cashtag_and_ticker() {
    let linker = linker();
    let cases: &[(&str, &str, &[&str])] = &[
        ("Apple unveils a cheaper iPhone", "", &["NASDAQ:AAPL"]),
        (
            "APPLE AND NVIDIA LEAD THE RALLY",
            "",
            &["NASDAQ:AAPL", "NASDAQ:NVDA"],
        ),
        (
            "Apple's services revenue hits a record",
            "",
            &["NASDAQ:AAPL"],
        ),
        (
            "$AAPL and $BRK.B rally after earnings",
            "",
            &["NASDAQ:AAPL", "NYSE:BRK.B"],
        ),
        (
            "Electric cars: a look at the sector",
            "Shares of Tesla (NASDAQ: TSLA) rose.",
            &["NASDAQ:TSLA"],
        ),
        (
            "Electric cars: a look at the sector",
            "Shares rose (TSLA).",
            &["NASDAQ:TSLA"],
        ),
        ("eBay beats estimates", "", &["NASDAQ:EBAY"]),
        (
            "Google and Microsoft expand AI spending",
            "",
            &["NASDAQ:GOOGL", "NASDAQ:GOOG", "NASDAQ:MSFT"],
        ),
    ];
    for (title, body, want) in cases {
        assert_eq!(ids(&linker.link(title, body)), *want, "title {title:?}");
    }
}

#[test]
fn ambiguous_names_need_a_second_signal() {
    let linker = linker();
    let cases: &[(&str, &str, &[&str])] = &[
        // Meta, Visa, coke and KT are ambiguous (the list, or two letters).
        ("Meta launches a new AI model", "The model is open.", &[]),
        (
            "Meta launches a new AI model",
            "Meta said the model is open.",
            &["NASDAQ:META"],
        ),
        (
            "New AI model launched",
            "Meta (META) said the model is open.",
            &["NASDAQ:META"],
        ),
        (
            "Meta Platforms launches a new AI model",
            "",
            &["NASDAQ:META"],
        ),
        (
            "Visa rules tighten for students",
            "Applicants need more documents.",
            &[],
        ),
        (
            "Visa beats estimates",
            "Visa (V) reported higher volumes.",
            &["NYSE:V"],
        ),
        ("Students face new visa rules", "A visa costs more.", &[]),
        (
            "KT, 5G 요금제 개편",
            "KT는 내년부터 요금을 내린다.",
            &["KRX:030200"],
        ),
        ("5G 요금제 개편", "KT는 내년부터 요금을 내린다.", &[]),
        ("통신주 강세", "KT(030200)가 3% 올랐다.", &["KRX:030200"]),
        ("삼성, 인사 단행", "그룹 전반의 세대교체", &[]),
        ("Brokers see upside (V)", "", &[]),
    ];
    for (title, body, want) in cases {
        assert_eq!(
            ids(&linker.link(title, body)),
            *want,
            "title {title:?} body {body:?}"
        );
    }
}

#[test]
fn each_instrument_links_once_and_in_title_says_where() {
    let linker = linker();
    let links = linker.link(
        "증시 마감 시황",
        "삼성전자 삼성전자 005930 A005930 $AAPL Apple 애플",
    );
    assert_eq!(
        links,
        vec![
            Link {
                instrument_id: "KRX:005930".into(),
                in_title: false
            },
            Link {
                instrument_id: "NASDAQ:AAPL".into(),
                in_title: false
            },
        ]
    );
    let links = linker.link("Apple rallies", "Samsung Electronics fell; Apple rose.");
    assert_eq!(
        links,
        vec![
            Link {
                instrument_id: "NASDAQ:AAPL".into(),
                in_title: true
            },
            Link {
                instrument_id: "KRX:005930".into(),
                in_title: false
            },
        ]
    );
    assert!(linker.link("", "").is_empty());
}

#[test]
fn edgar_items_link_by_cik() {
    let linker = linker();
    assert_eq!(
        linker.link_cik(320193),
        vec![Link {
            instrument_id: "NASDAQ:AAPL".into(),
            in_title: true
        }]
    );
    assert_eq!(
        ids(&linker.link_cik(1652044)),
        ["NASDAQ:GOOGL", "NASDAQ:GOOG"],
        "both Alphabet classes"
    );
    assert!(linker.link_cik(1).is_empty());
    let cik =
        moat_news::cik_from_edgar("8-K - Apple Inc. (0000320193) (Filer)", "").expect("a CIK");
    assert_eq!(ids(&linker.link_cik(cik)), ["NASDAQ:AAPL"]);
}

#[test]
fn the_linker_can_be_shared_between_tasks() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<Linker>();
}

#[test]
fn an_empty_catalogue_links_nothing() {
    let linker = Linker::new(Vec::new(), DEFAULT_AMBIGUOUS);
    assert!(linker.is_empty());
    assert!(linker.link("삼성전자 $AAPL 005930", "Apple").is_empty());
}

/// A deterministic generator for the synthetic catalogue.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn throughput_with_10000_instruments() {
    const SYLLABLES: &[&str] = &[
        "한", "국", "대", "신", "성", "진", "화", "동", "세", "원", "코", "스", "텍", "바", "이",
        "오", "파", "마", "에", "너", "지", "솔", "루", "션", "케", "미", "칼", "전", "자", "생",
        "명", "금",
    ];
    const WORDS: &[&str] = &[
        "Acme", "Global", "Pacific", "United", "Quantum", "Vertex", "Nova", "Summit", "Harbor",
        "Atlas", "Pioneer", "Silver", "Northern", "Blue", "Apex", "Crest", "Delta", "Orion",
        "Zenith", "Bright",
    ];
    let mut rng = Lcg(7);
    let mut entries = catalogue();
    for i in 0..10_000 - entries.len() {
        if i % 2 == 0 {
            let name: String = (0..3 + rng.next(3))
                .map(|_| SYLLABLES[rng.next(SYLLABLES.len())])
                .collect();
            entries.push(LinkEntry {
                instrument_id: format!("KRX:{:06}", 100_000 + i),
                ticker: format!("{:06}", 100_000 + i),
                country: "KR".into(),
                names: vec![name],
                cik: None,
            });
        } else {
            let name = format!(
                "{} {} {}",
                WORDS[rng.next(WORDS.len())],
                WORDS[rng.next(WORDS.len())],
                i
            );
            entries.push(LinkEntry {
                instrument_id: format!("NYSE:X{i}"),
                ticker: format!("X{i}"),
                country: "US".into(),
                names: vec![name],
                cik: None,
            });
        }
    }
    let started = Instant::now();
    let linker = Linker::new(entries, DEFAULT_AMBIGUOUS);
    let built = started.elapsed();

    let articles = [
        ("삼성전자, HBM3E 12단 엔비디아 공급 확정…주가 5% 급등", "삼성전자(005930)가 엔비디아에 HBM3E 12단 제품을 공급한다. 28일 유가증권시장에서 삼성전자는 5% 올랐다. SK하이닉스도 2% 상승했다."),
        ("Apple and Tesla lead the Nasdaq higher", "Shares of Apple (NASDAQ: AAPL) rose 3% while $TSLA gained 5%. Microsoft was flat."),
        ("코스피, 외국인 매수에 2% 상승 마감", "코스피가 외국인의 순매수에 힘입어 상승 마감했다. 대형 기술주가 지수를 끌어올렸다."),
        ("현대차그룹, 美 관세 대응책 발표", "현대자동차와 기아가 공동으로 미국 현지 생산을 늘린다."),
    ];
    let rounds = 2_000;
    let started = Instant::now();
    let mut links = 0usize;
    for i in 0..rounds {
        let (title, body) = articles[i % articles.len()];
        links += linker.link(title, body).len();
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "linker, {} instruments: built in {:.0} ms; {rounds} articles in {:.3} s = {:.0} articles/s, {:.0} links/s",
        linker.len(),
        built.as_secs_f64() * 1e3,
        elapsed,
        rounds as f64 / elapsed,
        links as f64 / elapsed,
    );
    assert!(links >= rounds, "every article links something");
}

#[test]
fn capitals_make_names_and_lower_case_makes_words() {
    let linker = linker();
    assert_eq!(
        ids(&linker.link("New iPhone sales beat forecasts", "")),
        ["NASDAQ:AAPL"],
        "iPhone is a name"
    );
    assert_eq!(
        ids(&linker.link("GOOGLE FACES A FINE", "")),
        ["NASDAQ:GOOGL", "NASDAQ:GOOG"]
    );
    assert!(
        linker.link("how to google a phrase", "").is_empty(),
        "lower case: a word"
    );
    assert!(
        linker.link("a can of coke", "Coke sales rose.").is_empty(),
        "coke is ambiguous: needs title and body"
    );
}

/// The curated catalogue of `crates/moat-market` (names and aliases as the server will
/// pass them).
fn curated() -> Vec<LinkEntry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../moat-market/data/instruments.csv");
    let csv = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    csv.lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split(',').collect();
            let (exchange, ticker) = cols[0].split_once(':')?;
            if exchange == "INDEX" || exchange == "FX" || exchange == "CRYPTO" {
                return None;
            }
            let mut names = vec![cols[5].to_owned(), cols[6].to_owned()];
            names.extend(
                cols[11]
                    .split('|')
                    .filter(|a| !a.is_empty())
                    .map(str::to_owned),
            );
            Some(LinkEntry {
                instrument_id: cols[0].to_owned(),
                ticker: ticker.to_owned(),
                country: cols[4].to_owned(),
                names,
                cik: known_ciks()
                    .iter()
                    .find(|(t, _)| *t == ticker)
                    .map(|(_, c)| *c),
            })
        })
        .collect()
}

#[test]
fn the_curated_catalogue_links_headlines_without_false_friends() {
    let linker = Linker::new(curated(), DEFAULT_AMBIGUOUS);
    assert!(linker.len() > 200);
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "한국전력으로 튀는 불똥",
            "한전은 전기요금 인상을 요청했다.",
            &["KRX:015760"],
        ),
        (
            "카카오, 서비스 장애 회고 공개",
            "카카오와 네이버가 데이터센터를 늘린다.",
            &["KRX:035720", "KRX:035420"],
        ),
        ("하나금융지주인가, 정부인가", "", &["KRX:086790"]),
        (
            "엔비디아 RTX 5090 출시",
            "엔비디아가 새 그래픽카드를 내놨다.",
            &["NASDAQ:NVDA"],
        ),
        (
            "중소기업 삼중고…금리·환율·유가",
            "원자재 가격이 삼중으로 부담이다.",
            &[],
        ),
        (
            "금리 인하 기대에 금값 사상 최고",
            "국제 금 가격이 올랐다.",
            &[],
        ),
        (
            "메타버스·애플리케이션 시장 전망",
            "크리스마스 시즌 카이스트 연구진이 스마트시티 리노베이션을 발표했다.",
            &[],
        ),
        ("유한책임회사 설립 급증", "대항 세력도 늘었다.", &[]),
        (
            "Soil erosion threatens farms",
            "How to google a phrase; a can of coke.",
            &[],
        ),
        (
            "Apple and Microsoft lead gains",
            "",
            &["NASDAQ:AAPL", "NASDAQ:MSFT"],
        ),
        (
            "테슬라·엔비디아 급등…나스닥 최고치",
            "",
            &["NASDAQ:TSLA", "NASDAQ:NVDA"],
        ),
        ("삼성전자우 사상 최고가", "", &["KRX:005935"]),
    ];
    for (title, body, want) in cases {
        assert_eq!(
            ids(&linker.link(title, body)),
            *want,
            "title {title:?} body {body:?}"
        );
    }
}
