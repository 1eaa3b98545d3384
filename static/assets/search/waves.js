/* The index files a worker's engine asks for at once (a wave: a query's t/ shards, then its results' d/ files),
 * fetched in one request where the server reads the index folder's batch.json (deploy/nginx.conf:
 * `<version>/batch.json?a=t/5.json&b=d/17.json`, answered with each file on its line after its path), one request
 * each where it does not. In Chromium a request costs the browser some milliseconds of its own whatever its size:
 * ten d/ files fetched at once took 41.8 ms, the same ten in one file 7.3 (docs/SEARCH-LOG.md, "A wave in one
 * request").
 * Browser only (node reads the files from disk). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).waves = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // a batch's files by these names, in its query and in its answer (line k holds the file named NAMES[k], after its
  // path and a space): as many as batch.json has lines (pitfalls/pages/search_index.py BATCH_NAMES)
  const NAMES = "abcdefghijklmnop";
  // how batch.json begins as written: a server that does not read it (a static host) sends it so
  const UNREAD = "<!--#";

  /* fetchFile(path, url, priority) → Promise of the parsed file at `url`, `path` inside the index's folder `index`
   * (`<version>/t/5.json`, as the engine names it), fetched with the other files asked for in the same turn of the
   * worker's event loop. `browser`: the worker's global (its `fetch` and `queueMicrotask`); `kept`: the store of
   * kept.js, where each file fetched is kept as its text, and where a server that sent batch.json unread is marked
   * (under its URL) for the next pages. The files asked for at a priority other than the browser's own ("low": what
   * the engine may need, not waited for) are a batch of their own, at that priority. */
  function fileRequests(browser, index, kept) {
    let wave = null;
    let unread = false;  // this worker's server sent batch.json as written

    function alone({ url, priority }) {
      return browser.fetch(url, { priority }).then(async response => {
        // gone: a page of an earlier build asks for its index's folder, which the next build replaced (engine.js file)
        if (!response.ok) throw Object.assign(new Error(`${response.status} ${response.url}`), { gone: response.status === 404 });
        const text = await response.text();
        const data = JSON.parse(text);  // kept once it reads: a broken answer is not kept for the next pages
        kept.keep(url, text);
        return data;
      });
    }

    function eachAlone(files) {
      for (const file of files) alone(file).then(file.resolve, file.reject);
    }

    /* `files` (at most NAMES.length, of one index folder) in one request to that folder's batch.json, each alone when
     * the answer is not a batch: the server does not read batch.json (then no more batches), the folder is gone, or
     * the request failed; one file alone when its line does not read. */
    function batch(files, where, priority) {
      const query = files.map(({ name }, k) => `${NAMES[k]}=${name}`).join("&");
      // a failed answer (the folder gone: 404) is read like any other: its page is not a line of JSON for each file
      browser.fetch(`${where}?${query}`, { priority }).then(async response => {
        const text = await response.text();
        if (text.startsWith(UNREAD)) {
          unread = true;
          kept.keep(where, UNREAD);
        }
        const lines = text.split("\n");
        if (lines.length !== NAMES.length) return eachAlone(files);
        files.forEach((file, k) => {
          // each line is the file's name, a space and the file: a line of another file (an answer a proxy cached for
          // another query) or that does not read is asked for alone
          if (!lines[k].startsWith(`${file.name} `)) return eachAlone([file]);
          const text = lines[k].slice(file.name.length + 1);
          let data;
          try {
            data = JSON.parse(text);
          } catch (err) {
            return eachAlone([file]);
          }
          kept.keep(file.url, text);
          file.resolve(data);
        });
      }).catch(() => eachAlone(files));
    }

    function send() {
      const batches = new Map();  // an index folder and a priority → the files of that folder asked at it
      for (const file of wave) {
        const key = `${file.priority} ${file.folder}`;
        if (!batches.has(key))
          batches.set(key, { where: new URL(`${file.folder}/batch.json`, index).href, priority: file.priority, files: [] });
        batches.get(key).files.push(file);
      }
      wave = null;
      for (const { where, priority, files } of batches.values()) {
        if (files.length === 1 || unread || kept.has(where)) eachAlone(files);
        else for (let k = 0; k < files.length; k += NAMES.length) batch(files.slice(k, k + NAMES.length), where, priority);
      }
    }

    return function fetchFile(path, url, priority) {
      const cut = path.indexOf("/");  // <version>/t/5.json: the index's folder, and the file's name in it
      return new Promise((resolve, reject) => {
        if (!wave) {
          wave = [];
          browser.queueMicrotask(send);  // after the engine's other asks of this turn
        }
        wave.push({ folder: path.slice(0, cut), name: path.slice(cut + 1), url, priority, resolve, reject });
      });
    };
  }

  return { fileRequests, NAMES };
});
