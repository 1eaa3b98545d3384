/* protocol.js and the modules' browser side: the site's search/worker.js is the engine's modules, the manifest and
 * protocol.js in one file (pitfalls/pages/search_index.py worker_script), run here as a Web Worker would run it: a
 * script in a global of its own, with no `module` or `require`, speaking Material's protocol (SETUP 0 → READY 1,
 * QUERY 2 → RESULT 3; docs/SEARCH.md, "How it plugs into Material"). */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const { IDBFactory, IDBKeyRange } = require("fake-indexeddb");
const { makeIndex, storeIdle, until, STEPS, TITLE } = require("./helpers.js");

const SEARCH = path.join(__dirname, "..", "..", "static", "assets", "search");
// in the order search_index.py ENGINE_MODULES concatenates them: each after those it needs
const MODULES = ["options.js", "analysis.js", "query.js", "pinyin.js", "typos.js", "readings.js", "ranking.js", "matching.js", "results.js", "engine.js"];
const read = name => fs.readFileSync(path.join(SEARCH, name), "utf-8");
// the worker's own, after the files it carries (search_index.py WORKER_MODULES)
const WORKER_MODULES = ["kept.js", "waves.js", "protocol.js"];

const BATCH_NAMES = [..."abcdefghijklmnop"];
// batch.json as the build writes it (search_index.py batch_template), as a static host sends it
const BATCH_TEMPLATE = BATCH_NAMES.map(n => `<!--# if expr="$arg_${n}" --><!--# echo var="arg_${n}" --> <!--# include virtual="$arg_${n}" --><!--# endif -->`).join("\n");

/* A worker's global with the site's worker.js running in it, at `url`, over `files` (the index); `carried`: the files
 * the worker.js carries (search_index.py carried_files), by the path the engine asks for, the manifest by default,
 * parsed from one string as worker_script writes them;
 * `store`: the browser's IndexedDB and IDBKeyRange (kept.js), none by default; `body`: a file's text as served
 * (`fetched`: the files asked for alone; `batched`: the requests to batch.json);
 * `batches`: the server reads batch.json (deploy/nginx.conf: the files its query names, each on its line), where by
 * default it sends it as written, as a static host does (waves.js). */
function worker(files, url = "https://example.org/en/search/worker.js",
                { fail = () => null, delay = () => 0, carried = { "manifest.json": files["manifest.json"] }, store = {},
                  body = name => JSON.stringify(files[name]), batches = false } = {}) {
  const posted = [], fetched = [], batched = [], priorities = {}, listeners = [], warnings = [];
  const global = {
    location: { href: url }, URL, Map, Promise, Error, JSON, Math, Set, Array, Object, String, Number, RegExp,
    setTimeout, clearTimeout, queueMicrotask, ...store,
    // StrykerJS switches a mutant on through this variable (its instrumented code reads process.env)
    process: { env: { ...process.env } },
    console: { warn: (...args) => warnings.push(args), error: () => null, log: () => null },
    postMessage: message => posted.push(JSON.parse(JSON.stringify(message))),
    addEventListener: (type, listener) => listeners.push([type, listener]),
    fetch: async (request, init = {}) => {
      const href = String(request);
      const name = new URL(href).pathname.replace("/en/search/", "").replace(`${files["manifest.json"].version}/`, "");
      if (name === "batch.json") batched.push(href);
      else {
        fetched.push(href);
        priorities[href.split("/").slice(-2).join("/")] = init.priority;
      }
      await new Promise(resolve => setTimeout(resolve, delay(href)));
      if (name === "batch.json") {
        const named = new URLSearchParams(new URL(href).search);
        const text = batches ? BATCH_NAMES.map(n => named.has(n) ? `${named.get(n)} ${body(named.get(n))}` : "").join("\n") : BATCH_TEMPLATE;
        return { ok: true, status: 200, url: href, text: async () => text };
      }
      const status = fail(href) || (name in files ? 200 : 404);
      return { ok: status === 200, status, url: href, text: async () => body(name) };
    },
  };
  global.self = global;
  vm.createContext(global);
  const script = `${MODULES.map(read).join("\n")}\nself.PITFALLS_FILES = JSON.parse(${JSON.stringify(JSON.stringify(carried))});\n${WORKER_MODULES.map(read).join("\n")}`;
  vm.runInContext(script, global, { filename: "worker.js" });
  const send = data => Promise.all(listeners.filter(([type]) => type === "message").map(([, listener]) => listener({ data })));
  return { global, posted, fetched, batched, priorities, listeners, warnings, send };
}

