/* The index files a worker fetched, kept in the browser's IndexedDB for the next page. Read from the HTTP cache, each
 * file costs the browser about a millisecond of work (14 `d/` files: 23 ms; from IndexedDB 1.2 ms, docs/SEARCH.md
 * "Index files kept in the browser"), and a page's first search reads 20 to 30 of them. A file's key is its URL, which
 * names the language and the index's version: a file is never out of date, and when a worker starts, the files of
 * its language's other versions are deleted. Each is kept as its text, which the store copies whole (a parsed file
 * it would walk). Browser only (node reads the files from disk); any failure of the store means the network, as
 * without it. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).kept = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const DATABASE = "pitfalls-search", FILES = "files";
  // what searches fetched is written once no file came for this long: never between a reader's keys (a page closed
  // sooner keeps none of it; its files are in the HTTP cache, as without the store)
  const WRITE_PAUSE_MS = 1000;
  // a wave's reads answer "not kept" (fetch) when the store has not answered them by then: a working store reads a
  // wave in about a millisecond (14 files: 1.2 ms), the network in about 20; one stuck (a browser's bug, another
  // tab's long write) would hold the search for ever
  const READ_LIMIT_MS = 100;

  /* The store of the index in `folder` (the URL of a language's search/, ending in /) at `version`, in `browser`'s
   * IndexedDB (a worker's global: its `indexedDB` and `IDBKeyRange`, or none, and its timers). `read(url)` → Promise
   * of the text of the file kept, or undefined; `keep(url, text)`; `has(url)`. Until the store is open, and for a file
   * it does not have, `read` answers undefined at once: a search link's first files, asked as the worker starts, do
   * not wait. */
  function keptFiles(browser, folder, version) {
    const { indexedDB, IDBKeyRange, setTimeout, clearTimeout } = browser;
    let db = null;
    const present = new Set();  // this version's files in the store, known without asking it
    const writes = new Map();
    let reads = [], writing = null;

    function open() {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(FILES);
      request.onerror = () => null;  // refused (a private window): no store, the network only
      request.onsuccess = () => {
        const opened = request.result;
        // a page whose worker is of a later kept.js opens the store at a later version: give way, fetch from now on
        opened.onversionchange = () => opened.close();  // its reads then answer "not kept" (readAll)
        const files = opened.transaction(FILES, "readwrite").objectStore(FILES);
        const mine = `${folder}${version}/`;
        // the language's other versions: below this one's folder, and above it
        files.delete(IDBKeyRange.bound(folder, mine, false, true));
        files.delete(IDBKeyRange.bound(`${mine}\uffff`, `${folder}\uffff`, true, false));
        const keys = files.getAllKeys(IDBKeyRange.bound(mine, `${mine}\uffff`));
        keys.onsuccess = () => {
          for (const key of keys.result) present.add(key);
          db = opened;
        };
      };
    }

    try {
      open();
    } catch (err) {
      // no store in this browser, or one that refuses it (a blocked origin, storage turned off): the network only
    }

    function readAll() {
      const batch = reads;
      reads = [];
      let waiting = batch.length;
      const notKept = () => { for (const { resolve } of batch) resolve(undefined); };  // those answered stay answered
      const limit = setTimeout(notKept, READ_LIMIT_MS);
      const answer = (resolve, text) => {
        resolve(text);
        if (--waiting === 0) clearTimeout(limit);
      };
      try {
        const files = db.transaction(FILES).objectStore(FILES);
        for (const { url, resolve } of batch) {
          const request = files.get(url);
          request.onsuccess = () => answer(resolve, request.result);
          request.onerror = () => answer(resolve, undefined);
        }
      } catch (err) {
        clearTimeout(limit);
        notKept();
      }
    }

    function read(url) {
      if (!db || !present.has(url)) return Promise.resolve(undefined);
      return new Promise(resolve => {
        if (!reads.length) queueMicrotask(readAll);  // the files a wave asks for, in one transaction
        reads.push({ url, resolve });
      });
    }

    /* Whether the store holds `url`, as far as known without asking it (nothing until it is open). */
    function has(url) {
      return Boolean(db) && present.has(url);
    }

    function writeAll() {
      const batch = [...writes];
      writes.clear();
      try {
        const files = db.transaction(FILES, "readwrite").objectStore(FILES);
        for (const [url, text] of batch) files.put(text, url).onsuccess = () => present.add(url);
      } catch (err) {
        // full, or closed by the browser: the next page fetches these again
      }
    }

    function keep(url, text) {
      if (!db || present.has(url)) return;
      clearTimeout(writing);
      writing = setTimeout(writeAll, WRITE_PAUSE_MS);
      writes.set(url, text);
    }

    return { read, keep, has };
  }

  return { keptFiles };
});
