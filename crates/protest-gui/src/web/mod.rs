//! The web page (docs/serve.md): the window compiled to WebAssembly, started by the page that
//! `protest serve` gives an annotator's link. It loads the annotator's part from the server and
//! opens it as a [`Remote`] workspace, whose changes a [`courier::BrowserCourier`] keeps in the
//! browser's storage and sends to the server; everything else is the window as it is on the
//! desktop, in annotator mode. What only a page has is here: the tab title saying what is not
//! saved yet, the page's script warning before a tab with unsaved work closes, and the visit on
//! an example ending when the page is hidden.

mod courier;

use crate::App;
use crate::settings::Settings;
use egui::Ui;
use protest::session::{Remote, Session};
use protest::store::batch_file;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Starts the window on the page's canvas with the id `canvas_id`.
pub fn start(canvas_id: &str) {
    let canvas_id = canvas_id.to_owned();
    wasm_bindgen_futures::spawn_local(async move {
        let document = web_sys::window().and_then(|w| w.document()).expect("the page has a document");
        let Some(canvas) =
            document.get_element_by_id(&canvas_id).and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return say(&document, "This page has no canvas to draw the annotation window on.");
        };
        without_multisampling(&canvas);
        let started = eframe::WebRunner::new()
            .start(canvas, eframe::WebOptions::default(), Box::new(|cc| Ok(Box::new(WebApp::new(cc)))))
            .await;
        if let Err(e) = started {
            say(&document, &format!("The annotation window could not start in this browser: {e:?}"));
        }
    });
}

/// Creates the canvas's WebGL 2 context without multisampling, before eframe asks for it (and so
/// gets this one): egui smooths its own edges, as in the desktop window, which asks for none, and
/// a browser that draws in software (no GPU) spent most of its time multisampling.
fn without_multisampling(canvas: &web_sys::HtmlCanvasElement) {
    let options = js_sys::Object::new();
    if js_sys::Reflect::set(&options, &"antialias".into(), &false.into()).is_ok() {
        // Without WebGL 2, eframe falls back to WebGL 1 with the browser's defaults.
        let _ = canvas.get_context_with_context_options("webgl2", &options);
    }
}

/// Puts a message in the page itself, for when the window cannot draw one.
fn say(document: &web_sys::Document, text: &str) {
    if let Some(body) = document.body() {
        body.set_text_content(Some(text));
    }
}

/// The page's address up to its last `/`: where `api/part` and `api/changes` are (relative, so
/// that the page works behind a reverse proxy at any path).
fn base() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let end = href.find(['?', '#']).unwrap_or(href.len());
    let href = &href[..end];
    href[..href.rfind('/').map_or(0, |i| i + 1)].to_owned()
}

/// The part as the server sent it, once it came.
type Loading = Arc<Mutex<Option<Result<Vec<u8>, String>>>>;

/// The Web Locks held in this browser, once asked (`Some(None)`: it has none to ask).
type Held = Arc<Mutex<Option<Option<Vec<String>>>>>;

/// Why a part could not be loaded when the server does not know the link.
const NOT_A_LINK: &str = "This link no longer works (the server does not know it: it was revoked, or replaced by a \
                          new one). Ask the researcher for a new one; opening it in this browser sends the changes \
                          kept here.";

/// The window, and the part it waits for.
struct WebApp {
    /// Shared with the page's `visibilitychange` listener ([`when_hidden`]).
    app: Rc<RefCell<App>>,
    loading: Option<Loading>,
    /// Which tabs are open, asked while the part loads: their changes are theirs to send.
    held: Held,
    /// When the part came, if the browser has not said yet which tabs are open.
    came: Option<f64>,
    failed: Option<String>,
    /// Whom the tab title names, once the part is open, and what it last said of them.
    name: Option<String>,
    told: String,
}

/// How long (seconds) the part waits for the browser to say which tabs are open; then every
/// tab's changes are taken (sent twice at worst, which changes nothing).
const LOCKS_PATIENCE: f64 = 2.0;

/// Hands `bytes` to the browser as a download called `name` (it goes to the downloads folder, or
/// the browser asks where).
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let failed = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let document = web_sys::window().and_then(|w| w.document()).ok_or("the page has no document")?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let link: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(failed)?.dyn_into().map_err(|_| "not a link element")?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    Ok(())
}