/* The browser's store, shared by the pages (workers) of a test, and the workers' timers run by hand: `runTimers()` is
 * "a second later". */
function browserStore() {
  const later = [];
  return {
    store: { indexedDB: new IDBFactory(), IDBKeyRange, setTimeout: run => later.push(run), clearTimeout: () => null },
    runTimers: () => later.splice(0).forEach(run => run()),
  };
}

const FILES = makeIndex({ alpha: [0, 100, STEPS, 1, 900, TITLE], beta: [0, 100, STEPS] }, 2,
  { titles: { 0: "Alpha and beta", 1: "Alpha" } });
const titles = message => message.data.items.map(([entry]) => entry.title);

test("the modules define PitfallSearch in a worker's global, each under its name", () => {
  const { global } = worker(FILES);
  assert.deepEqual(Object.keys(global.PitfallSearch).sort(),
    ["Engine", "FORMAT_VERSION", "STAGE_NAMES", "analysis", "kept", "matching", "options", "pinyin", "query", "ranking", "readings", "results", "typos", "waves"]);
  assert.deepEqual([...global.PitfallSearch.readings.STAGE_NAMES], ["variants", "reorders", "parts", "typos", "completions", "pinyin", "synonyms"]);
  assert.equal(global.PitfallSearch.analysis.stem("running"), "run");
  assert.deepEqual([...global.PitfallSearch.ranking.RULE_NAMES], ["message", "words", "typo", "score"]);
  assert.equal(global.PitfallSearch.options.defaultSearchOptions.maxResults, 10);
});

test("SETUP (0) is answered READY (1)", async () => {
  const { posted, send, fetched } = worker(FILES);
  await send({ type: 0, data: { docs: [] } });
  assert.deepEqual(posted, [{ type: 1 }]);
  assert.deepEqual(fetched, []);  // nothing fetched before a query
});

test("QUERY (2) is answered RESULT (3) with Material's items; the manifest is the inline one", async () => {
  const { posted, send, fetched } = worker(FILES);
  await send({ type: 2, data: "alpha" });
  assert.equal(posted.length, 1);
  assert.equal(posted[0].type, 3);
  assert.deepEqual(titles(posted[0]), ["<mark>Alpha</mark>", "<mark>Alpha</mark> and beta"]);
  assert.deepEqual(fetched.sort(), ["https://example.org/en/search/x/c/0.json", "https://example.org/en/search/x/d/0.json",
    "https://example.org/en/search/x/d/1.json", "https://example.org/en/search/x/t/0.json"]);
});

test("the files the engine asks for at low priority are fetched so, the others at the browser's own (auto)", async () => {
  // alpha may be misspelt: the typos stage's w/ lists of 4 to 6 letters are asked for at low priority (engine.js file)
  const files = makeIndex({ alpha: [0, 100, STEPS] }, 1, { words: { 5: ["alpha"] } });
  const { send, priorities } = worker(files);
  await send({ type: 2, data: "alpha" });
  assert.deepEqual(priorities, { "t/0.json": "auto", "c/0.json": "auto", "w/5.json": "low", "d/0.json": "auto" });
});

