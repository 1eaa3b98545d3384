/* waves.js: the index files asked for in one turn of the worker, fetched in one request to batch.json where the
 * server reads it (deploy/nginx.conf), one request each where it does not (a static host), over a fake `fetch`. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { fileRequests, NAMES } = require("../../static/assets/search/waves.js");

const INDEX = "https://example.org/en/search/";
// batch.json as the build writes it (search_index.py batch_template): what a static host sends
const TEMPLATE = [...NAMES].map(n => `<!--# if expr="$arg_${n}" --><!--# echo var="arg_${n}" --> <!--# include virtual="$arg_${n}" --><!--# endif -->`).join("\n");

/* A server of `files` (path inside search/ → its text) and the worker's view of it: `reads`: whether it reads
 * batch.json (nginx) or sends it as written; `answer(href)`: a batch's answer instead of the server's own.
 * `requests`: each [URL, priority] asked; `kept`: a store of kept.js (`keep` and `has` only). */
function server(files, { reads = true, answer = null, marked = [] } = {}) {
  const requests = [], keptFiles = new Map(marked.map(url => [url, "<!--#"]));
  const browser = {
    queueMicrotask,
    fetch: async (href, init = {}) => {
      requests.push([href, init.priority]);
      const url = new URL(href);
      const path = url.pathname.slice("/en/search/".length);
      if (path.endsWith("/batch.json")) {
        const folder = path.slice(0, -"batch.json".length);
        if (!Object.keys(files).some(name => name.startsWith(folder))) return { ok: false, status: 404, url: href, text: async () => "gone" };
        const named = url.searchParams;
        const text = answer ? answer(href)
          : reads ? [...NAMES].map(n => (named.has(n) ? `${named.get(n)} ${files[folder + named.get(n)] ?? ""}` : "")).join("\n") : TEMPLATE;
        return { ok: true, status: 200, url: href, text: async () => text };
      }
      const status = path in files ? 200 : 404;
      return { ok: status === 200, status, url: href, text: async () => files[path] };
    },
  };
  const kept = { keep: (url, text) => keptFiles.set(url, text), has: url => keptFiles.has(url) };
  const fetchFile = fileRequests(browser, INDEX, kept);
  const ask = (path, priority = "auto") => fetchFile(path, INDEX + path, priority);
  return { requests, keptFiles, ask, urls: () => requests.map(([href]) => href.slice(INDEX.length)) };
}

const FILES = Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`v1/d/${n}.json`, JSON.stringify({ n })]));

test("the files asked for in one turn come in one request, named a, b, c … in the order asked", async () => {
  const { ask, urls, keptFiles } = server(FILES);
  const found = await Promise.all([ask("v1/d/7.json"), ask("v1/d/2.json"), ask("v1/d/11.json")]);
  assert.deepEqual(found, [{ n: 7 }, { n: 2 }, { n: 11 }]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/7.json&b=d/2.json&c=d/11.json"]);
  // each kept as its own text, under its own URL: the next page reads it from the store alone
  assert.deepEqual([...keptFiles], [[`${INDEX}v1/d/7.json`, '{"n":7}'], [`${INDEX}v1/d/2.json`, '{"n":2}'], [`${INDEX}v1/d/11.json`, '{"n":11}']]);
});

test("a file asked for alone is fetched at its own address (the browser's cache keeps it for any query)", async () => {
  const { ask, requests } = server(FILES);
  assert.deepEqual(await ask("v1/d/3.json"), { n: 3 });
  assert.deepEqual(requests, [[`${INDEX}v1/d/3.json`, "auto"]]);
});

test("files asked for in different turns are different requests", async () => {
  const { ask, urls } = server(FILES);
  await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]);
  await Promise.all([ask("v1/d/3.json"), ask("v1/d/4.json")]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/1.json&b=d/2.json", "v1/batch.json?a=d/3.json&b=d/4.json"]);
});

test("the files asked for at low priority are a batch of their own, at that priority, beside the others' batch", async () => {
  const { ask, requests } = server(FILES);
  await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json", "low"), ask("v1/d/3.json"), ask("v1/d/4.json", "low")]);
  assert.deepEqual(requests, [[`${INDEX}v1/batch.json?a=d/1.json&b=d/3.json`, "auto"], [`${INDEX}v1/batch.json?a=d/2.json&b=d/4.json`, "low"]]);
  const alone = server(FILES);
  await Promise.all([alone.ask("v1/d/1.json"), alone.ask("v1/d/2.json", "low")]);
  assert.deepEqual(alone.requests, [[`${INDEX}v1/d/1.json`, "auto"], [`${INDEX}v1/d/2.json`, "low"]]);
});

test("more files than a batch names (16) take a request for each 16", async () => {
  const { ask, urls } = server(FILES);
  const found = await Promise.all(Array.from({ length: 20 }, (_, n) => ask(`v1/d/${n}.json`)));
  assert.deepEqual(found.map(({ n }) => n), Array.from({ length: 20 }, (_, n) => n));
  const batches = urls().map(url => new URL(url, INDEX).searchParams);
  assert.deepEqual(batches.map(named => [...named.keys()].join("")), ["abcdefghijklmnop", "abcd"]);
  assert.deepEqual(batches.map(named => named.get("a")), ["d/0.json", "d/16.json"]);
});

