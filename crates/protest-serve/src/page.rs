//! The web page, embedded: its hand-written files (`page/`) and the program built once by
//! `scripts/build-page` into `page/built/`, stored gzip-compressed as it is sent. The files a
//! valid link may fetch, by name; nothing is ever read from disk to answer a request, so no path
//! can reach a file.

use sha2::{Digest, Sha256};
use std::io::Read;
use std::sync::OnceLock;

/// A file of the page: its name under the link, its type and its bytes.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    stored: Stored,
    /// The digest of the stored bytes, as an ETag.
    tag: OnceLock<String>,
    /// The bytes of a gzip-stored file decompressed, for the rare client that takes no gzip.
    plain: OnceLock<Result<Vec<u8>, String>>,
}

enum Stored {
    Plain(&'static [u8]),
    Gzip(&'static [u8]),
}

/// What is sent for a file: its bytes, whether they are gzip-compressed (`Content-Encoding`), and
/// their strong ETag.
pub struct Sent {
    pub bytes: &'static [u8],
    pub gzip: bool,
    pub etag: String,
}

impl Asset {
    const fn new(name: &'static str, content_type: &'static str, stored: Stored) -> Asset {
        Asset { name, content_type, stored, tag: OnceLock::new(), plain: OnceLock::new() }
    }

    /// The file as a client that does (`gzip`) or does not take gzip gets it; `Err`: the stored
    /// file does not decompress (a damaged build).
    pub fn sent(&'static self, gzip: bool) -> Result<Sent, String> {
        let tag = self.tag.get_or_init(|| {
            let bytes = match self.stored {
                Stored::Plain(bytes) | Stored::Gzip(bytes) => bytes,
            };
            Sha256::digest(bytes).iter().take(16).map(|b| format!("{b:02x}")).collect()
        });
        match self.stored {
            Stored::Plain(bytes) => Ok(Sent { bytes, gzip: false, etag: format!("\"{tag}\"") }),
            Stored::Gzip(bytes) if gzip => Ok(Sent { bytes, gzip: true, etag: format!("\"{tag}\"") }),
            Stored::Gzip(bytes) => {
                let plain = self.plain.get_or_init(|| {
                    let mut plain = Vec::new();
                    let read = flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain);
                    read.map(|_| plain).map_err(|e| format!("the page's {} is damaged in this build: {e}", self.name))
                });
                // Another representation, so another tag.
                let etag = format!("\"{tag}-identity\"");
                plain.as_ref().map(|bytes| Sent { bytes, gzip: false, etag }).map_err(String::clone)
            }
        }
    }
}

static ASSETS: [Asset; 5] = [
    Asset::new("", "text/html; charset=utf-8", Stored::Plain(include_bytes!("../page/index.html"))),
    Asset::new("page.css", "text/css; charset=utf-8", Stored::Plain(include_bytes!("../page/page.css"))),
    Asset::new("start.js", "text/javascript; charset=utf-8", Stored::Plain(include_bytes!("../page/start.js"))),
    Asset::new("app.js", "text/javascript; charset=utf-8", Stored::Gzip(include_bytes!("../page/built/app.js.gz"))),
    Asset::new("app.wasm", "application/wasm", Stored::Gzip(include_bytes!("../page/built/app.wasm.gz"))),
];

/// The page's file called `name` (`""`: the page itself).
pub fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// What anyone without a valid link gets: a plain page that says nothing about the master.
pub const NOT_A_LINK: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>PROTEST</title></head>\
<body><p>This is not a valid PROTEST annotation link (or it was revoked). Ask the researcher who sent it for a new one.</p></body></html>\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_stored_compressed_and_decompresses_to_webassembly() {
        let wasm = asset("app.wasm").unwrap();
        let (packed, plain) = (wasm.sent(true).unwrap(), wasm.sent(false).unwrap());
        assert!(packed.gzip && !plain.gzip);
        assert!(plain.bytes.starts_with(b"\0asm"), "a WebAssembly module");
        assert!(packed.bytes.len() * 2 < plain.bytes.len(), "{} of {}", packed.bytes.len(), plain.bytes.len());
        assert_ne!(packed.etag, plain.etag, "two representations, two tags");
        let js = asset("app.js").unwrap().sent(false).unwrap();
        assert!(std::str::from_utf8(js.bytes).unwrap().contains("__wbg_init as default"), "wasm-bindgen's ES module");
        // A file stored as it is sent is the same either way.
        let page = asset("").unwrap();
        assert_eq!(page.sent(true).unwrap().etag, page.sent(false).unwrap().etag);
        assert!(!page.sent(true).unwrap().gzip);
    }
}