test("a worker that carries every file of its index fetches none, and answers as one that fetches them", async () => {
  const version = FILES["manifest.json"].version;
  const carried = Object.fromEntries(Object.entries(FILES).map(([name, data]) => [name === "manifest.json" ? name : `${version}/${name}`, data]));
  const carrying = worker(FILES, undefined, { carried });
  const fetching = worker(FILES);
  for (const w of [carrying, fetching]) {
    await w.send({ type: 2, data: "alpha" });
    await w.send({ type: 2, data: "beta" });
  }
  assert.deepEqual(carrying.fetched, []);
  assert.equal(fetching.fetched.length, 4);  // t/0, c/0, d/0, d/1
  assert.deepEqual(carrying.posted, fetching.posted);
  assert.deepEqual(titles(carrying.posted[1]), ["Alpha and <mark>beta</mark>"]);
});

test("the next page's worker reads the files the last one fetched from the browser's store, and answers the same", async () => {
  const { store, runTimers } = browserStore();
  const first = worker(FILES, undefined, { store });
  await storeIdle(store.indexedDB);  // the store open
  await first.send({ type: 2, data: "alpha" });
  assert.equal(first.fetched.length, 4);  // t/0, c/0, d/0, d/1
  runTimers();  // a second later: what the first page fetched is written
  await storeIdle(store.indexedDB);
  const next = worker(FILES, undefined, { store });
  await storeIdle(store.indexedDB);
  await next.send({ type: 2, data: "alpha" });
  await next.send({ type: 2, data: "beta" });
  assert.deepEqual(next.fetched, []);
  assert.deepEqual(next.posted[0], first.posted[0]);
  assert.deepEqual(titles(next.posted[1]), ["Alpha and <mark>beta</mark>"]);
});

test("through a server that reads batch.json (nginx), each wave of a query is one request, and answers the same", async () => {
  const batching = worker(FILES, undefined, { batches: true });
  const alone = worker(FILES);  // a static host: batch.json sent as written, each file then alone
  for (const w of [batching, alone]) await w.send({ type: 2, data: "alpha" });
  assert.deepEqual(batching.posted, alone.posted);
  assert.deepEqual(batching.fetched, []);
  // the t/ shard and the completions of alph… at once, then the two results' d/ files
  assert.deepEqual(batching.batched.map(href => href.split("/x/")[1]),
    ["batch.json?a=t/0.json&b=c/0.json", "batch.json?a=d/1.json&b=d/0.json"]);
  assert.deepEqual(alone.batched.map(href => href.split("/x/")[1]), ["batch.json?a=t/0.json&b=c/0.json"]);
  assert.equal(alone.fetched.length, 4);
});

test("the files a batch brought are kept each under its own address; a static host is marked for the next pages", async () => {
  const files = makeIndex({ alpha: [0, 100, STEPS, 1, 900, TITLE], gamma: [2, 100, STEPS, 3, 900, TITLE] }, 4);
  for (const batches of [true, false]) {
    const { store, runTimers } = browserStore();
    const first = worker(files, undefined, { store, batches });
    await storeIdle(store.indexedDB);
    await first.send({ type: 2, data: "alpha" });
    runTimers();  // a second later: what the first page fetched is written
    await storeIdle(store.indexedDB);
    const next = worker(files, undefined, { store, batches });
    await storeIdle(store.indexedDB);
    await next.send({ type: 2, data: "alpha" });
    assert.deepEqual([next.fetched, next.batched], [[], []]);
    assert.deepEqual(next.posted, first.posted);
    // gamma's two d/ files are new to the store: one batch from nginx; each alone from the static host, marked by
    // the first page, without asking batch.json again
    await next.send({ type: 2, data: "gamma" });
    assert.deepEqual([next.fetched.length, next.batched.length], batches ? [0, 1] : [2, 0]);
    assert.equal(titles(next.posted[1]).length, 2);
  }
});

