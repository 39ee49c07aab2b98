//! The User-Agent and the SEC's fair-access rules.

/// The SEC allows at most this many requests per second from one IP.
pub const SEC_MAX_REQUESTS_PER_SEC: u32 = 10;

/// `Moat/0.1 (+contact)`.
pub fn user_agent(version: &str, contact: Option<&str>) -> String {
    let _ = (version, contact);
    todo!()
}

/// True for the SEC's hosts (`sec.gov` and its subdomains).
pub fn host_is_sec(host: &str) -> bool {
    let _ = host;
    todo!()
}
