//! What the server bounds (docs/serve.md, "Safe on a network"): time limits and counts
//! ([`Limits`]), and the rates at which each link — and each address that tries links that are
//! not valid — may ask ([`Rates`]).

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use protest::model::AnnotatorId;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

/// The server's bounds of time and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// How long a client has to send a request's head; also the longest a connection stays open
    /// idle, waiting for its next request.
    pub header: Duration,
    /// How long a request has from its head to its answer (a body sent slowly gets `408`).
    pub request: Duration,
    /// How long the requests under way are given to finish once the server is told to stop;
    /// then their connections are dropped and the journal is folded.
    pub stop: Duration,
    /// Connections open at once (room is made by closing the oldest idle one).
    pub connections: usize,
    /// Request bodies being received at once (each at most `MAX_BODY`): `503` beyond. (Once in,
    /// a body waits for the writer outside this bound: each link's rate of bytes bounds that.)
    pub bodies: usize,
    /// Addresses with links that are not valid remembered one by one; beyond, they share one
    /// allowance.
    pub strangers: usize,
    /// How long a refusal for asking too often (`429`) waits before it is answered (a few at a
    /// time): a client that asks again at once is slowed down to that pace.
    pub pause: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header: Duration::from_secs(10),
            request: Duration::from_secs(30),
            stop: Duration::from_secs(10),
            connections: 512,
            bodies: 32,
            strangers: 4096,
            pause: Duration::from_secs(1),
        }
    }
}

/// Requests per second one link may make, and in a burst: a page makes one at a time.
const PER_SECOND: u32 = 50;
const BURST: u32 = 200;
/// Parts one link may ask for: a page asks once when it opens.
const PARTS_PER_MINUTE: u32 = 30;
const PARTS_BURST: u32 = 10;
/// KiB of changes one link may send per second, and in a burst: a page's change is a few hundred
/// bytes, and the largest body (1 MiB) fits in the burst.
const KIB_PER_SECOND: u32 = 256;
const KIB_BURST: u32 = 2048;
/// Requests per second an address may make with links that are not valid.
const STRANGER_PER_SECOND: u32 = 5;
const STRANGER_BURST: u32 = 20;

/// Who a request without a valid link is counted as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Stranger {
    /// An IPv4 address, or the /64 network of an IPv6 one (what one machine can easily rotate
    /// through).
    Address(IpAddr),
    /// Everyone else once [`Limits::strangers`] addresses are remembered.
    Crowd,
}

impl Stranger {
    fn of(ip: IpAddr) -> Stranger {
        match ip {
            IpAddr::V4(_) => Stranger::Address(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Stranger::Address(IpAddr::V4(v4)),
                None => Stranger::Address(IpAddr::V6((u128::from(v6) & !0u128 << 64).into())),
            },
        }
    }
}

/// How often each link and each stranger has asked.
pub(crate) struct Rates {
    links: DefaultKeyedRateLimiter<AnnotatorId>,
    parts: DefaultKeyedRateLimiter<AnnotatorId>,
    writes: DefaultKeyedRateLimiter<AnnotatorId>,
    strangers: DefaultKeyedRateLimiter<Stranger>,
    most_strangers: usize,
}

