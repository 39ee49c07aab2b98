//! The client's address behind trusted proxies (`trusted_proxies`, docs/scale-out.md).
//!
//! Every request gets a [`ClientAddr`] extension, set by [`resolve`] from the socket
//! peer and, only when that peer is a trusted proxy, `X-Forwarded-For`. The header is
//! read from the right (the hop nearest to Moat) to the left: addresses that are
//! themselves trusted proxies are skipped, and the first one that is not is the client.
//! Whatever a client writes to the left of that (a forged `X-Forwarded-For` it sent to
//! the proxy) is never read. A value that is not an address ends the walk: the last
//! trusted hop is then the client. From a peer that is not trusted the header is
//! ignored whole. Every per-address limit (log-in back-off, sign-up, mail, the
//! telemetry ingest's budgets) reads this address through `accounts::extract::ClientIp`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::{
    extract::{ConnectInfo, Request, State},
    http::HeaderMap,
    middleware::Next,
    response::Response,
};
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
}

/// The request's client address, as [`resolve`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// Most `X-Forwarded-For` entries read: a longer chain is not a real one.
pub const MAX_FORWARDED_HOPS: usize = 32;

impl TrustedProxies {
    /// Addresses (`127.0.0.1`, `::1`) and CIDRs (`10.0.0.0/8`); the first entry that is
    /// neither is the error.
    pub fn parse(entries: &[String]) -> Result<Self, String> {
        let nets = entries
            .iter()
            .map(|e| {
                let e = e.trim();
                e.parse::<IpNet>()
                    .or_else(|_| e.parse::<IpAddr>().map(IpNet::from))
                    .map(|n| n.trunc())
                    .map_err(|_| e.to_owned())
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { nets })
    }

    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// The client of a request from `peer` carrying `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        // Several X-Forwarded-For headers are one list, in order.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .flat_map(|v| v.to_str().unwrap_or("\u{0}").split(','))
            .collect();
        let mut client = peer;
        for hop in hops.iter().rev().take(MAX_FORWARDED_HOPS) {
            let Some(ip) = parse_hop(hop) else {
                return client;
            };
            client = ip;
            if !self.trusts(ip) {
                return ip;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port (`1.2.3.4:5678`,
/// `[2001:db8::1]:443`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    hop.parse::<SocketAddr>()
        .ok()
        .map(|s| s.ip().to_canonical())
}

/// Sets [`ClientAddr`] on every request (the outermost layers' work; see module docs).
pub async fn resolve(
    State(trusted): State<Arc<TrustedProxies>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(peer) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
    {
        let client = trusted.client(peer, request.headers());
        request.extensions_mut().insert(ClientAddr(client));
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::parse(&list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()).unwrap()
    }

    fn xff(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let t = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            t.client(ip("203.0.113.9"), &xff(&["1.2.3.4"])),
            ip("203.0.113.9")
        );
        let none = proxies(&[]);
        assert_eq!(
            none.client(ip("10.0.0.1"), &xff(&["1.2.3.4"])),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_hop_is_the_client() {
        let t = proxies(&["10.0.0.0/8", "127.0.0.1"]);
        // The client forged "6.6.6.6" to the load balancer, which appended its peer.
        let h = xff(&["6.6.6.6, 198.51.100.7"]);
        assert_eq!(t.client(ip("10.1.2.3"), &h), ip("198.51.100.7"));
        // Two proxies: the nearer one's own address is skipped.
        let h = xff(&["198.51.100.7", "10.9.9.9"]);
        assert_eq!(t.client(ip("127.0.0.1"), &h), ip("198.51.100.7"));
        // Ports and IPv6 in brackets, and an IPv4-mapped peer.
        let h = xff(&["[2001:db8::1]:443"]);
        assert_eq!(t.client(ip("::ffff:10.0.0.1"), &h), ip("2001:db8::1"));
        assert_eq!(
            t.client(ip("10.0.0.1"), &xff(&["198.51.100.7:5000"])),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn a_malformed_or_missing_header_leaves_the_last_trusted_hop() {
        let t = proxies(&["10.0.0.0/8"]);
        assert_eq!(t.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
        assert_eq!(
            t.client(ip("10.0.0.1"), &xff(&["not-an-ip"])),
            ip("10.0.0.1")
        );
        assert_eq!(
            t.client(ip("10.0.0.1"), &xff(&["1.2.3.4, garbage, 10.0.0.2"])),
            ip("10.0.0.2")
        );
        assert_eq!(t.client(ip("10.0.0.1"), &xff(&[""])), ip("10.0.0.1"));
        // Only trusted hops: the farthest one read.
        assert_eq!(
            t.client(ip("10.0.0.1"), &xff(&["10.0.0.3, 10.0.0.2"])),
            ip("10.0.0.3")
        );
    }

    #[test]
    fn entries_must_be_addresses_or_cidrs() {
        assert!(TrustedProxies::parse(&[
            "10.0.0.0/8".into(),
            "::1".into(),
            "192.168.1.7/24".into()
        ])
        .is_ok());
        assert_eq!(
            TrustedProxies::parse(&["10.0.0.0/33".into()]).unwrap_err(),
            "10.0.0.0/33"
        );
        assert_eq!(
            TrustedProxies::parse(&["localhost".into()]).unwrap_err(),
            "localhost"
        );
    }
}
