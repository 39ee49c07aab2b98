//! What the server benchmarks share: the `moat` process they start and stop, readings
//! of its CPU and memory from `/proc`, the database's size, and percentiles.
// Each benchmark is its own crate and uses a part of this.
#![allow(dead_code)]

use std::process::{Child, Command, Stdio};

/// The benchmarked `moat` process, killed when dropped (also on a panic).
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A `/proc/<pid>/status` figure in kB (`VmRSS:`, `VmHWM:`), 0 when unreadable.
pub fn status_kb(pid: u32, key: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .unwrap_or(0.0)
}

/// Resident memory in MB.
pub fn rss_mb(pid: u32) -> f64 {
    status_kb(pid, "VmRSS:") / 1024.0
}

/// utime + stime of a process, in seconds.
pub fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line; 12 and 13 after the name.
    (ticks(11) + ticks(12)) / clock_ticks()
}

fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// Bytes of the SQLite database in `dir`: `moat.db` with its WAL and shared memory.
pub fn db_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with("moat.db"))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The machine's 1-minute load average, as printed by the kernel.
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_default()
}

/// The `p` quantile (0–1) by nearest rank; sorts `v`.
pub fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// Waits until the `moat` at `base` answers `/readyz` (at most a minute).
pub async fn wait_ready(base: &str) {
    let client = reqwest::Client::new();
    let started = std::time::Instant::now();
    while client.get(format!("{base}/readyz")).send().await.is_err() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "moat did not start"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `nats-server` on a free loopback port, stopped when dropped, and its URL.
pub fn start_nats() -> (Server, String) {
    let port = free_port();
    let server = Server(
        Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server (apt-get install nats-server)"),
    );
    (server, format!("nats://127.0.0.1:{port}"))
}
