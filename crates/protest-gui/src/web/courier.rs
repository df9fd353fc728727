//! The page's [`Courier`]: the outbox kept in the browser's `localStorage` (it outlives the tab,
//! a reload, a crash of the browser), changes sent to the server with `fetch`, and what the
//! page's own script reads to warn before a tab with unsent changes closes.
//!
//! Each tab keeps its outbox under its own key (`protest-outbox:MASTER:TASK SET:ANNOTATOR:TAB`,
//! the tab's id in `sessionStorage`, so a reload keeps it) and, while it lives, holds a Web Lock
//! named after its id (`protest-tab:TAB`), which the browser lets go when the tab closes or
//! crashes; leaving the page (`pagehide`: the tab closed, reloaded or sent elsewhere) also marks
//! its outbox closed at once, since the lock may be let go a moment later. A page that opens
//! takes over, before it says anything is saved, its own key and those of every tab that holds
//! no lock or marked its outbox closed — whatever their age — and sends their changes first. Without Web Locks (a page served over plain HTTP to another machine) it takes every
//! key of its part: a live tab's changes are then sent twice, which changes nothing (each is
//! taken once, and only on the version it was made on).

use protest::session::Courier;
use protest::session::remote::{Failure, NotKept};
use protest::store::batch_file::Batch;
use protest::web::protocol::{Answers, Change, ChangeId, Changes};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use wasm_bindgen::JsCast;

const PREFIX: &str = "protest-outbox";
const LOCK_PREFIX: &str = "protest-tab:";

/// What a tab keeps in `localStorage`.
#[derive(Serialize, Deserialize)]
struct StoredOutbox {
    /// When it was last written (ms since the epoch).
    updated: f64,
    changes: Vec<Change>,
    /// The page that kept them was left (closed, reloaded, sent elsewhere).
    #[serde(default)]
    closed: bool,
}

type Inbox = Arc<Mutex<VecDeque<(u64, Result<Answers, Failure>)>>>;

pub struct BrowserCourier {
    base: String,
    key: String,
    outbox: Vec<Change>,
    inbox: Inbox,
    ctx: egui::Context,
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The tab id kept in `sessionStorage` (a reload keeps it; a duplicated tab has its original's).
fn stored_tab_id() -> Option<String> {
    let session = web_sys::window().and_then(|w| w.session_storage().ok().flatten())?;
    session.get_item("protest-tab").ok().flatten()
}

/// A new id for this tab, kept in `sessionStorage`.
fn new_tab_id() -> String {
    let id = ChangeId::random(&mut rand::rng()).as_str()[..12].to_owned();
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = s.set_item("protest-tab", &id);
    }
    id
}

/// `navigator.locks`, when this browser has it (a secure context: https, or this machine).
fn lock_manager() -> Option<wasm_bindgen::JsValue> {
    let navigator = web_sys::window()?.navigator();
    let locks = js_sys::Reflect::get(&navigator, &"locks".into()).ok()?;
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// The names of the Web Locks held in this browser (by any page of this server); `None` without
/// Web Locks.
pub async fn held_locks() -> Option<Vec<String>> {
    let locks = lock_manager()?;
    let query: js_sys::Function = js_sys::Reflect::get(&locks, &"query".into()).ok()?.dyn_into().ok()?;
    let promise: js_sys::Promise = query.call0(&locks).ok()?.dyn_into().ok()?;
    let snapshot = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let held: js_sys::Array = js_sys::Reflect::get(&snapshot, &"held".into()).ok()?.dyn_into().ok()?;
    Some(held.iter().filter_map(|lock| js_sys::Reflect::get(&lock, &"name".into()).ok()?.as_string()).collect())
}

/// Holds the Web Lock `name` for as long as this page lives (its callback's promise never
/// settles; the browser lets the lock go with the page).
fn hold(name: &str) {
    let Some(locks) = lock_manager() else { return };
    let Some(request) =
        js_sys::Reflect::get(&locks, &"request".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    let forever = wasm_bindgen::closure::Closure::once_into_js(|| js_sys::Promise::new(&mut |_, _| {}));
    let _ = request.call2(&locks, &name.into(), &forever);
}

/// Marks the outbox under `key` closed when the page is left, so that a page opened right after
/// takes it over even before the browser lets this one's lock go.
fn mark_closed_on_leaving(key: String) {
    let Some(window) = web_sys::window() else { return };
    let mark = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        let Some(storage) = local_storage() else { return };
        let Some(text) = storage.get_item(&key).ok().flatten() else { return };
        let Ok(mut kept) = serde_json::from_str::<StoredOutbox>(&text) else { return };
        kept.closed = true;
        if let Ok(text) = serde_json::to_string(&kept) {
            let _ = storage.set_item(&key, &text);
        }
    });
    let _ = window.add_event_listener_with_callback("pagehide", mark.as_ref().unchecked_ref());
    mark.forget(); // as long as the page lives
}

impl BrowserCourier {
    /// The courier of `batch`'s page, and the changes kept in this browser to send again: this
    /// tab's from before a reload, and those of every tab that is gone (`held`: the Web Locks
    /// held now; `None`: this browser cannot tell, and every tab's are taken).
    pub fn new(
        base: String,
        batch: &Batch,
        ctx: egui::Context,
        held: Option<Vec<String>>,
    ) -> (BrowserCourier, Vec<Change>) {
        let part = format!("{PREFIX}:{}:{}:{}:", batch.master_id, batch.task_set, batch.annotator().id);
        let alive =
            |tab: &str| held.as_ref().is_some_and(|h| h.iter().any(|n| n.strip_prefix(LOCK_PREFIX) == Some(tab)));
        let stored = stored_tab_id();
        // A live tab holds this id: this one is its duplicate, and takes an id of its own.
        let tab = stored.clone().filter(|id| !alive(id)).unwrap_or_else(new_tab_id);
        hold(&format!("{LOCK_PREFIX}{tab}"));
        let key = format!("{part}{tab}");
        mark_closed_on_leaving(key.clone());
        let mut kept = Vec::new();
        if let Some(storage) = local_storage() {
            let keys: Vec<String> = (0..storage.length().unwrap_or(0))
                .filter_map(|i| storage.key(i).ok().flatten())
                .filter(|k| k.starts_with(&part))
                .collect();
            for k in keys {
                let owner = &k[part.len()..];
                let Some(text) = storage.get_item(&k).ok().flatten() else { continue };
                let Ok(other) = serde_json::from_str::<StoredOutbox>(&text) else { continue };
                if alive(owner) && !other.closed && stored.as_deref() != Some(owner) {
                    continue; // another open tab's: it sends them itself
                }
                kept.extend(other.changes);
                if k != key {
                    let _ = storage.remove_item(&k);
                }
            }
        }
        let courier = BrowserCourier { base, key, outbox: Vec::new(), inbox: Inbox::default(), ctx };
        (courier, kept)
    }