impl WebApp {
    fn new(cc: &eframe::CreationContext<'_>) -> WebApp {
        let settings = Settings::load(cc.storage);
        let app = Rc::new(RefCell::new(App::bare(settings, protest::store::disk::os())));
        when_hidden(&app);
        let loading: Loading = Arc::default();
        let (slot, ctx) = (Arc::clone(&loading), cc.egui_ctx.clone());
        ehttp::fetch(ehttp::Request::get(format!("{}api/part", base())), move |response| {
            let part = match response {
                Ok(r) if r.ok => Ok(r.bytes),
                Ok(r) if r.status == 404 => Err(NOT_A_LINK.to_owned()),
                Ok(r) => Err(format!("the server answered {} {}", r.status, r.status_text)),
                Err(_) => Err("the server cannot be reached".to_owned()),
            };
            *slot.lock().expect("not poisoned") = Some(part);
            ctx.request_repaint();
        });
        let held: Held = Arc::default();
        let (slot, ctx) = (Arc::clone(&held), cc.egui_ctx.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let locks = courier::held_locks().await;
            *slot.lock().expect("not poisoned") = Some(locks);
            ctx.request_repaint();
        });
        WebApp { app, loading: Some(loading), held, came: None, failed: None, name: None, told: String::new() }
    }

    /// Opens the part the server sent, with what this browser kept of it.
    fn open(&mut self, bytes: &[u8], ctx: &egui::Context) -> Result<(), String> {
        let batch = batch_file::from_bytes(Path::new("your part"), bytes).map_err(|e| e.to_string())?;
        let name = batch.annotator().name.replace('/', "-");
        self.name = Some(batch.annotator().name.clone());
        let label = format!("{name} — task set {}", batch.task_set);
        let held = self.held.lock().expect("not poisoned").take().flatten();
        let (courier, kept) = courier::BrowserCourier::new(base(), &batch, ctx.clone(), held);
        let (remote, problems) = Remote::new(label, batch, kept, Box::new(courier));
        let mut app = self.app.borrow_mut();
        app.opened(Ok((Session::remote(remote), protest::store::Opened::default())));
        for problem in problems {
            app.messages.error(format!("A change kept in this browser cannot be sent: {problem}."));
        }
        Ok(())
    }
}

impl eframe::App for WebApp {
    /// A hidden page draws no frames (eframe runs only this then): what was stored as it was
    /// hidden, and any change still on its way, goes to the server meanwhile.
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        if page_hidden() {
            self.app.borrow_mut().poll_session(ctx);
            self.tell_the_page();
        }
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        // The part opens once this browser said which tabs are open (at once, in practice).
        let now = ui.input(|i| i.time);
        let came = self.loading.as_ref().is_some_and(|slot| slot.lock().expect("not poisoned").is_some());
        if came && self.came.is_none() {
            self.came = Some(now);
        }
        let asked = self.held.lock().expect("not poisoned").is_some();
        let waited = self.came.is_some_and(|t| now - t > LOCKS_PATIENCE);
        if came && !asked && !waited {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(250));
        }
        let ready = asked || waited;
        let loaded = self.loading.as_ref().filter(|_| ready).and_then(|slot| slot.lock().expect("not poisoned").take());
        if let Some(loaded) = loaded {
            self.loading = None;
            let ctx = ui.ctx().clone();
            if let Err(why) = loaded.and_then(|bytes| self.open(&bytes, &ctx)) {
                self.failed = Some(why);
            }
        }
        let waiting = match (&self.loading, &self.failed) {
            (Some(_), _) => Some("Loading your part…".to_owned()),
            (None, Some(why)) if why == NOT_A_LINK => Some(why.clone()),
            (None, Some(why)) => Some(format!("Your part could not be loaded: {why}. Reload the page to try again.")),
            (None, None) => None,
        };
        match waiting {
            Some(text) => crate::views::waiting_ui(ui, &text),
            None => self.app.borrow_mut().ui(ui),
        }
        self.tell_the_page();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut *self.app.borrow_mut(), storage);
    }
}

impl WebApp {
    /// The tab title says what is not saved yet (`PROTEST — Anna (remarks not saved yet)`), and
    /// `window.protestTyping` whether typed text waits, for the page's script to warn before
    /// the tab closes (changes not sent: `window.protestUnsent`, [`courier`]).
    fn tell_the_page(&mut self) {
        let app = self.app.borrow();
        let (Some(name), Some(state)) = (&self.name, app.page_state()) else { return };
        let title = format!("PROTEST — {name} ({state})");
        if title == self.told {
            return;
        }
        let Some(window) = web_sys::window() else { return };
        let typing = app.typing_not_saved().is_some();
        let _ = js_sys::Reflect::set(&window, &"protestTyping".into(), &typing.into());
        if let Some(document) = window.document() {
            document.set_title(&title);
        }
        self.told = title;
    }
}

/// The page hidden (another tab, the window minimised, the tab closing): the visit on the example
/// on screen ends now, its time and the remarks typed stored at once — a closing tab draws no
/// more frames to do it in. The time is egui's clock on the page (`eframe::web::now_sec`).
fn when_hidden(app: &Rc<RefCell<App>>) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let app = Rc::clone(app);
    let listener = Closure::<dyn FnMut()>::new(move || {
        // Never inside a frame (the page runs one thing at a time); a frame holds it otherwise.
        if let (true, Ok(mut app)) = (page_hidden(), app.try_borrow_mut()) {
            app.away(eframe::web::now_sec());
        }
    });
    let _ = document.add_event_listener_with_callback("visibilitychange", listener.as_ref().unchecked_ref());
    listener.forget(); // listens for as long as the page lives
}

fn page_hidden() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
}
