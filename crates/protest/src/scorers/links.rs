//! The links of a few source tokens, read from a Moses alignment line without keeping the others.
//! APT and AutoPRF look at the links of the source pronouns only — one or two tokens of a line of
//! some forty pairs — so collecting and sorting every pair of the line was work thrown away.

use crate::model::alignment::{self, Links, MalformedPair};

/// The pairs of [`alignment::parse_line`] whose source index is one of `sources`, sorted by
/// source then target index, without duplicates, into `links` (cleared first). A line the
/// plain reading ([`alignment::parse_plain`], the same one-pass reading that opening a master
/// uses) does not take goes to [`alignment::parse_line`], whose error is the error.
pub fn links_of(line: &str, sources: &[u32], links: &mut Links) -> Result<(), MalformedPair> {
    links_and_reach(line, sources, 0, links).map(|_| ())
}

/// [`links_of`], and the highest target index of all the line's pairs whose source index is
/// below `below` (AutoPRF's check that no pair of the sentence points past its translation).
pub fn links_and_reach(
    line: &str,
    sources: &[u32],
    below: u32,
    links: &mut Links,
) -> Result<Option<u32>, MalformedPair> {
    links.clear();
    let mut reach = None;
    let plain = alignment::parse_plain(line.as_bytes(), |i, j| {
        if sources.contains(&i) {
            links.push((i, j));
        }
        if i < below && reach.is_none_or(|r| r < j) {
            reach = Some(j);
        }
    });
    if plain {
        links.sort_unstable();
        links.dedup();
    } else {
        alignment::parse_line_into(line, links)?;
        reach = links.iter().filter(|&&(s, _)| s < below).map(|&(_, t)| t).max();
        links.retain(|(s, _)| sources.contains(s));
    }
    Ok(reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The links of the sources asked for, exactly as the full parser's, for lines of every kind.
    #[test]
    fn the_full_parsers_links_of_the_sources_asked_for() {
        for line in [
            "0-0 1-2 1-1 3-4 1-1",
            "  2-5\t1-0 2-3 ",
            "",
            "1-1 +2-3 1-0",
            "01-7 1-8",
            "1-4294967295 4294967295-1",
            "1-2 2-x",
            "1-2 x",
            "1-4294967296",
            "1-00000000002 00000000001-3",
            "99999999999-1",
            "1-2-3",
            "1−2",
        ] {
            for sources in [&[][..], &[1], &[2, 1], &[4294967295]] {
                let mut links = vec![(9, 9)];
                let got = links_of(line, sources, &mut links).map(|()| links.clone());
                let expected = alignment::parse_line(line)
                    .map(|all| all.into_iter().filter(|(s, _)| sources.contains(s)).collect::<Links>());
                assert_eq!(got, expected, "{line:?} {sources:?}");
                let reach = links_and_reach(line, sources, 2, &mut links);
                let expected = alignment::parse_line(line)
                    .map(|all| all.into_iter().filter(|&(s, _)| s < 2).map(|(_, t)| t).max());
                assert_eq!(reach, expected, "{line:?}");
            }
        }
    }
}
