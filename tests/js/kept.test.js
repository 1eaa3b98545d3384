/* kept.js: the index files a worker fetched, kept as their text in IndexedDB (fake-indexeddb, the browser's API in
 * memory) for the next page: read there once the store is open, by the URL that names language and version; written
 * once no file came for a second (the worker's timers replaced by a clock the test moves); the other versions of a
 * language deleted when a worker starts; any failure of the store answers "not kept", so the worker fetches. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { IDBFactory, IDBKeyRange } = require("fake-indexeddb");
const { load, storeIdle } = require("./helpers.js");

const { keptFiles } = load("kept");
const EN = "https://example.org/en/search/", ZH = "https://example.org/zh/search/";

/* A worker's timers moved by hand: `waiting` lists the delays of the timers set and not yet run or cleared. */
function clock() {
  const timers = new Map();
  let last = 0;
  return {
    setTimeout: (run, ms) => { timers.set(++last, { run, ms }); return last; },
    clearTimeout: id => { timers.delete(id); },
    waiting: () => [...timers.values()].map(({ ms }) => ms),
    runAll() { const due = [...timers.values()]; timers.clear(); for (const { run } of due) run(); },
  };
}

/* A worker's global with a store of its own (or `indexedDB`'s, to share one) and a clock moved by hand. */
const worker = (indexedDB = new IDBFactory()) => ({ indexedDB, IDBKeyRange, ...clock() });

/* The store of `browser` opened as kept.js opens it. */
const openStore = browser => new Promise(resolve => { const r = browser.indexedDB.open("pitfalls-search", 1); r.onsuccess = () => resolve(r.result); });

/* Every key and value in the store of `browser`. */
async function stored(browser) {
  const db = await openStore(browser);
  const files = db.transaction("files").objectStore("files");
  const [keys, values] = await Promise.all(["getAllKeys", "getAll"].map(how => new Promise(resolve => {
    const r = files[how](); r.onsuccess = () => resolve(r.result);
  })));
  db.close();
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
}

/* `files` (url → text) written into the store of `browser` as another worker would have. */
async function put(browser, files) {
  const db = await openStore(browser);
  const tx = db.transaction("files", "readwrite");
  for (const [url, text] of Object.entries(files)) tx.objectStore("files").put(text, url);
  await new Promise(resolve => { tx.oncomplete = resolve; });
  db.close();
}

/* `url` → `text` kept by a store of `folder` at `version` in `browser`, written. */
async function keepOne(browser, folder, version, url, text, factory = browser.indexedDB) {
  const store = keptFiles(browser, folder, version);
  await storeIdle(factory);
  store.keep(url, text);
  browser.runAll();
  await storeIdle(factory);
}

test("a file kept is read by the next store of the same version, as it was", async () => {
  const browser = worker();
  await keepOne(browser, EN, "aaa", `${EN}aaa/t/0.json`, '{"terms":{"alpha":[0,100,2]}}');
  const next = keptFiles(browser, EN, "aaa");
  assert.equal(await next.read(`${EN}aaa/t/0.json`), undefined);  // not open yet: at once, not waiting for it
  await storeIdle(browser.indexedDB);
  assert.equal(await next.read(`${EN}aaa/t/0.json`), '{"terms":{"alpha":[0,100,2]}}');
  assert.equal(await next.read(`${EN}aaa/t/1.json`), undefined);  // never kept
});

/* `target`'s `key` as a proxy of it hands it on: a method bound to the target, any other value as it is. */
const pass = (target, key) => (typeof target[key] === "function" ? target[key].bind(target) : target[key]);

/* An IndexedDB over `factory` (an IDBFactory) whose open requests answer `wrap(db)` for each database `db` opened. */
function opening(factory, wrap) {
  const open = (...args) => new Proxy(factory.open(...args), {
    get: (target, key) => (key === "result" ? wrap(target.result) : pass(target, key)),
    set: (target, key, value) => { target[key] = value; return true; },
  });
  return { open };
}

