//! The User-Agent and the SEC's fair-access rules.
//!
//! The SEC asks every client to name itself and a contact in its User-Agent and to
//! stay under [`SEC_MAX_REQUESTS_PER_SEC`] per IP across all machines; offenders are
//! blocked for 10 minutes, longer if they persist. The server limits requests to the
//! hosts [`host_is_sec`] accepts.

/// The SEC allows at most this many requests per second from one IP.
pub const SEC_MAX_REQUESTS_PER_SEC: u32 = 10;

/// `Moat/0.1 (+ops@example.com)`, or `Moat/0.1` without a contact. The contact keeps
/// only printable ASCII (a header value), without parentheses.
pub fn user_agent(version: &str, contact: Option<&str>) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_graphic() || *c == ' ')
            .filter(|c| !matches!(c, '(' | ')'))
            .collect::<String>()
            .trim()
            .to_owned()
    };
    let version = clean(version).replace(' ', "");
    match contact.map(clean).filter(|c| !c.is_empty()) {
        Some(contact) => format!("Moat/{version} (+{contact})"),
        None => format!("Moat/{version}"),
    }
}

/// True for the SEC's hosts: `sec.gov` and its subdomains, any case, with or without
/// the final dot.
pub fn host_is_sec(host: &str) -> bool {
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    host == "sec.gov" || host.ends_with(".sec.gov")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_agent_names_moat_and_a_contact() {
        assert_eq!(
            user_agent("0.1", Some("ops@example.com")),
            "Moat/0.1 (+ops@example.com)"
        );
        assert_eq!(user_agent("0.1.0", None), "Moat/0.1.0");
        assert_eq!(user_agent("0.1", Some("  ")), "Moat/0.1");
        assert_eq!(
            user_agent("0.1", Some("a\r\nX-Evil: 1")),
            "Moat/0.1 (+aX-Evil: 1)"
        );
        assert_eq!(
            user_agent("0.1", Some("Moat (ops@example.com)")),
            "Moat/0.1 (+Moat ops@example.com)"
        );
    }

    #[test]
    fn sec_hosts() {
        for host in [
            "sec.gov",
            "www.sec.gov",
            "WWW.SEC.GOV",
            "efts.sec.gov.",
            "data.sec.gov",
        ] {
            assert!(host_is_sec(host), "{host}");
        }
        for host in ["notsec.gov", "sec.gov.evil.com", "example.com", ""] {
            assert!(!host_is_sec(host), "{host}");
        }
    }
}
