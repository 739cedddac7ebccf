//! The SSRF guard: which addresses a server that fetches strangers' URLs may connect to.
//!
//! An address is checked where it is known for certain:
//! - host names when they are resolved, in [`GuardedResolver`], so the address checked is the
//!   address connected to (a second DNS answer, "rebinding", never reaches the socket);
//! - IP-literal URLs before sending (reqwest does not ask the resolver for them), and every
//!   redirect hop's URL, in [`Guard::check_url`] and [`Guard::check_redirect`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use super::FetchError;

/// Why an address may not be fetched, or `None` when it is a public unicast address.
pub fn refusal_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => v6_reason(v6),
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "an unspecified (\"this network\") address",
        (10, _, _) | (172, 16..=31, _) | (192, 168, _) => "a private address",
        (100, 64..=127, _) => "a carrier-grade NAT address",
        (127, _, _) => "a loopback address",
        (169, 254, _) => "a link-local address",
        (192, 0, 0) => "an IETF protocol address",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation address",
        (198, 18..=19, _) => "a benchmarking address",
        (224..=239, _, _) => "a multicast address",
        // 240.0.0.0/4 is reserved; it includes the broadcast address 255.255.255.255.
        (240..=255, _, _) => "a reserved or broadcast address",
        _ => return None,
    })
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    let segments = ip.segments();
    let embedded_v4 = |high: u16, low: u16| Ipv4Addr::from(((high as u32) << 16) | low as u32);
    if ip.is_unspecified() {
        return Some("an unspecified address");
    }
    if ip.is_loopback() {
        return Some("a loopback address");
    }
    // ::ffff:a.b.c.d reaches the IPv4 address a.b.c.d: judge that.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_reason(v4);
    }
    match segments {
        // ::a.b.c.d, deprecated "IPv4-compatible" addresses: nothing legitimate uses them, and
        // some stacks still route them to the IPv4 address.
        [0, 0, 0, 0, 0, 0, _, _] => Some("an IPv4-compatible address"),
        // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address through the gateway.
        [0x64, 0xff9b, 0, 0, 0, 0, high, low] => v4_reason(embedded_v4(high, low)),
        [0x64, 0xff9b, 1, ..] => Some("a local-use NAT64 address"),
        // 6to4 (2002::/16) embeds the IPv4 address of the relay's destination.
        [0x2002, high, low, ..] => v4_reason(embedded_v4(high, low)),
        [0x100, 0, 0, 0, ..] => Some("a discard-only address"),
        [0x2001, 0xdb8, ..] => Some("a documentation address"),
        [first, ..] if first & 0xfe00 == 0xfc00 => Some("a unique-local (private) address"),
        [first, ..] if first & 0xffc0 == 0xfe80 => Some("a link-local address"),
        [first, ..] if first & 0xffc0 == 0xfec0 => Some("a site-local address"),
        [first, ..] if first & 0xff00 == 0xff00 => Some("a multicast address"),
        _ => None,
    }
}

/// The guard's decisions, shared by the fetcher, its redirect policy and its resolver.
/// Host names pinned to addresses ([`super::FetchConfig::pinned`]) never reach the resolver:
/// they are configuration, trusted like the guard switch itself.
#[derive(Debug, Clone, Copy)]
pub struct Guard {
    /// `false` turns the address checks off (schemes are still checked).
    pub enabled: bool,
}

impl Guard {
    /// Refuse what cannot be fetched without looking up any name: other schemes than http(s),
    /// URLs without a host, and IP-literal hosts (IPv4 in any of the forms browsers accept,
    /// e.g. `http://2130706433/`, which `url` has already turned into `127.0.0.1`).
    pub fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Scheme { url: url.to_string(), scheme: url.scheme().to_string() });
        }
        let ip = match url.host() {
            None => return Err(FetchError::BadUrl { url: url.to_string(), reason: "it has no host".into() }),
            Some(Host::Domain(_)) => return Ok(()),
            Some(Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(Host::Ipv6(ip)) => IpAddr::V6(ip),
        };
        if !self.enabled {
            return Ok(());
        }
        match refusal_reason(ip) {
            Some(reason) => Err(FetchError::Refused { host: url.host_str().unwrap_or_default().into(), ip, reason }),
            None => Ok(()),
        }
    }

    /// The redirect policy: a hop is followed when fewer than `max` redirects were followed
    /// before it and its URL passes [`Guard::check_url`].
    pub fn check_redirect(&self, next: &Url, followed: usize, max: usize) -> Result<(), FetchError> {
        if followed >= max {
            return Err(FetchError::TooManyRedirects { url: next.to_string(), max });
        }
        self.check_url(next)
    }

    /// The addresses of `host` that may be connected to; an error when none may.
    pub fn filter_resolved(&self, host: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, FetchError> {
        if !self.enabled {
            return Ok(addrs);
        }
        let mut first_refusal = None;
        let allowed: Vec<SocketAddr> = addrs
            .into_iter()
            .filter(|addr| match refusal_reason(addr.ip()) {
                Some(reason) => {
                    first_refusal.get_or_insert((addr.ip(), reason));
                    false
                }
                None => true,
            })
            .collect();
        match (allowed.is_empty(), first_refusal) {
            (false, _) => Ok(allowed),
            (true, Some((ip, reason))) => Err(FetchError::Refused { host: host.into(), ip, reason }),
            (true, None) => Err(FetchError::Network { url: host.into(), reason: "the name has no addresses".into() }),
        }
    }
}