/* `db` with its method `name` replaced by `replace(target)`'s function, its other keys as they are. */
const replacing = (db, name, replace) => new Proxy(db, {
  get: (target, key) => (key === name ? replace(target) : pass(target, key)),
});

/* `factory` (an IDBFactory) counting the transactions its databases start: `count.transactions`. */
function counted(factory) {
  const count = { transactions: 0 };
  const indexedDB = opening(factory, db => replacing(db, "transaction", target => (...args) => {
    count.transactions += 1;
    return target.transaction(...args);
  }));
  return { indexedDB, count };
}

test("a file not kept is known without asking the store; the files a wave asks for are read in one transaction", async () => {
  const factory = new IDBFactory();
  await keepOne(worker(factory), EN, "aaa", `${EN}aaa/t/0.json`, "0");
  await keepOne(worker(factory), EN, "aaa", `${EN}aaa/d/0.json`, "1");
  const { indexedDB, count } = counted(factory);
  const next = keptFiles({ ...worker(), indexedDB }, EN, "aaa");
  await storeIdle(factory);
  const opened = count.transactions;  // deleting the other versions, listing this one's files
  assert.equal(await next.read(`${EN}aaa/x.json`), undefined);
  assert.equal(count.transactions, opened);
  assert.deepEqual(await Promise.all([next.read(`${EN}aaa/d/0.json`), next.read(`${EN}aaa/x.json`), next.read(`${EN}aaa/t/0.json`)]),
    ["1", undefined, "0"]);
  assert.equal(count.transactions, opened + 1);
});

test("a worker's start deletes its language's other versions, before and after its own, not the other language's", async () => {
  const browser = worker();
  await keepOne(browser, EN, "bbb", `${EN}bbb/d/0.json`, "bbb");
  await put(browser, { [`${EN}aaa/d/0.json`]: "aaa", [`${EN}ccc/d/0.json`]: "ccc", [`${ZH}aaa/d/0.json`]: "zh" });
  keptFiles(browser, EN, "bbb");
  await storeIdle(browser.indexedDB);
  assert.deepEqual(Object.keys(await stored(browser)), [`${EN}bbb/d/0.json`, `${ZH}aaa/d/0.json`]);
  const zh = keptFiles(browser, ZH, "aaa");
  await storeIdle(browser.indexedDB);
  assert.equal(await zh.read(`${ZH}aaa/d/0.json`), "zh");
});

test("what searches fetched is written once no file came for a second, in one go, and once", async () => {
  const browser = worker();
  const store = keptFiles(browser, EN, "aaa");
  await storeIdle(browser.indexedDB);
  store.keep(`${EN}aaa/t/0.json`, "0");
  assert.deepEqual(browser.waiting(), [1000]);
  store.keep(`${EN}aaa/d/0.json`, "1");  // the next file: the second starts again
  assert.deepEqual(browser.waiting(), [1000]);
  await storeIdle(browser.indexedDB);
  assert.deepEqual(await stored(browser), {});  // nothing before it has passed
  browser.runAll();
  await storeIdle(browser.indexedDB);
  assert.deepEqual(await stored(browser), { [`${EN}aaa/d/0.json`]: "1", [`${EN}aaa/t/0.json`]: "0" });
  store.keep(`${EN}aaa/t/0.json`, "2");  // kept already: not written again
  assert.deepEqual(browser.waiting(), []);
});

test("a browser without the store, or one that refuses it: nothing kept, nothing read, no error", async () => {
  const refusing = { indexedDB: { open() { throw Object.assign(new Error("The user denied permission"), { name: "SecurityError" }); } } };
  const failing = { indexedDB: { open() { const request = {}; setTimeout(() => request.onerror({}), 0); return request; } } };
  for (const browser of [{ ...clock() }, { ...refusing, IDBKeyRange, ...clock() }, { ...failing, IDBKeyRange, ...clock() }]) {
    const store = keptFiles(browser, EN, "aaa");
    await new Promise(resolve => setTimeout(resolve, 0));  // after the failing store's error, due at once
    store.keep(`${EN}aaa/t/0.json`, "0");
    assert.deepEqual(browser.waiting(), []);
    assert.equal(await store.read(`${EN}aaa/t/0.json`), undefined);
  }
});

