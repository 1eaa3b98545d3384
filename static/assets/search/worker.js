/* Material's search worker protocol (SETUP 0 → READY 1, QUERY 2 → RESULT 3) over engine.js.
 * Material posts its search_index.json with SETUP; ours is a stub, the engine fetches the
 * index files it needs from <site>/search/ itself (docs/SEARCH.md). */
importScripts("engine.js");

// Material's SearchMessageType, checked against the installed Material's bundle when `pitfalls build`
// and `pitfalls serve` start (pitfalls/commands/dependencies.py)
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;

const INDEX = new URL("../../search/", self.location.href);
// Fetching the manifest starts with the worker, not on SETUP: it downloads while the page still
// fetches Material's stub index, so a search link (?q=…) shows its results a round trip sooner.
const engine = new PitfallSearch.Engine(fetchJson);
const manifest = engine.ready().catch(() => null);  // a failed fetch is tried again on SETUP
let latest = 0;

function fetchJson(path) {
  return fetch(new URL(path, INDEX), { cache: path === "manifest.json" ? "no-cache" : "default" })
    .then(response => {
      if (!response.ok) throw new Error(`${response.status} ${response.url}`);
      return response.json();
    });
}

addEventListener("message", async ({ data: message }) => {
  if (message.type === SETUP) {
    if (!(await manifest)) await engine.ready();
    postMessage({ type: READY });
  } else if (message.type === QUERY) {
    const query = ++latest;
    let items = [];
    try {
      items = (await engine.search(message.data)).items;
    } catch (err) {
      console.warn("search failed:", err);
    }
    if (query === latest)  // a later query is under way: its answer replaces this one
      postMessage({ type: RESULT, data: { items } });
  }
});