/// The resolver reqwest uses for every host name: the system's resolver, then the guard.
/// Only the addresses it returns are connected to.
pub struct GuardedResolver {
    pub guard: Guard,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| FetchError::Network { url: host.clone(), reason: format!("cannot resolve {host}: {e}") })?
                .collect();
            let allowed = guard.filter_resolved(&host, resolved)?;
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(ip: &str) -> bool {
        refusal_reason(ip.parse().unwrap()).is_some()
    }

    #[test]
    fn refuses_every_special_purpose_range() {
        for ip in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.0.9",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b::7f00:1",
            "64:ff9b:1::1",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "100::1",
            "2001:db8::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
        ] {
            assert!(refused(ip), "{ip} should be refused");
        }
    }

    #[test]
    fn allows_public_unicast() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.216.34",
            "100.63.255.255",
            "100.128.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "192.167.1.1",
            "198.20.0.1",
            "223.255.255.255",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "2606:4700:4700::1111",
            "2a00:1450:4001:82b::200e",
        ] {
            assert!(!refused(ip), "{ip} should be allowed");
        }
    }

    fn guard() -> Guard {
        Guard { enabled: true }
    }

    #[test]
    fn urls_with_ip_literals_and_other_schemes_are_refused_before_sending() {
        let check = |url: &str| guard().check_url(&Url::parse(url).unwrap());
        for url in [
            "http://127.0.0.1/",
            "http://[::1]:8080/",
            "http://[::ffff:127.0.0.1]/",
            "http://0.0.0.0/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://017700000001/",
            "https://10.0.0.1/admin",
            "http://169.254.169.254/latest/meta-data/",
        ] {
            assert!(matches!(check(url), Err(FetchError::Refused { .. })), "{url}: {:?}", check(url));
        }
        for url in ["file:///etc/passwd", "gopher://example.org/", "ftp://example.org/", "data:text/html,hi"] {
            assert!(matches!(check(url), Err(FetchError::Scheme { .. })), "{url}: {:?}", check(url));
        }
        for url in ["http://example.org/", "https://8.8.8.8/", "http://[2606:4700:4700::1111]/"] {
            assert!(check(url).is_ok(), "{url}");
        }
    }

    #[test]
    fn disabled_guard_still_refuses_other_schemes() {
        let off = Guard { enabled: false };
        assert!(off.check_url(&Url::parse("http://127.0.0.1/").unwrap()).is_ok());
        assert!(off.check_url(&Url::parse("file:///etc/passwd").unwrap()).is_err());
    }

    #[test]
    fn redirect_policy_counts_hops_and_checks_each_target() {
        let g = guard();
        let public = Url::parse("https://example.org/next").unwrap();
        assert!(g.check_redirect(&public, 0, 5).is_ok());
        assert!(g.check_redirect(&public, 4, 5).is_ok());
        assert!(matches!(g.check_redirect(&public, 5, 5), Err(FetchError::TooManyRedirects { max: 5, .. })));
        for hop in ["http://127.0.0.1:8080/", "http://[::ffff:7f00:1]/", "http://192.168.0.1/", "file:///etc/passwd"] {
            assert!(g.check_redirect(&Url::parse(hop).unwrap(), 0, 5).is_err(), "{hop}");
        }
    }

    #[test]
    fn resolved_addresses_are_filtered_and_all_private_answers_refused() {
        let g = guard();
        let addr = |s: &str| SocketAddr::new(s.parse().unwrap(), 0);
        let err = g.filter_resolved("evil.example", vec![addr("127.0.0.1"), addr("::1")]).unwrap_err();
        assert!(matches!(err, FetchError::Refused { ref host, .. } if host == "evil.example"), "{err:?}");
        // A rebinding-style answer mixing public and private addresses: only the public one is
        // ever connected to.
        let mixed = g.filter_resolved("mixed.example", vec![addr("10.0.0.1"), addr("93.184.216.34")]).unwrap();
        assert_eq!(mixed, vec![addr("93.184.216.34")]);
        let off = Guard { enabled: false };
        assert!(off.filter_resolved("localhost", vec![addr("127.0.0.1")]).is_ok());
    }
}
