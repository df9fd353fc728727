//! The web page's program (docs/serve.md): started by the page as soon as it is loaded, it runs
//! the annotation window on the page's canvas. Everything it does is `protest_gui::web`'s.

/// The id of the page's canvas (crates/protest-serve/page/index.html).
pub const CANVAS: &str = "protest";

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    protest_gui::web::start(CANVAS);
}
