//! Near-duplicate fingerprints on wire stories and their rewrites.

use moat_news::{bands, hamming, simhash, NEAR_DUP_DISTANCE};

const WIRE_TITLE: &str = "삼성전자, 3분기 영업이익 9조원…반도체 회복에 시장 기대 웃돌아";
const WIRE_SUMMARY: &str = "(서울=연합뉴스) 홍길동 기자 = 삼성전자가 올해 3분기 연결 기준 영업이익이 9조1천억원으로 잠정 집계됐다고 8일 공시했다. 이는 작년 같은 기간보다 274% 증가한 것으로, 시장 전망치 평균을 웃도는 수준이다. 매출은 79조원으로 분기 기준 역대 최대를 기록했다. 고대역폭메모리(HBM) 판매가 늘고 메모리 가격이 오르면서 반도체 부문 실적이 크게 개선된 것으로 분석된다.";

// Another paper's copy of the wire story: its own byline and e-mail, one verb changed
// (two words changed land within 3 only about 60-70 % of the time: see the recall test).
const REWRITE_TITLE: &str = WIRE_TITLE;
const REWRITE_SUMMARY: &str = "[이데일리 김철수 기자] 삼성전자가 올해 3분기 연결 기준 영업이익이 9조1천억원으로 잠정 집계됐다고 8일 밝혔다. 이는 작년 같은 기간보다 274% 증가한 것으로, 시장 전망치 평균을 웃도는 수준이다. 매출은 79조원으로 분기 기준 역대 최대를 기록했다. 고대역폭메모리(HBM) 판매가 늘고 메모리 가격이 오르면서 반도체 부문 실적이 크게 개선된 것으로 분석된다. kim@edaily.co.kr";
// The same copy with only the byline changed.
const REBYLINED_SUMMARY: &str = "[머니투데이 이영희 기자] 삼성전자가 올해 3분기 연결 기준 영업이익이 9조1천억원으로 잠정 집계됐다고 8일 공시했다. 이는 작년 같은 기간보다 274% 증가한 것으로, 시장 전망치 평균을 웃도는 수준이다. 매출은 79조원으로 분기 기준 역대 최대를 기록했다. 고대역폭메모리(HBM) 판매가 늘고 메모리 가격이 오르면서 반도체 부문 실적이 크게 개선된 것으로 분석된다. lee@mt.co.kr";

// Another story about the same company.
const OTHER_TITLE: &str = "삼성전자, 평택 4공장 착공 연기…파운드리 투자 속도 조절";
const OTHER_SUMMARY: &str = "삼성전자가 경기 평택캠퍼스 4공장의 파운드리 라인 착공을 내년으로 미루기로 했다. 주요 고객사의 주문이 예상보다 적고 미국 테일러 공장 가동 일정도 늦어지면서 설비 투자 속도를 조절하려는 것으로 풀이된다. 회사 측은 시장 상황에 따라 투자 시점을 탄력적으로 결정하겠다고 설명했다.";

const EN_WIRE_TITLE: &str = "Apple beats quarterly revenue estimates on strong iPhone demand";
const EN_WIRE_SUMMARY: &str = "Apple on Thursday reported quarterly revenue above Wall Street estimates, helped by strong demand for its latest iPhone models in China and a record quarter for its services business, sending its shares up 3% in extended trading.";
const EN_REWRITE_TITLE: &str = EN_WIRE_TITLE;
const EN_REWRITE_SUMMARY: &str = "By Jane Doe. Apple on Thursday reported quarterly revenue above Wall Street expectations, helped by strong demand for its latest iPhone models in China and a record quarter for its services business, sending its shares up 3% in extended trading.";
const EN_OTHER_TITLE: &str = "Apple faces EU antitrust fine over App Store rules";
const EN_OTHER_SUMMARY: &str = "European Union regulators are set to fine Apple for breaching the bloc's digital competition rules by preventing app developers from steering users to cheaper offers outside the App Store, people familiar with the matter said.";

#[test]
fn the_same_story_under_another_byline_is_the_same_fingerprint() {
    assert_eq!(
        hamming(
            simhash(WIRE_TITLE, WIRE_SUMMARY),
            simhash(WIRE_TITLE, REBYLINED_SUMMARY)
        ),
        0
    );
    let en_bylined = format!("By John Smith. {EN_WIRE_SUMMARY} jsmith@example.com");
    assert_eq!(
        hamming(
            simhash(EN_WIRE_TITLE, EN_WIRE_SUMMARY),
            simhash(EN_WIRE_TITLE, &en_bylined)
        ),
        0
    );
}

