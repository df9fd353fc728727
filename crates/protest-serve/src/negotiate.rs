//! What a request for a page file says it takes (RFC 9110): gzip or not (`Accept-Encoding`), and
//! whether it has the file already (`If-None-Match`).

use axum::http::{HeaderMap, header};

/// Whether `gzip` is an acceptable content coding: named (or `x-gzip`) with a weight above 0, or
/// left to `*` with a weight above 0. No header: any coding is acceptable, but a client that
/// says nothing is sent the plain bytes, as most servers do.
pub(crate) fn accepts_gzip(headers: &HeaderMap) -> bool {
    let (mut named, mut any) = (None, None);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let weight = parts.find_map(|p| {
                let (name, q) = p.split_once('=')?;
                name.trim().eq_ignore_ascii_case("q").then(|| q.trim().parse::<f32>().unwrap_or(0.0))
            });
            let accepted = weight.is_none_or(|q| q > 0.0);
            match coding.as_str() {
                "gzip" | "x-gzip" => named = Some(named.unwrap_or(false) || accepted),
                "*" => any = Some(accepted),
                _ => {}
            }
        }
    }
    named.or(any).unwrap_or(false)
}

/// Whether the client's `If-None-Match` names `etag` (or is `*`): it has this very file, and is
/// answered 304 Not Modified. Compared weakly, as the RFC asks for this header.
pub(crate) fn has(headers: &HeaderMap, etag: &str) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| tag.trim() == "*" || opaque(tag) == opaque(etag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with(name: header::HeaderName, values: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(name.clone(), HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn gzip_is_sent_only_where_it_is_acceptable() {
        let accepts = |values: &[&'static str]| accepts_gzip(&with(header::ACCEPT_ENCODING, values));
        assert!(accepts(&["gzip, deflate, br, zstd"]), "what Chromium sends");
        assert!(accepts(&["br;q=1.0, GZIP;q=0.5"]));
        assert!(accepts(&["deflate", "x-gzip"]), "over two headers");
        assert!(accepts(&["*"]));
        assert!(!accepts(&[]), "no header: plain");
        assert!(!accepts(&["identity"]));
        assert!(!accepts(&["br, deflate"]));
        assert!(!accepts(&["gzip;q=0"]));
        assert!(!accepts(&["gzip; q=0.000, *"]), "named and refused outweighs *");
        assert!(!accepts(&["*;q=0"]));
        assert!(!accepts(&["gzip;q=nonsense"]), "an unreadable weight counts as 0");
    }

    #[test]
    fn a_client_that_has_the_file_is_told_so() {
        let has_it = |values: &[&'static str]| has(&with(header::IF_NONE_MATCH, values), "\"abc\"");
        assert!(has_it(&["\"abc\""]));
        assert!(has_it(&["\"x\", W/\"abc\""]), "weak comparison");
        assert!(has_it(&["\"x\"", "\"abc\""]));
        assert!(has_it(&["*"]));
        assert!(!has_it(&[]));
        assert!(!has_it(&["\"abcd\""]));
        assert!(!has_it(&["\"abc-identity\""]), "another representation");
    }
}