fn quota(per_period: Quota, burst: u32) -> Quota {
    per_period.allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

fn nonzero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

impl Rates {
    pub fn new(limits: &Limits) -> Rates {
        Rates {
            links: RateLimiter::keyed(quota(Quota::per_second(nonzero(PER_SECOND)), BURST)),
            parts: RateLimiter::keyed(quota(Quota::per_minute(nonzero(PARTS_PER_MINUTE)), PARTS_BURST)),
            writes: RateLimiter::keyed(quota(Quota::per_second(nonzero(KIB_PER_SECOND)), KIB_BURST)),
            strangers: RateLimiter::keyed(quota(Quota::per_second(nonzero(STRANGER_PER_SECOND)), STRANGER_BURST)),
            most_strangers: limits.strangers,
        }
    }

    /// Whether a link may make one more request.
    pub fn link(&self, annotator: AnnotatorId) -> bool {
        self.links.check_key(&annotator).is_ok()
    }

    /// Whether a link may have its part made once more.
    pub fn part(&self, annotator: AnnotatorId) -> bool {
        self.parts.check_key(&annotator).is_ok()
    }

    /// Whether a link may have `bytes` of changes stored.
    pub fn write(&self, annotator: AnnotatorId, bytes: usize) -> bool {
        let kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        match NonZeroU32::new(kib) {
            Some(kib) => matches!(self.writes.check_key_n(&annotator, kib), Ok(Ok(()))),
            None => true,
        }
    }

    /// Whether an address may try one more link that is not valid. The addresses remembered are
    /// bounded: past [`Limits::strangers`], new ones share one allowance.
    pub fn stranger(&self, ip: IpAddr) -> bool {
        let who = match self.strangers.len() < self.most_strangers {
            true => Stranger::of(ip),
            false => Stranger::Crowd,
        };
        self.strangers.check_key(&who).is_ok()
    }

    /// Forgets the addresses and links whose allowance is whole again (they are as if new), and
    /// gives back the memory: called every few seconds.
    pub fn forget_the_quiet(&self) {
        for limiter in [&self.links, &self.parts, &self.writes] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        self.strangers.retain_recent();
        self.strangers.shrink_to_fit();
    }

    /// How many strangers are remembered.
    #[cfg(test)]
    pub fn strangers(&self) -> usize {
        self.strangers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    #[test]
    fn rotating_addresses_are_remembered_up_to_a_bound() {
        let rates = Rates::new(&Limits { strangers: 1000, ..Limits::default() });
        for i in 0..100_000u32 {
            let ip = IpAddr::V4(Ipv4Addr::from(0x7f00_0000 | i));
            rates.stranger(ip);
        }
        assert!(rates.strangers() <= 1001, "{} addresses remembered", rates.strangers());
        // Past the bound, newcomers share one allowance: it runs out.
        let newcomer = |i: u32| rates.stranger(IpAddr::V4(Ipv4Addr::from(0x0a00_0000 | i)));
        assert!((0..100).any(|i| !newcomer(i)), "the crowd's allowance never ran out");
    }

    #[test]
    fn an_ipv6_network_is_one_stranger() {
        let a: Ipv6Addr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: Ipv6Addr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: Ipv6Addr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Stranger::of(a.into()), Stranger::of(b.into()));
        assert_ne!(Stranger::of(a.into()), Stranger::of(c.into()));
        let mapped: Ipv6Addr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(Stranger::of(mapped.into()), Stranger::Address("192.0.2.7".parse().unwrap()));
    }

    #[test]
    fn a_link_writes_at_a_bounded_rate() {
        let rates = Rates::new(&Limits::default());
        let anna = AnnotatorId(1);
        // The largest body fits; then the burst is spent, and another link is not affected.
        assert!(rates.write(anna, protest::web::protocol::MAX_BODY));
        assert!(rates.write(anna, 1 << 20));
        assert!(!rates.write(anna, 64 << 10), "2 MiB written at once: more must wait");
        assert!(rates.write(AnnotatorId(2), 64 << 10));
        assert!(rates.write(anna, 0), "nothing to write is always allowed");
    }

    #[test]
    fn parts_are_made_for_a_link_a_few_at_a_time() {
        let rates = Rates::new(&Limits::default());
        let allowed = (0..50).filter(|_| rates.part(AnnotatorId(1))).count();
        assert_eq!(allowed, PARTS_BURST as usize);
        assert!(rates.part(AnnotatorId(2)));
    }

    #[test]
    fn quiet_strangers_are_forgotten() {
        let rates = Rates::new(&Limits::default());
        rates.stranger(IpAddr::V4(Ipv4Addr::LOCALHOST));
        assert_eq!(rates.strangers(), 1);
        // Its allowance is whole again two periods after (governor's reckoning).
        std::thread::sleep(Duration::from_millis(50) + 2 * Duration::from_secs(1) / STRANGER_PER_SECOND);
        rates.forget_the_quiet();
        assert_eq!(rates.strangers(), 0);
    }
}