test("sixteen files take one request", async () => {
  const { ask, urls } = server(FILES);
  await Promise.all(Array.from({ length: 16 }, (_, n) => ask(`v1/d/${n}.json`)));
  assert.equal(urls().length, 1);
});

test("the files of two index folders (a build's and the next one's) go to each folder's batch.json", async () => {
  const { ask, urls } = server({ ...FILES, "v2/d/0.json": '"new"', "v2/d/1.json": '"newer"' });
  const found = await Promise.all([ask("v1/d/0.json"), ask("v2/d/0.json"), ask("v1/d/1.json"), ask("v2/d/1.json")]);
  assert.deepEqual(found, [{ n: 0 }, "new", { n: 1 }, "newer"]);
  assert.deepEqual(urls().sort(), ["v1/batch.json?a=d/0.json&b=d/1.json", "v2/batch.json?a=d/0.json&b=d/1.json"]);
});

test("a server that sends batch.json as written: each file alone, no batch asked again, the server marked", async () => {
  const { ask, urls, keptFiles } = server(FILES, { reads: false });
  assert.deepEqual(await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]), [{ n: 1 }, { n: 2 }]);
  await Promise.all([ask("v1/d/3.json"), ask("v1/d/4.json")]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/1.json&b=d/2.json", "v1/d/1.json", "v1/d/2.json", "v1/d/3.json", "v1/d/4.json"]);
  assert.equal(keptFiles.get(`${INDEX}v1/batch.json`), "<!--#");  // the next pages' workers ask for no batch either
  assert.equal(keptFiles.get(`${INDEX}v1/d/1.json`), '{"n":1}');
});

test("a worker whose store marks its server as one that sends batch.json as written asks for each file alone", async () => {
  const { ask, urls } = server(FILES, { reads: false, marked: [`${INDEX}v1/batch.json`] });
  await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]);
  assert.deepEqual(urls(), ["v1/d/1.json", "v1/d/2.json"]);
});

test("a folder gone (the site built again): each file asked for alone fails as gone, and batches go on", async () => {
  const { ask, urls } = server(FILES);
  const asked = [ask("v0/d/1.json"), ask("v0/d/2.json")];
  for (const one of asked) await assert.rejects(one, err => err.gone === true && err.message.startsWith("404 "));
  await Promise.all([ask("v1/d/3.json"), ask("v1/d/4.json")]);
  assert.deepEqual(urls(), ["v0/batch.json?a=d/1.json&b=d/2.json", "v0/d/1.json", "v0/d/2.json",
    "v1/batch.json?a=d/3.json&b=d/4.json"]);
});

test("an answer that is not a batch (a proxy's page): each file alone, and batches go on", async () => {
  const { ask, urls, keptFiles } = server(FILES, { answer: () => "<html>\n<body>busy</body>\n</html>" });
  assert.deepEqual(await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]), [{ n: 1 }, { n: 2 }]);
  await Promise.all([ask("v1/d/3.json"), ask("v1/d/4.json")]);
  assert.equal(urls().filter(url => url.includes("batch.json")).length, 2);
  assert.equal(keptFiles.has(`${INDEX}v1/batch.json`), false);
});

test("an answer of fewer lines than a batch has (a proxy's JSON of one line): each file alone", async () => {
  const { ask, urls } = server(FILES, { answer: () => '{"error":"busy"}' });
  assert.deepEqual(await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]), [{ n: 1 }, { n: 2 }]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/1.json&b=d/2.json", "v1/d/1.json", "v1/d/2.json"]);
});

test("a line of a batch that does not read (a file the server could not include): that file alone, the rest read", async () => {
  const lines = ['d/1.json {"n":1}', "d/2.json <p>not found</p>", 'd/3.json {"n":3}', ...Array(NAMES.length - 3).fill("")];
  const { ask, urls, keptFiles } = server(FILES, { answer: () => lines.join("\n") });
  const found = await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json"), ask("v1/d/3.json")]);
  assert.deepEqual(found, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/1.json&b=d/2.json&c=d/3.json", "v1/d/2.json"]);
  assert.equal(keptFiles.get(`${INDEX}v1/d/2.json`), '{"n":2}');  // kept from its own answer
});

test("an answer cached for another query (a proxy that leaves the query out): the files it does not hold, alone", async () => {
  // the answer to ?a=d/1.json&b=d/2.json, sent for ?a=d/1.json&b=d/5.json
  const cached = ['d/1.json {"n":1}', 'd/2.json {"n":2}', ...Array(NAMES.length - 2).fill("")].join("\n");
  const { ask, urls } = server(FILES, { answer: () => cached });
  assert.deepEqual(await Promise.all([ask("v1/d/1.json"), ask("v1/d/5.json")]), [{ n: 1 }, { n: 5 }]);
  assert.deepEqual(urls(), ["v1/batch.json?a=d/1.json&b=d/5.json", "v1/d/5.json"]);
});

test("a batch whose request fails: each file alone", async () => {
  const files = { ...FILES };
  const { ask, requests } = server(files, { answer: () => { throw new TypeError("Failed to fetch"); } });
  assert.deepEqual(await Promise.all([ask("v1/d/1.json"), ask("v1/d/2.json")]), [{ n: 1 }, { n: 2 }]);
  assert.equal(requests.length, 3);
});