/* `factory` (an IDBFactory) whose databases' read transactions answer as `fault` makes them: `fault(db)` → what
 * `db.transaction(FILES)` does instead (the writes and the start's work as the store does them). */
const faulty = (factory, fault) => opening(factory, db => replacing(db, "transaction",
  target => (names, mode) => (mode === "readwrite" ? target.transaction(names, mode) : fault(target))));

test("a file the store fails to read, or a store the browser closed, answers not kept: the worker fetches", async () => {
  const factory = new IDBFactory();
  await keepOne(worker(factory), EN, "aaa", `${EN}aaa/t/0.json`, "0");
  const failedRead = () => ({ objectStore: () => ({ get() { const request = {}; setTimeout(() => request.onerror({}), 0); return request; } }) });
  const closed = db => { db.close(); return db.transaction("files"); };  // throws, as a closed connection does
  for (const fault of [failedRead, closed]) {
    const browser = { ...worker(), indexedDB: faulty(factory, fault) };
    const store = keptFiles(browser, EN, "aaa");
    await storeIdle(factory);
    assert.equal(await store.read(`${EN}aaa/t/0.json`), undefined);
    assert.deepEqual(browser.waiting(), []);  // answered: no read limit left to run
  }
});

test("a later version of the store opens beside workers of this one, which then fetch", async () => {
  const factory = new IDBFactory();
  const opened = [];  // the workers' connections, closed by the test if they do not give way (else node waits on them)
  const indexedDB = opening(factory, db => (opened.push(db), db));
  await keepOne({ ...worker(), indexedDB }, EN, "aaa", `${EN}aaa/t/0.json`, "0", factory);
  const store = keptFiles({ ...worker(), indexedDB }, EN, "aaa");
  await storeIdle(factory);
  const later = await new Promise(resolve => {
    const request = factory.open("pitfalls-search", 2);
    request.onblocked = () => { resolve("blocked"); for (const db of opened) db.close(); };
    request.onsuccess = () => { request.result.close(); resolve("open"); };
  });
  assert.equal(later, "open");
  assert.equal(await store.read(`${EN}aaa/t/0.json`), undefined);
});

test("a wave's reads the store has not answered in 100 ms answer not kept, the worker fetches; those answered keep their text", async () => {
  const factory = new IDBFactory();
  await keepOne(worker(factory), EN, "aaa", `${EN}aaa/t/0.json`, "0");
  await keepOne(worker(factory), EN, "aaa", `${EN}aaa/t/1.json`, "1");
  // a store stuck on one file (a browser's bug, another tab's long write): its request never answers
  const stuck = db => ({ objectStore: () => replacing(db.transaction("files").objectStore("files"), "get",
    target => key => (key === `${EN}aaa/t/1.json` ? {} : target.get(key))) });
  const browser = { ...worker(), indexedDB: faulty(factory, stuck) };
  const store = keptFiles(browser, EN, "aaa");
  await storeIdle(factory);
  const wave = Promise.all([store.read(`${EN}aaa/t/0.json`), store.read(`${EN}aaa/t/1.json`)]);
  await storeIdle(factory);
  assert.deepEqual(browser.waiting(), [100]);
  browser.runAll();
  assert.deepEqual(await wave, ["0", undefined]);

  const working = worker(factory);
  const next = keptFiles(working, EN, "aaa");
  await storeIdle(factory);
  assert.deepEqual(await Promise.all([next.read(`${EN}aaa/t/0.json`), next.read(`${EN}aaa/t/1.json`)]), ["0", "1"]);
  assert.deepEqual(working.waiting(), []);  // a wave answered leaves no timer behind
});
