/* Shared by the node tests of the search engine (tests/js/*.test.js; tests/test_search_rules.py uses `fetcher`): the
 * modules, and hand-made indexes in the engine's format (as pitfalls/pages/search_index.py writes them;
 * tests/test_search_rules.py builds the same). */
"use strict";
const path = require("path");

const SEARCH = path.join(__dirname, "..", "..", "static", "assets", "search");
const load = name => require(path.join(SEARCH, `${name}.js`));

// field bits of a posting's flags, and what a match in each counts for (docs/SEARCH.md, "Index")
const TITLE = 1, TAGS = 2, QUICK_FIX = 4, SYMPTOMS = 8, STEPS = 16, TRANSLATION = 32;
const ALONE = 1 << 11;  // a Chinese character's posting: it stands as a word of its own in the entry
const OVERLAP = 1 << 12;  // a Chinese word's posting: it only overlaps the entry's words (定性 in 稳定性)
const FIELDS = [["title", "", "", 1], ["tags", "", "", 0.8], ["quick_fix", "", "", 0.6], ["symptoms", "", "", 0.8],
  ["steps", "", "", 0.2], ["translation", "", "", 0.4]];

/* The flags bits of a title term that carry the entry's title length: Chinese characters, English letters. */
const titleChars = (han, latin) => han << 13 | latin << 21;

/* A hand-made index: one term shard, entries doc0, doc1, …: {path: content}. */
function makeIndex(terms, docs, { synonyms = [], entries = {}, words = {}, completions = {}, pinyin = {}, messages = {}, anchored = {}, titles = {}, variants = {},
  stopwords = ["the"], syllables = "a ai an ban ben chang e xian cun", fields = FIELDS, sections = {}, tags = {}, keywords = {},
  shards = 1, splitCharacters = "", maxTermChars = 12, scoreScale = 100, lang = "en", locations = {}, linkedFrom = Array(docs).fill(0),
  lengths = Array(docs).fill(100) } = {}) {
  const manifest = {
    formatVersion: 16, lang, docs, shards, splitCharacters, maxTermChars, version: "x", fields,
    titleCharsShift: [13, 21], aloneBit: 11, overlapBit: 12, scoreScale, stopwords, synonyms, pinyinShards: 1, syllables,
    absentSynonymTerms: [...new Set(synonyms.flat(2))].filter(term => !(term in terms)).sort(),
    wordLengths: Object.keys(words).map(Number).sort((a, b) => a - b), completionShards: 1, linkedFrom, lengths,
    messages: { none: "No results", closest: "Closest terms: {terms}", browse: "Tags", browseLocation: "tags/" },
  };
  const files = { "manifest.json": manifest, "p/0.json": pinyin, "c/0.json": completions };
  // each term and form in the shard of its key, a synonym group's English terms in that of the group's first word
  // (pitfalls/pages/search_index.py)
  const { shardOf, shardHomes } = load("analysis");
  const homes = shardHomes(synonyms);
  const shard = term => files[`t/${shardOf(homes.get(term) ?? term, shards, splitCharacters)}.json`];
  for (let k = 0; k < shards; k++) files[`t/${k}.json`] = { terms: {}, entries: {}, variants: {}, compounds: [], messages: {} };
  for (const [term, list] of Object.entries(terms)) shard(term).terms[term] = list;
  // `entries`: term → how many entries have it, for a term whose postings the index capped
  for (const [term, count] of Object.entries(entries)) shard(term).entries[term] = count;
  for (const [form, list] of Object.entries(variants)) shard(form).variants[form] = list;
  // `messages`: each entry's message keys in its d/ file; `anchored`: term → [entry, key, ...], in the term's shard
  for (const [term, list] of Object.entries(anchored)) shard(term).messages[term] = list;
  for (const [n, list] of Object.entries(words)) files[`w/${n}.json`] = list;
  for (let n = 0; n < docs; n++)
    files[`d/${n}.json`] = { location: locations[n] || `doc${n}/`, title: titles[n] || `doc ${n}`, tags: tags[n] || [],
      sections: sections[n] || [], messages: messages[n] || [], keywords: keywords[n] || [] };
  return files;
}

/* fetchJson over `files`: the manifest, and the other files in the folder named by its version (x/t/0.json is
 * files["t/0.json"]); records each file asked for in `log` by its name in `files`. */
function fetcher(files, log = []) {
  return async file => {
    const folder = `${files["manifest.json"].version}/`;
    const name = file === "manifest.json" ? file : file.startsWith(folder) ? file.slice(folder.length) : null;
    log.push(name || file);
    if (!(name in files)) throw new Error(`404 ${file}`);
    return JSON.parse(JSON.stringify(files[name]));
  };
}

/* How many waves of files `query` waits on, from a fresh engine over `files`: each wave the engine asks for is
 * answered at once, once nothing else is left to run (the manifest is the first wave). */
async function waves(files, query, settings = {}) {
  const { Engine } = load("engine");
  const pending = [], answer = fetcher(files);
  const engine = new Engine(file => new Promise((resolve, reject) => pending.push(() => answer(file).then(resolve, reject))), settings);
  let done = false, count = 0;
  const search = engine.search(query).finally(() => { done = true; });
  while (!done) {
    await new Promise(resolve => setImmediate(resolve));
    if (pending.length) { count++; pending.splice(0).forEach(go => go()); }
  }
  await search;
  return count;
}

function engineFor(files, settings = {}) {
  const { Engine } = load("engine");
  return new Engine(fetcher(files), settings);
}

async function search(files, query, settings = {}) {
  return (await engineFor(files, settings).search(query)).ranked;
}

async function rank(files, query, settings = {}) {
  return (await search(files, query, settings)).map(r => r.id);
}

/* unit → what the entry's match of it counts, from the explanation */
const matches = result => Object.fromEntries(result.explain.units.map(u => [u.unit, u.match]));

/* the readings of options.js, written out: a test that changes one weight passes all of them */
const READINGS = {
  typed: { weight: 1, penalty: 0 }, variant: { weight: 1, penalty: 1 }, parts: { weight: 0.6, penalty: 1 },
  pinyin: { weight: 0.6, penalty: 1 }, synonym: { weight: 0.5, penalty: 1 }, typo1: { weight: 0.5, penalty: 1 },
  typo2: { weight: 0.3, penalty: 2 }, completion: { weight: 0.5, penalty: 1 },
};

/* Once the work begun so far on the search store of `indexedDB` (kept.js: "pitfalls-search", its one object store
 * "files") is done: opening it, its start's deletes and listing, writes. A transaction of its own, begun now, runs after
 * every one begun before whose scope it shares (IndexedDB's order), and open requests are answered in turn: no timer
 * to guess, which a slow run (mutation testing, a loaded machine) outlasted. */
function storeIdle(indexedDB) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("pitfalls-search", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("files");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const done = db.transaction("files").objectStore("files").count();
      done.onsuccess = () => { db.close(); resolve(); };
    };
  });
}

/* Once `condition()` holds, polled every 5 ms, or after `ms`: a wait for an event of the code under test that a slow run
 * (mutation testing, a loaded machine) may delay, where a fixed wait would guess its time. */
async function until(condition, ms = 2000) {
  for (let waited = 0; !condition() && waited < ms; waited += 5) await new Promise(resolve => setTimeout(resolve, 5));
}

module.exports = { storeIdle, until, load, TITLE, TAGS, QUICK_FIX, SYMPTOMS, STEPS, TRANSLATION, ALONE, OVERLAP, FIELDS, titleChars, makeIndex, fetcher, waves, engineFor,
  search, rank, matches, READINGS };