test("a file that does not read as JSON (a proxy's page served as 200) fails its search and is not kept", async () => {
  const { store, runTimers } = browserStore();
  const first = worker(FILES, undefined, { store, body: name => (name === "t/0.json" ? "<html>" : JSON.stringify(FILES[name])) });
  await storeIdle(store.indexedDB);
  await first.send({ type: 2, data: "alpha" });
  assert.deepEqual(first.posted, [{ type: 3, data: { items: [] } }]);
  runTimers();  // a second later: what the first page fetched is written
  await storeIdle(store.indexedDB);
  const next = worker(FILES, undefined, { store });
  await storeIdle(store.indexedDB);
  await next.send({ type: 2, data: "alpha" });
  assert.deepEqual(titles(next.posted[0]), ["<mark>Alpha</mark>", "<mark>Alpha</mark> and beta"]);
  assert.ok(next.fetched.includes("https://example.org/en/search/x/t/0.json"));  // asked of the server again
});

test("a message of another type is ignored", async () => {
  const { posted, send, fetched } = worker(FILES);
  await send({ type: 3, data: "alpha" });
  await send({ type: 1 });
  assert.deepEqual(posted, []);
  assert.deepEqual(fetched, []);
});

test("a failed fetch: a warning, and an empty RESULT", async () => {
  const { posted, send, warnings } = worker(FILES, undefined, { fail: href => href.includes("/t/") && 503 });
  await send({ type: 2, data: "alpha" });
  assert.deepEqual(posted, [{ type: 3, data: { items: [] } }]);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0][0], "search failed:");
  assert.equal(warnings[0][1].message, "503 https://example.org/en/search/x/t/0.json");
});

test("a file gone (404: the site was built again and the index's folder renamed): the reload item", async () => {
  const { posted, send, warnings } = worker(FILES, undefined, { fail: href => href.includes("/t/") && 404 });
  await send({ type: 2, data: "alpha" });
  assert.deepEqual(titles(posted[0]), ["The search index is out of date: reload the page"]);
  assert.deepEqual(warnings, []);
});

test("a slow answer to an older query is dropped when a newer one is under way", async () => {
  const { posted, send } = worker(FILES, undefined, { delay: href => (href.includes("/d/") ? 20 : 0) });
  await Promise.all([send({ type: 2, data: "beta" }), send({ type: 2, data: "alpha" })]);
  assert.equal(posted.length, 1);
  assert.deepEqual(titles(posted[0]), ["<mark>Alpha</mark>", "<mark>Alpha</mark> and beta"]);
  await send({ type: 2, data: "beta" });  // alone, it is answered
  assert.deepEqual(titles(posted[1]), ["Alpha and <mark>beta</mark>"]);
});

test("a search link's query starts with the worker, and Material's QUERY for it takes that answer", async () => {
  const w = worker(FILES, "https://example.org/en/search/worker.js?q=beta");
  await until(() => w.fetched.length >= 3);
  assert.equal(w.fetched.length, 3);  // t/0, c/0 and d/0, before any message (a slow run, mutation testing's, may take a while)
  await w.send({ type: 2, data: "beta" });
  assert.deepEqual(titles(w.posted[0]), ["Alpha and <mark>beta</mark>"]);
  assert.equal(w.fetched.length, 3);
});

test("a search link's query that failed early is searched again when Material asks", async () => {
  let failures = 1;
  const w = worker(FILES, "https://example.org/en/search/worker.js?q=beta", { fail: href => href.includes("/t/") && failures-- > 0 && 500 });
  await new Promise(resolve => setTimeout(resolve, 30));
  await w.send({ type: 2, data: "beta" });
  assert.deepEqual(titles(w.posted[0]), ["Alpha and <mark>beta</mark>"]);
  assert.deepEqual(w.warnings, []);
});

test("a blank search link starts nothing", async () => {
  const w = worker(FILES, "https://example.org/en/search/worker.js?q=%20%20");
  await new Promise(resolve => setTimeout(resolve, 30));
  assert.deepEqual(w.fetched, []);
});

test("an early answer is used once: the same query asked again is searched again", async () => {
  const w = worker(FILES, "https://example.org/en/search/worker.js?q=beta");
  await w.send({ type: 2, data: "beta" });
  await w.send({ type: 2, data: "beta" });
  assert.equal(w.posted.length, 2);
  assert.deepEqual(w.posted[0], w.posted[1]);
});
