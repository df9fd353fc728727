//! The web page, embedded at build time (`build.rs` builds it): the files a valid link may fetch,
//! by name. Nothing is ever read from disk to answer a request, so no path can reach a file.

/// A file of the page: its name under the link, its type and its bytes.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
}

pub const ASSETS: &[Asset] = &[
    Asset { name: "", content_type: "text/html; charset=utf-8", bytes: include_bytes!("../page/index.html") },
    Asset { name: "page.css", content_type: "text/css; charset=utf-8", bytes: include_bytes!("../page/page.css") },
    Asset {
        name: "start.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../page/start.js"),
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!(concat!(env!("OUT_DIR"), "/page/app.js")),
    },
    Asset {
        name: "app.wasm",
        content_type: "application/wasm",
        bytes: include_bytes!(concat!(env!("OUT_DIR"), "/page/app_bg.wasm")),
    },
];

/// The page's file called `name` (`""`: the page itself).
pub fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// What anyone without a valid link gets: a plain page that says nothing about the master.
pub const NOT_A_LINK: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>PROTEST</title></head>\
<body><p>This is not a valid PROTEST annotation link (or it was revoked). Ask the researcher who sent it for a new one.</p></body></html>\n";
