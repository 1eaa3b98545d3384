/* Material's search worker protocol (SETUP 0 → READY 1, QUERY 2 → RESULT 3) over the engine. The site's worker
 * (search/worker.js) is this file after the engine's modules and the index's files it carries (pitfalls/pages/
 * search_index.py writes it): the manifest, and every file of a small index. One request, where loading each module
 * and then the manifest took a round trip each. Material posts its search_index.json with SETUP; ours is a stub, the
 * engine fetches the other index files it needs from the worker's own folder, those of a wave in one request where
 * the server answers batches (waves.js), or reads them where an earlier page's worker kept them (kept.js; both just
 * before this file; docs/SEARCH.md). A search link's query
 * (?q=…) comes in the worker's URL (overrides/main.html puts it there), so the search starts with the worker, while
 * Material still fetches its stub and waits for READY; Material's QUERY for it then finds the answer under way. */
// Material's SearchMessageType, checked against the installed Material's bundle when `pitfalls build`
// and `pitfalls serve` start (pitfalls/commands/dependencies.py)
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;

// Stryker disable next-line StringLiteral: new URL("", href) is the worker's own URL, against which index paths resolve alike
const INDEX = new URL("./", self.location.href);
const kept = PitfallSearch.kept.keptFiles(self, INDEX.href, self.PITFALLS_FILES["manifest.json"].version);
const requests = PitfallSearch.waves.fileRequests(self, INDEX.href, kept);
const engine = new PitfallSearch.Engine(fetchJson);
const early = new Map();  // query text → its search, started before Material asked
const linked = new URL(self.location.href).searchParams.get("q");
if (linked && linked.trim()) early.set(linked, engine.search(linked).catch(() => null));
let latest = 0;

function fetchJson(path, priority = "auto") {
  if (Object.hasOwn(self.PITFALLS_FILES, path)) return Promise.resolve(self.PITFALLS_FILES[path]);
  const url = new URL(path, INDEX).href;
  return kept.read(url).then(text => text !== undefined ? JSON.parse(text) : requests(path, url, priority));
}

addEventListener("message", async ({ data: message }) => {
  if (message.type === SETUP) {
    postMessage({ type: READY });
  } else if (message.type === QUERY) {
    // Stryker disable next-line UpdateOperator: counting down numbers the queries apart just as well
    const query = ++latest;
    let items = [];
    try {
      const found = early.has(message.data) ? await early.get(message.data) : null;
      early.delete(message.data);
      items = (found || await engine.search(message.data)).items;
    } catch (err) {
      console.warn("search failed:", err);
    }
    if (query === latest)  // a later query is under way: its answer replaces this one
      postMessage({ type: RESULT, data: { items } });
  }
});