#[test]
fn a_lightly_rewritten_wire_story_is_a_near_duplicate() {
    let wire = simhash(WIRE_TITLE, WIRE_SUMMARY);
    let rewrite = simhash(REWRITE_TITLE, REWRITE_SUMMARY);
    let d = hamming(wire, rewrite);
    println!("Korean wire vs rewrite (byline, 1 word): distance {d}");
    assert!(d <= NEAR_DUP_DISTANCE, "distance {d}");
    assert!(
        bands(wire).iter().zip(bands(rewrite)).any(|(a, b)| *a == b),
        "a shared band finds the candidate"
    );

    let en = hamming(
        simhash(EN_WIRE_TITLE, EN_WIRE_SUMMARY),
        simhash(EN_REWRITE_TITLE, EN_REWRITE_SUMMARY),
    );
    println!("English wire vs rewrite (byline, 1 word): distance {en}");
    assert!(en <= NEAR_DUP_DISTANCE, "distance {en}");
}

/// A deterministic generator for the substitutions.
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

/// The share of rewrites with `k` summary words replaced (by words of another story)
/// that stay within [`NEAR_DUP_DISTANCE`], and their mean distance.
fn recall(title: &str, summary: &str, pool: &str, k: usize, rng: &mut Lcg) -> (f64, f64) {
    const TRIALS: usize = 300;
    let words: Vec<&str> = summary.split(' ').collect();
    let pool: Vec<&str> = pool.split(' ').collect();
    let base = simhash(title, summary);
    let (mut within, mut total) = (0usize, 0u32);
    for _ in 0..TRIALS {
        let mut changed = words.clone();
        for _ in 0..k {
            let at = rng.next(changed.len());
            changed[at] = pool[rng.next(pool.len())];
        }
        let d = hamming(base, simhash(title, &changed.join(" ")));
        within += usize::from(d <= NEAR_DUP_DISTANCE);
        total += d;
    }
    (
        within as f64 / TRIALS as f64,
        f64::from(total) / TRIALS as f64,
    )
}

#[test]
fn near_duplicate_recall_by_words_changed() {
    let mut rng = Lcg(11);
    let mut one_word = Vec::new();
    for (language, title, summary, pool) in [
        ("Korean", WIRE_TITLE, WIRE_SUMMARY, OTHER_SUMMARY),
        ("English", EN_WIRE_TITLE, EN_WIRE_SUMMARY, EN_OTHER_SUMMARY),
    ] {
        for k in 1..=4 {
            let (share, mean) = recall(title, summary, pool, k, &mut rng);
            println!("{language}: {k} word(s) replaced: {:.0} % within {NEAR_DUP_DISTANCE}, mean distance {mean:.1}", share * 100.0);
            if k == 1 {
                one_word.push(share);
            }
        }
    }
    assert!(
        one_word.iter().all(|share| *share >= 0.6),
        "one changed word is usually a near-duplicate: {one_word:?}"
    );
}

#[test]
fn different_stories_about_one_company_are_far_apart() {
    let d = hamming(
        simhash(WIRE_TITLE, WIRE_SUMMARY),
        simhash(OTHER_TITLE, OTHER_SUMMARY),
    );
    println!("Korean: two stories about 삼성전자: distance {d}");
    assert!(d > 10, "distance {d}");
    let en = hamming(
        simhash(EN_WIRE_TITLE, EN_WIRE_SUMMARY),
        simhash(EN_OTHER_TITLE, EN_OTHER_SUMMARY),
    );
    println!("English: two stories about Apple: distance {en}");
    assert!(en > 10, "distance {en}");
}

#[test]
fn the_same_text_gives_the_same_fingerprint() {
    assert_eq!(
        simhash(WIRE_TITLE, WIRE_SUMMARY),
        simhash(WIRE_TITLE, WIRE_SUMMARY)
    );
    assert_eq!(
        hamming(
            simhash(WIRE_TITLE, WIRE_SUMMARY),
            simhash(&format!("  {WIRE_TITLE} "), WIRE_SUMMARY)
        ),
        0
    );
}