    /// Writes the outbox under this tab's key (or removes the key when it is empty), and tells
    /// the page's script how many changes are unsent (the tab title: `super::WebApp`).
    fn write(&self) -> Result<(), NotKept> {
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(&window, &"protestUnsent".into(), &(self.outbox.len() as f64).into());
        }
        let storage = local_storage().ok_or_else(|| NotKept("this browser keeps no local storage".to_owned()))?;
        let written = if self.outbox.is_empty() {
            storage.remove_item(&self.key)
        } else {
            let kept = StoredOutbox { updated: js_sys::Date::now(), changes: self.outbox.clone(), closed: false };
            storage.set_item(&self.key, &serde_json::to_string(&kept).map_err(|e| NotKept(e.to_string()))?)
        };
        written.map_err(|e| NotKept(format!("{e:?}")))
    }
}

impl Courier for BrowserCourier {
    fn keep(&mut self, outbox: &[Change]) -> Result<(), NotKept> {
        self.outbox = outbox.to_vec();
        self.write()
    }

    fn send(&mut self, number: u64, changes: &[Change]) {
        let _ = self.write(); // touched: this tab is alive
        let body = match serde_json::to_vec(&Changes { changes: changes.to_vec() }) {
            Ok(body) => body,
            Err(e) => {
                return self.inbox.lock().expect("not poisoned").push_back((number, Err(Failure::Away(e.to_string()))));
            }
        };
        let mut request = ehttp::Request::post(format!("{}api/changes", self.base), body);
        request.headers.insert("Content-Type", "application/json");
        let (inbox, ctx) = (Arc::clone(&self.inbox), self.ctx.clone());
        ehttp::fetch(request, move |response| {
            let answer = match response {
                Ok(r) if r.ok => serde_json::from_slice::<Answers>(&r.bytes)
                    .map_err(|e| Failure::Away(format!("the server's answer could not be read ({e})"))),
                // What the server answers for a link it does not know (revoked, or replaced).
                Ok(r) if r.status == 404 => Err(Failure::NotALink),
                Ok(r) => Err(Failure::Away(format!("the server answered {} {}", r.status, r.status_text))),
                Err(_) => Err(Failure::Away("the server cannot be reached".to_owned())),
            };
            inbox.lock().expect("not poisoned").push_back((number, answer));
            ctx.request_repaint();
        });
    }

    fn answer(&mut self) -> Option<(u64, Result<Answers, Failure>)> {
        self.inbox.lock().expect("not poisoned").pop_front()
    }
}
