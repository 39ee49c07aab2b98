//! Search over 20,000 instruments (target p99 ≤ 2 ms), per query and overall.
//! Prints medians and p99s; no assertions (machines are noisy).
//!
//!   cargo bench -p moat-market --bench search

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use moat_market::{catalog, search::SearchIndex, Exchange, Instrument, InstrumentId};

fn percentile(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// 20,000 instruments: the curated ones, then variations of them with new ids.
fn many_instruments(n: usize) -> Vec<Arc<Instrument>> {
    let base = catalog::curated();
    (0..n)
        .map(|i| {
            let mut inst = base[i % base.len()].clone();
            if i >= base.len() {
                let exchange = if i % 2 == 0 {
                    Exchange::Krx
                } else {
                    Exchange::Nasdaq
                };
                let symbol = if exchange == Exchange::Krx {
                    format!("{:06}", 900_000 + i)
                } else {
                    format!("X{i}")
                };
                inst.id = InstrumentId::new(exchange, &symbol).unwrap();
                inst.name_ko = format!("{}{}", inst.name_ko, i);
                inst.name_en = format!("{} {}", inst.name_en, i);
                inst.popularity = (i % 500) as i32;
            }
            Arc::new(inst)
        })
        .collect()
}

const QUERIES: [&str; 17] = [
    "ㅅㅅㅈㅈ",
    "삼성",
    "삼성전자",
    "삼성ㅈ",
    "AAPL",
    "apple",
    "005930",
    "하이닉스",
    "tesla",
    "kodex",
    "ㅋㄷㅅ",
    "s",
    "ㅅ",
    "엔비",
    "삼전",
    "microsoft corp",
    "zzzz",
];
const RUNS: usize = 101;

fn main() {
    let instruments = many_instruments(20_000);
    let t = Instant::now();
    let index = SearchIndex::new(instruments);
    println!(
        "search index over {} instruments built in {:.1} ms",
        index.len(),
        ms(t.elapsed())
    );
    let mut all = Vec::new();
    for q in QUERIES {
        let mut runs = Vec::new();
        let mut found = 0;
        for _ in 0..RUNS {
            let t = Instant::now();
            found = std::hint::black_box(index.search(std::hint::black_box(q), 20)).len();
            runs.push(t.elapsed());
        }
        println!(
            "  {q:>16}: {found:>2} results, median {:.3} ms, p99 {:.3} ms",
            ms(percentile(runs.clone(), 0.5)),
            ms(percentile(runs.clone(), 0.99))
        );
        all.extend(runs);
    }
    println!(
        "search over 20,000 instruments, {} queries × {RUNS}: median {:.3} ms, p99 {:.3} ms (target p99 ≤ 2 ms)",
        QUERIES.len(),
        ms(percentile(all.clone(), 0.5)),
        ms(percentile(all, 0.99))
    );
}
