// Starts the annotation window (app.js and app.wasm, the protest-gui crate compiled to
// WebAssembly; docs/serve.md). Changes not yet acknowledged by the server are kept in this
// browser and sent when the page is opened again; closing or reloading the tab while there are
// some, or while typed text waits to be stored, asks first (the window keeps their count in
// window.protestUnsent, and whether text waits in window.protestTyping).
import init from "./app.js";

window.addEventListener("beforeunload", (event) => {
    if (window.protestUnsent > 0 || window.protestTyping) {
        event.preventDefault();
        event.returnValue = "";
    }
});

init({ module_or_path: new URL("app.wasm", import.meta.url) }).catch((error) => {
    document.body.textContent = "The annotation window could not start in this browser: " + error;
});
