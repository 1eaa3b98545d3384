/* engine.js: reading a query (Chinese pieces, filler, the stages of docs/SEARCH.md "Query" 5 and 6), fetching only
 * what a query needs, once, and the answer: Material's items and the ranked list with its explanation. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, makeIndex: index, fetcher, until, engineFor, titleChars, search, rank, matches, READINGS, TITLE, TAGS, SYMPTOMS, STEPS, ALONE } = require("./helpers.js");

const { Engine, STAGE_NAMES, FORMAT_VERSION } = load("engine");
const { Query } = load("query");
const readings = load("readings");

test("the stages, and the index format read", () => {
  assert.deepEqual(STAGE_NAMES, ["variants", "reorders", "parts", "typos", "completions", "pinyin", "synonyms"]);
  assert.equal(FORMAT_VERSION, 16);
});

test("an unknown stage or rule is refused", () => {
  assert.throws(() => new Engine(async () => ({}), { off: ["typos", "speling"] }), { message: "unknown search stage or rule speling" });
  assert.doesNotThrow(() => new Engine(async () => ({}), { off: ["typos", "typo"] }));
  assert.throws(() => new Engine(async () => ({}), { off: ["title"] }), { message: "unknown search stage or rule title" });  // part of words
  assert.doesNotThrow(() => new Engine(async () => ({})));
});

// Each stage: a query only it can answer (doc1, not the first entry), and nothing found with it off.
const STAGE_CASES = {
  variants: [index({ "显存": [0, 100, STEPS, 1, 900, TITLE] }, 2, { variants: { "顯存": ["显存"] } }), "顯存"],
  parts: [index({ opset: [0, 100, STEPS, 1, 900, TITLE], 14: [1, 100, TITLE] }, 2), "opset14"],
  typos: [index({ version: [0, 100, STEPS, 1, 900, TITLE] }, 2, { words: { 7: ["version"] } }), "versoin"],
  completions: [index({ nvidia: [0, 100, STEPS, 1, 900, TITLE] }, 2, { completions: { nvi: ["nvidia"] } }), "nvid"],
  pinyin: [index({ "嫦娥": [0, 100, STEPS, 1, 900, TITLE] }, 2, { pinyin: { change: ["嫦娥"] } }), "change"],
  synonyms: [index({ freez: [0, 100, STEPS, 1, 900, TITLE] }, 2, { synonyms: [[["hang"], ["freez"]]] }), "hang"],
};

for (const [stage, [files, query]] of Object.entries(STAGE_CASES)) {
  test(`stage ${stage}: finds what only it reads, and can be switched off`, async () => {
    assert.deepEqual(await rank(files, query), ["doc1", "doc0"]);
    assert.deepEqual(await rank(files, query, { off: [stage] }), []);
    const others = STAGE_NAMES.filter(name => name !== stage);
    assert.deepEqual(await rank(files, query, { off: others }), ["doc1", "doc0"]);
  });
}

test("search: nothing for an empty query, without fetching anything", async () => {
  const log = [];
  const engine = new Engine(fetcher(index({ alpha: [0, 100, STEPS] }, 1), log));
  assert.deepEqual(await engine.search("  \n "), { items: [], ranked: [] });
  assert.deepEqual(log, []);
});

test("search: Material's items and the ranked list", async () => {
  const files = index({ alpha: [0, 1234, STEPS, 1, 5678, TITLE | titleChars(0, 5)] }, 2, { titles: { 0: "Alpha zero", 1: "Alpha" } });
  const found = await engineFor(files).search("Alpha");
  assert.deepEqual(found.ranked.map(({ id, title, score, exact }) => ({ id, title, score, exact })), [
    { id: "doc1", title: "Alpha", score: 56.78, exact: false }, { id: "doc0", title: "Alpha zero", score: 12.34, exact: false }]);
  assert.deepEqual(found.items.map(([item]) => [item.location, item.title, item.score]), [
    ["doc1/", "<mark>Alpha</mark>", 56.78], ["doc0/", "<mark>Alpha</mark> zero", 12.34]]);
  assert.deepEqual(found.items[0][0].terms, { alpha: true });
});

test("standing: an entry's place among every entry matched, past the ones listed, and why; none for one not matched", async () => {
  // alpha in doc2's title, doc1's symptoms, doc0's steps, not in doc3; one entry listed
  const files = index({ alpha: [0, 100, STEPS, 1, 100, SYMPTOMS, 2, 100, TITLE | titleChars(0, 5)], beta: [3, 100, TITLE] }, 4);
  const engine = new Engine(fetcher(files), { options: { maxResults: 1 } });
  assert.deepEqual((await engine.search("alpha")).ranked.map(r => r.id), ["doc2"]);
  const last = await engine.standing("alpha", "doc0");
  assert.deepEqual([last.matched, last.rank, last.result.id], [3, 3, "doc0"]);
  assert.equal(last.result.explain.decidedBy, "words");  // below doc1, whose symptoms beat its steps
  assert.deepEqual(last.result.explain.units, [{ unit: "alpha", weight: 0.847, entries: 3, match: 0.2,  // log(1 + 4 / 3); the steps
    terms: [{ term: "alpha", reading: "typed", fields: ["steps"] }] }]);
  assert.equal(last.result.explain.message, null);
  const second = await engine.standing("alpha", "doc1");
  assert.deepEqual([second.rank, second.result.id, second.result.explain.decidedBy], [2, "doc1", "words"]);
  assert.deepEqual([(await engine.standing("alpha", "doc2")).rank], [1]);
  assert.deepEqual(await engine.standing("alpha", "doc3"), { matched: 3, rank: null, result: null });
});

test("search: the score is rounded to two decimals", async () => {
  const found = await search(index({ alpha: [0, 100, STEPS] }, 1, { scoreScale: 3 }), "alpha");
  assert.equal(found[0].score, 33.33);
});

test("explain: each rule's value, the rule that put an entry below the one before, each unit with its terms", async () => {
  const files = index({ alpha: [0, 900, STEPS, 1, 100, TITLE | titleChars(0, 15)], beta: [1, 300, STEPS | SYMPTOMS] }, 3,
    { linkedFrom: [1, 2, 0], lengths: [50, 100, 100] });
  const [top, next] = await search(files, "alpha beta");
  assert.equal(top.id, "doc1");
  assert.deepEqual(top.explain, {
    rules: { message: 0, words: 1.224, typo: 0, score: 4 },
    share: 0.88,
    title: 0.133,
    phrases: 0,
    linkedFrom: 2,
    length: 1,
    decidedBy: null,
    units: [
      { unit: "alpha", weight: 0.916, entries: 2, match: 1, terms: [{ term: "alpha", reading: "typed", fields: ["title"] }] },
      { unit: "beta", weight: 1.386, entries: 1, match: 0.8, terms: [{ term: "beta", reading: "typed", fields: ["symptoms", "steps"] }] },
    ],
    queryUnits: ["alpha", "beta"],
    common: [], commonCharacters: [],
    message: null,
  });
  assert.equal(next.explain.decidedBy, "words");
  assert.deepEqual(next.explain.rules, { message: 0, words: 0.135, typo: 0, score: 9 });
  assert.equal(next.explain.title, 0);
  assert.equal(next.explain.linkedFrom, 1);
  assert.equal(next.explain.length, 0.5);
  // log(1 + 3 / 2) and log(1 + 3 / 1); words: (0.916 × 1 + 1.386 × 0.8) / (0.916 + 1.386) = 0.88, times
  // 1 + 2 × title, the title's 5 of 15 letters covered × the query's 0.916 / (0.916 + 1.386) in it = 0.133, times
  // 1 + 0.1 × the links on a log scale: doc1's 2 of the most 2, log 3 / log 3 = 1; doc0's 1, log 2 / log 3. doc0 is half
  // the average length: its steps match counts 0.2 / (1 − 0.75 + 0.75 × 0.5) = 0.32, words 0.916 × 0.32 / 2.302 × 1.063 = 0.135
});

test("the manifest and every file are fetched once, from the folder named by the index version", async () => {
  const asked = [];
  const files = index({ alpha: [0, 100, STEPS] }, 1);
  const fetchJson = fetcher(files);
  const engine = new Engine(path => asked.push(path) && fetchJson(path));
  await engine.search("alpha");
  await engine.search("alpha");
  assert.deepEqual(asked, ["manifest.json", "x/t/0.json", "x/c/0.json", "x/d/0.json"]);  // c/: alpha may be begun
});

test("a failed fetch is retried by the next query", async () => {
  const files = index({ alpha: [0, 100, STEPS] }, 1);
  let failures = 1;
  const log = [];
  const fetchOnce = fetcher(files, log);
  const engine = new Engine(async path => {
    if (path.startsWith("x/t/") && failures-- > 0) throw new Error("offline");
    return fetchOnce(path);
  });
  await assert.rejects(engine.search("alpha"), { message: "offline" });
  assert.deepEqual((await engine.search("alpha")).ranked.map(r => r.id), ["doc0"]);
});

test("a file gone (the site built again, its folder renamed): the reload item for this query and every one after", async () => {
  const files = index({ alpha: [0, 100, STEPS], beta: [0, 100, STEPS] }, 1);
  const log = [];
  const fetchOnce = fetcher(files, log);
  const engine = new Engine(async path => {
    if (path === "x/d/0.json") throw Object.assign(new Error("404"), { gone: true });
    return fetchOnce(path);
  });
  const reload = { items: [[{ location: "./", title: "The search index is out of date: reload the page", text: "", tags: [],
    score: 0, terms: {} }]], ranked: [], outdated: true };
  assert.deepEqual(await engine.search("alpha"), reload);
  assert.deepEqual(await engine.search("beta"), reload);
  assert.deepEqual(log, ["manifest.json", "t/0.json", "c/0.json"]);  // nothing asked once it is out of date
});

test("the c/ file is fetched for a last word of three letters or more from a letter, not filler; shards for what it begins", async () => {
  const files = index({ alpha: [0, 100, STEPS], nvidia: [1, 100, STEPS], "嫦娥": [2, 100, STEPS] }, 3,
    { completions: { alp: ["alpha"], nvi: ["nvidia"] }, pinyin: { change: ["嫦娥"] } });
  const fetched = async query => {
    const log = [];
    const found = (await new Engine(fetcher(files, log)).search(query)).ranked.map(r => r.id);
    return [found, log.filter(p => p.startsWith("c/")).length];
  };
  assert.deepEqual(await fetched("nvid"), [["doc1"], 1]);
  assert.deepEqual(await fetched("alpha nvid  "), [["doc0", "doc1"], 1]);  // spaces after it: Material trims them
  assert.deepEqual(await fetched("alpha"), [["doc0"], 1]);  // a term: it may be the start of a longer one
  assert.deepEqual(await fetched("nvid alpha"), [["doc0"], 1]);  // alpha is the last word
  assert.deepEqual(await fetched("alpha nvid?"), [["doc0"], 0]);  // something follows it
  assert.deepEqual(await fetched("nv"), [[], 0]);  // fewer than three letters
  assert.deepEqual(await fetched("change"), [["doc2"], 1]);  // pinyin of a term: c/ asked before that is known
  assert.deepEqual(await fetched("the"), [[], 0]);  // filler
  assert.deepEqual(await fetched("4nvid"), [[], 0]);  // not from a letter
  // a completion's shard only for a word that begins a longer term: alpha begins none here, nvid begins nvidia
  const sharded = index({ alpha: [0, 100, STEPS], nvidia: [1, 100, STEPS] }, 2,
    { shards: 8, completions: { alp: ["alpha"], nvi: ["nvidia"] } });
  const shards = async query => {
    const log = [];
    await new Engine(fetcher(sharded, log)).search(query);
    return log.filter(p => p.startsWith("t/")).sort();
  };
  const { shardOf } = load("analysis");
  assert.deepEqual(await shards("alpha"), [`t/${shardOf("alpha", 8)}.json`]);
  assert.deepEqual(await shards("nvid"), [`t/${shardOf("nvid", 8)}.json`, `t/${shardOf("nvidia", 8)}.json`].sort());
});

test("the last word's c/ file is fetched with the term shards, a misspelt word's corrections beside its completions", async () => {
  // eight shards: versoin and nvid (typed) in 3 and 0, the correction version in 7, the completion nvidia in 6
  const { shardOf } = load("analysis");
  assert.deepEqual(["versoin", "nvid", "version", "nvidia"].map(t => shardOf(t, 8)), [3, 0, 7, 6]);
  const files = index({ version: [0, 100, STEPS], nvidia: [1, 100, STEPS] }, 2,
    { shards: 8, words: { 7: ["version"] }, completions: { nvi: ["nvidia"] } });
  const log = [];
  const fetchLogged = fetcher(files, log);
  // each answered once the file it should be fetched beside is asked for, or after 2 s: not a guess of how long
  const beside = { "x/t/0.json": "c/0.json", "x/t/3.json": "c/0.json", "x/t/6.json": "t/7.json" };
  const engine = new Engine(async path => {
    const content = await fetchLogged(path);
    if (beside[path]) {
      await until(() => log.includes(beside[path]));
      log.push(`${path} answered`);
    }
    return content;
  });
  assert.deepEqual((await engine.search("versoin nvid")).ranked.map(r => r.id).sort(), ["doc0", "doc1"]);
  assert.ok(log.indexOf("c/0.json") < log.indexOf("x/t/0.json answered"), log.join(" "));
  assert.ok(log.indexOf("t/7.json") < log.indexOf("x/t/6.json answered"), log.join(" "));
});

test("the c/ file of the last word or identifier, by its first three letters, is asked before the term shards answer", async () => {
  // eight c/ files: nvi's is 4 and cud's 3; nvid's 0, nvidia_sm's 7 and tor's 2 (keyed whole, or the first identifier's)
  const { shardOf } = load("analysis");
  assert.deepEqual(["nvi", "cud", "nvid", "nvidia_sm", "tor"].map(key => shardOf(key, 8)), [4, 3, 0, 7, 2]);
  const files = index({ nvidia_smi: [0, 100, STEPS], nvidia: [1, 100, STEPS], cuda_visible_devices: [2, 100, STEPS] }, 3);
  files["manifest.json"] = { ...files["manifest.json"], completionShards: 8 };
  for (let k = 0; k < 8; k++) files[`c/${k}.json`] = {};
  files["c/4.json"] = { nvi: ["nvidia", "nvidia_smi"] };
  files["c/3.json"] = { cud: ["cuda_visible_devices"] };
  // the last word; the identifier being typed (trailing spaces: Material trims them) whose last word is too short;
  // the last of two identifiers
  for (const [query, found, file] of [["nvid", ["doc1"], "c/4.json"], ["nvidia-sm  ", ["doc0", "doc1"], "c/4.json"],
    ["torch-x cuda_vi", ["doc2"], "c/3.json"]]) {
    const log = [];
    const fetchLogged = fetcher(files, log);
    const engine = new Engine(async path => {
      const content = await fetchLogged(path);
      if (path.startsWith("x/t/")) {  // answered once the c/ file is asked for, or after 2 s: not a guess of how long
        await until(() => log.includes(file));
        log.push("t/ answered");
      }
      return content;
    });
    assert.deepEqual((await engine.search(query)).ranked.map(r => r.id).sort(), found, query);
    assert.deepEqual(log.filter(p => p.startsWith("c/")), [file], query);
    assert.ok(log.indexOf(file) < log.indexOf("t/ answered"), `${query}: ${log.join(" ")}`);
  }
});

test("only the shards of the query's characters and words are fetched", async () => {
  // four shards: alpha in 3, gamma in 2, delta in 1, 不 in 0
  const files = index({ alpha: [0, 100, STEPS], gamma: [1, 100, STEPS], delta: [2, 100, STEPS], "不": [3, 100, STEPS] }, 4, { shards: 4 });
  const log = [];
  const engine = new Engine(fetcher(files, log));
  assert.deepEqual((await engine.search("gamma")).ranked.map(r => r.id), ["doc1"]);
  assert.deepEqual(log.filter(p => p.startsWith("t/")), ["t/2.json"]);
  assert.deepEqual((await engine.search("alpha 不")).ranked.map(r => r.id), ["doc0", "doc3"]);
  assert.deepEqual(log.filter(p => p.startsWith("t/")).sort(), ["t/0.json", "t/2.json", "t/3.json"]);
});

test("filler that ends a run, and English filler, are not fetched unless the query is only filler", async () => {
  const files = index({ "显存": [0, 100, STEPS], "怎么": [1, 100, STEPS], alpha: [2, 100, STEPS], the: [3, 100, STEPS] }, 4,
    { shards: 128, splitCharacters: "显怎", stopwords: ["the", "怎么办"] });
  const { shardOf } = load("analysis");
  const shards = keys => [...new Set(keys.map(key => `t/${shardOf(key, 128, "显怎")}.json`))].sort();
  // no two share one
  assert.equal(new Set(["显", "显存", "存", "怎", "怎么", "么", "办", "alpha", "the"].map(t => shardOf(t, 128, "显怎"))).size, 9);
  const fetched = async query => {
    const log = [];
    const ranked = (await new Engine(fetcher(files, log)).search(query)).ranked.map(r => r.id);
    return [ranked, log.filter(p => p.startsWith("t/")).sort()];
  };
  // 怎么办 ends the run: no word can start in it and reach past it; 显 is split, so its pair's shard is fetched too
  assert.deepEqual(await fetched("显存怎么办"), [["doc0"], shards(["显", "显存", "存"])]);
  // filler before other characters: a word starting inside it may reach past it, so its shards are read
  assert.deepEqual(await fetched("怎么办显存"), [["doc0"], shards(["怎", "怎么", "么", "办", "显", "显存", "存"])]);
  assert.deepEqual(await fetched("the alpha"), [["doc2"], shards(["alpha"])]);
  // only filler: searched as typed, with the shards it needs fetched then
  assert.deepEqual(await fetched("怎么办"), [["doc1"], shards(["怎", "怎么", "么", "办"])]);
  assert.deepEqual(await fetched("the"), [["doc3"], shards(["the"])]);
});

test("a manifest of another format: one console error, and the reload item for every query", async () => {
  const files = index({ alpha: [0, 100, STEPS] }, 1, { lang: "zh" });
  files["manifest.json"].formatVersion = 1;
  const errors = [];
  const original = console.error;
  console.error = (...args) => errors.push(args.join(" "));
  try {
    const log = [];
    const engine = new Engine(fetcher(files, log));
    for (let n = 0; n < 2; n++) {
      const answer = await engine.search("alpha");
      assert.deepEqual(answer, { items: [[{ location: "./", title: "搜索索引已过期，请刷新页面", text: "", tags: [], score: 0, terms: {} }]],
        ranked: [], outdated: true });
    }
    assert.deepEqual(errors, ["search: the index is format 1, this engine reads 16: reload the page"]);
    assert.deepEqual(log, ["manifest.json", "manifest.json"]);  // nothing else
  } finally {
    console.error = original;
  }
});

test("nothing found: one item, with the terms within three edits of the words typed", async () => {
  const files = index({ kubernet: [0, 100, STEPS], kubernetes: [0, 100, STEPS] }, 1, { words: { 8: ["kubernet"], 10: ["kubernetes"] } });
  const answer = await engineFor(files).search("kubxyzet");
  assert.deepEqual(answer.ranked, []);
  assert.deepEqual(answer.items, [[{ location: "tags/", title: "No results", text: "<p>Closest terms: kubernet</p><p>Tags</p>",
    tags: [], score: 0, terms: {} }]]);
  const closer = await engineFor(files, { options: { closestEdits: 2 } }).search("kubxyzet");
  assert.equal(closer.items[0][0].text, "<p>Tags</p>");
});

test("nothing found: only the nearest terms of each word, at most three a word and six in all", async () => {
  const words = { 5: ["abcdw", "abcdx", "abcdy", "abcdz", "abcww", "fghij", "fghik", "fghil", "fghim", "lmnop", "lmnoq"] };
  const terms = Object.fromEntries(words[5].map(w => [w, [0, 100, STEPS]]));
  const files = index(terms, 1, { words });
  const text = async (query, options = {}) => (await engineFor(files, { off: ["typos"], options }).search(query)).items[0][0].text;
  assert.equal(await text("abcdv"), "<p>Closest terms: abcdw, abcdx, abcdy</p><p>Tags</p>");
  assert.equal(await text("abcdv fghiz lmnoz qqqqq"), "<p>Closest terms: abcdw, abcdx, abcdy, fghij, fghik, fghil</p><p>Tags</p>");
  assert.equal(await text("abcdv", { maxCorrections: 4 }), "<p>Closest terms: abcdw, abcdx, abcdy, abcdz</p><p>Tags</p>");
  assert.equal(await text("zzzzz"), "<p>Tags</p>");
  assert.equal(await text("显存"), "<p>Tags</p>");  // no English word typed
});

test("filler words are dropped, unless the query is only filler", async () => {
  const files = index({ the: [0, 900, STEPS], alpha: [1, 100, STEPS], "怎么": [2, 900, STEPS], "显存": [3, 100, STEPS] }, 4,
    { stopwords: ["the", "怎么办"] });
  assert.deepEqual(await rank(files, "the alpha"), ["doc1"]);
  assert.deepEqual(await rank(files, "the"), ["doc0"]);
  assert.deepEqual(await rank(files, "显存怎么办"), ["doc3"]);  // 怎么 is inside the filler 怎么办
  assert.deepEqual(await rank(files, "怎么办"), ["doc2"]);
  assert.deepEqual(await rank(files, "怎么 显存"), ["doc2", "doc3"]);
});

test("Chinese: every substring that is a term counts, a word and the words inside it are one unit", async () => {
  const files = index({ "显存不足": [1, 100, STEPS, 4, 50, STEPS], "显存": [0, 900, STEPS, 2, 50, STEPS], "不足": [2, 50, STEPS],
    "爆": [3, 100, STEPS | ALONE] }, 8);
  const found = await search(files, "显存不足爆了");
  // doc3: 爆, a lone character, half of log(1 + 8 / 1) in the steps, beats doc0's half of 显存不足 (in two entries
  // whole: log(1 + 8 / 2)) in its steps
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc2", "doc4", "doc3", "doc0"]);
  assert.deepEqual(found[0].explain.queryUnits, ["显存不足", "爆"]);  // 了 is no term
  assert.deepEqual(Object.fromEntries(found.map(r => [r.id, matches(r)])), {
    doc1: { "显存不足": 0.2 }, doc2: { "显存不足": 0.2 }, doc4: { "显存不足": 0.2 }, doc0: { "显存不足": 0.1 }, doc3: { "爆": 0.2 } });
});

test("Chinese: words up to the index's longest term", async () => {
  const files = index({ "显存不足": [1, 100, STEPS], "显": [0, 100, STEPS] }, 2, { maxTermChars: 3 });
  assert.deepEqual(await rank(files, "显存不足"), ["doc0"]);
  files["manifest.json"].maxTermChars = 4;
  assert.deepEqual(await rank(files, "显存不足"), ["doc1"]);  // 显 is in the word: not read alone
});

test("Chinese: a synonym that is no index term still counts as a word", async () => {
  // 卡住 is in no entry; its group brings in hang. Without it as a word, 卡 and 住 would be read alone
  const files = index({ hang: [1, 100, STEPS], "卡": [0, 100, STEPS] }, 2, { synonyms: [[["卡住"], ["hang"]]] });
  const found = await search(files, "卡住");
  assert.deepEqual(found.map(r => r.id), ["doc1"]);
  assert.deepEqual(found[0].explain.queryUnits, ["卡住"]);
});

test("names with digits: by their parts only when the index lacks the name", async () => {
  const files = index({ opset14: [1, 100, STEPS], opset: [0, 900, STEPS], 14: [0, 900, STEPS] }, 2);
  assert.deepEqual(await rank(files, "opset14"), ["doc1"]);
  assert.deepEqual(await rank(index({ opset: [0, 900, STEPS] }, 1), "opset14 opset14"), ["doc0"]);
});

test("parts: a part the index lacks adds nothing; each part stands for the whole name", async () => {
  const files = index({ opset: [0, 100, STEPS], 14: [1, 100, TITLE] }, 2);
  const found = await search(files, "opset14 onnx15");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(found[0].explain.queryUnits, ["opset14"]);
  assert.deepEqual(found.map(r => matches(r)), [{ opset14: 0.6 }, { opset14: 0.12 }]);
});

test("typos: only unknown words of letters, each once, filler never", async () => {
  const files = index({ version: [1, 100, STEPS], versions2: [0, 100, STEPS], cuda: [2, 100, STEPS] }, 3,
    { words: { 7: ["version"], 9: ["versions2"] }, stopwords: ["vresion"] });
  assert.deepEqual(await rank(files, "vresion cuda"), ["doc2"]);  // filler
  assert.deepEqual(await rank(files, "versoin cuda"), ["doc2", "doc1"]);  // the typed word before the corrected one
  assert.deepEqual(await rank(files, "versoin2 cuda"), ["doc2"]);  // digits: no correction
  const log = [];
  await new Engine(fetcher(files, log)).search("versoin versoin");
  assert.deepEqual(log.filter(p => p.startsWith("w/")), ["w/7.json"]);
});

test("typos: the word lists of about the stem's length, only for words that may be misspelt", async () => {
  const words = Object.fromEntries([3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(n => [n, ["x".repeat(n)]]));
  // every word is known (else the "no results" item looks for the nearest terms in more lists)
  const files = index(Object.fromEntries(["abcdefg", "abcdefghi", "abcd", "xyz12345", "alpha"].map(t => [t, [0, 100, STEPS]])), 1, { words });
  const lists = async query => {
    const log = [];
    await new Engine(fetcher(files, log)).search(query);
    return log.filter(p => p.startsWith("w/")).map(p => Number(p.slice(2).split(".")[0])).sort((a, b) => a - b);
  };
  assert.deepEqual(await lists("abcdefg"), [6, 7, 8]);  // 7 letters: one edit
  assert.deepEqual(await lists("abcdefghi"), [7, 8, 9, 10, 11]);  // 9 letters: two edits
  assert.deepEqual(await lists("abcdefgs"), [6, 7, 8]);  // the stem, abcdefg, has 7
  assert.deepEqual(await lists("abcd"), []);  // too short to correct
  assert.deepEqual(await lists("xyz12345"), []);  // not only letters
  assert.deepEqual(await lists("alpha"), [4, 5, 6]);  // known: the lists are fetched before the index is asked
});

test("typos: a corrected word stands for the word typed, the others of the query decide agreement", async () => {
  // doc1 has beta and the far term; doc0 the near term alone; doc2 beta alone
  const files = index({ beta: [1, 100, STEPS, 2, 100, STEPS], abcdefghik: [0, 900, STEPS], abcdefghxx: [1, 100, STEPS] }, 3,
    { words: { 4: ["beta"], 10: ["abcdefghik", "abcdefghxx"] } });
  const found = await search(files, "beta abcdefghij");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc2"]);
  assert.deepEqual(found[0].explain.units.map(u => [u.unit, u.terms.map(t => [t.term, t.reading])]),
    [["beta", [["beta", "typed"]]], ["abcdefghij", [["abcdefghxx", "typo2"]]]]);
});

test("pinyin: a stretch across words stands for the whole, a stretch of one typed word for that word", async () => {
  const files = index({ "显存不足": [1, 100, TITLE | titleChars(4, 0)], "显存": [0, 100, TITLE | titleChars(8, 0)], "不足": [2, 100, STEPS] }, 3,
    { pinyin: { xiancun: ["显存"], buzu: ["不足"], xiancunbuzu: ["显存不足"] }, syllables: "xian cun bu zu" });
  const found = await search(files, "xiancun buzu");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0", "doc2"]);
  assert.deepEqual(found[0].explain.queryUnits, ["xiancunbuzu"]);
  assert.deepEqual(found.map(r => matches(r)), [{ xiancunbuzu: 0.6 }, { xiancunbuzu: 0.35 }, { xiancunbuzu: 0.04 }]);
  const alone = await search(files, "xiancun");
  assert.deepEqual(alone.map(r => r.id), ["doc0"]);
  assert.deepEqual(alone[0].explain.queryUnits, ["xiancun"]);
  assert.deepEqual(alone[0].explain.units[0].terms, [{ term: "显存", reading: "pinyin", fields: ["title"] }]);
});

test("pinyin: readings side by side stay two pieces, whichever is longer and comes first", async () => {
  // no index term reads across the two words: neither stands for the other, however long
  const files = index({ "显存": [0, 100, TITLE], "梯度": [1, 100, TITLE] }, 2,
    { pinyin: { xiancun: ["显存"], tidu: ["梯度"] }, syllables: "xian cun ti du" });
  for (const [query, units] of [["xiancun tidu", ["xiancun", "tidu"]], ["tidu xiancun", ["tidu", "xiancun"]]]) {
    const found = await search(files, query);
    assert.deepEqual(found[0].explain.queryUnits, units, query);
    assert.deepEqual(Object.fromEntries(found.map(r => [r.id, Object.keys(matches(r))])), { doc0: ["xiancun"], doc1: ["tidu"] }, query);
  }
});

test("pinyin: a typed word and its pinyin reading are one piece of the query", async () => {
  // change: the stem chang is a term of doc0's steps, and it reads as 嫦娥, in doc1's title
  const files = index({ chang: [0, 900, STEPS], "嫦娥": [1, 100, TITLE] }, 2, { pinyin: { change: ["嫦娥"] } });
  const found = await search(files, "change");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(found[0].explain.queryUnits, ["chang"]);
});

test("pinyin: only the p/ shards of the spans' first syllables, and only for pinyin words", async () => {
  const files = index({ "显存": [0, 100, STEPS] }, 1, { pinyin: { xiancun: ["显存"] }, syllables: "xian cun" });
  files["manifest.json"].pinyinShards = 5;  // xian in p/4, cun in p/3
  const { shardOf } = load("analysis");
  assert.deepEqual([shardOf("xian", 5), shardOf("cun", 5)], [4, 3]);
  for (const k of [0, 1, 2, 3]) files[`p/${k}.json`] = {};
  files["p/4.json"] = { xiancun: ["显存"] };
  const log = [];
  const engine = new Engine(fetcher(files, log));
  assert.deepEqual((await engine.search("xiancun")).ranked.map(r => r.id), ["doc0"]);
  assert.deepEqual(log.filter(p => p.startsWith("p/")).sort(), ["p/3.json", "p/4.json"]);  // xian, xiancun; cun
  await engine.search("nvidia");
  assert.equal(log.filter(p => p.startsWith("p/")).length, 2);
});

test("synonyms: read from what the other stages found, weighed by it, costing one more", async () => {
  const files = index({ vram: [1, 100, TITLE], "显存": [0, 100, STEPS] }, 2, { synonyms: [[["显存"], ["vram"]]], variants: { "顯存": ["显存"] } });
  const found = await search(files, "顯存");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(matches(found[0]), { "顯存": 0.5 });
  assert.equal(found[0].explain.rules.typo, 2);
  const pinyin = index({ vram: [1, 100, TITLE] }, 2, { synonyms: [[["显存"], ["vram"]]], pinyin: { xiancun: ["显存"] }, syllables: "xian cun" });
  const [viaPinyin] = await search(pinyin, "xiancun");
  assert.deepEqual(matches(viaPinyin), { xiancun: 0.3 });
  assert.equal(viaPinyin.explain.rules.typo, 2);
});

test("synonyms: each word of a phrase stands for its share of what matched", async () => {
  // twelve entries: no word of the phrase in more than a quarter of them (it would stand for nothing)
  const files = index({ gradient: [1, 100, TITLE, 2, 100, TITLE], checkpoint: [2, 100, TITLE], "梯度检查点": [0, 100, STEPS] }, 12,
    { synonyms: [[["gradient", "checkpoint"], ["梯度检查点"]]] });
  const found = await search(files, "梯度检查点");
  assert.deepEqual(found.map(r => [r.id, matches(r)]), [["doc2", { "梯度检查点": 0.5 }], ["doc1", { "梯度检查点": 0.25 }],
    ["doc0", { "梯度检查点": 0.2 }]]);
  const english = await search(files, "gradient checkpointing");
  assert.deepEqual(english.map(r => r.id), ["doc2", "doc1", "doc0"]);
  assert.deepEqual(english.find(r => r.id === "doc0").explain.units.map(u => [u.unit, u.match]), [["gradient", 0.1], ["checkpoint", 0.1]]);
});

test("synonyms: a group is read only when a whole phrase is in the query", async () => {
  const files = index({ gradient: [1, 100, TITLE], "梯度检查点": [0, 100, STEPS] }, 2, { synonyms: [[["gradient", "checkpoint"], ["梯度检查点"]], [[], ["x"]]] });
  assert.deepEqual(await rank(files, "gradient"), ["doc1"]);
});

test("reorders: the word two whole pieces make in the other order, for both, spanning both, costing 1 more", async () => {
  const files = index({ "显存": [0, 100, STEPS], "爆": [0, 100, STEPS], "不足": [0, 100, STEPS], "显存不足": [0, 100, STEPS],
    "爆显存": [1, 100, STEPS], "爆不足": [1, 100, STEPS] }, 4, { variants: { "顯存": ["显存"] } });
  const engine = engineFor(files);
  const read = async text => [...(await engine.analyze(text)).terms].filter(([, t]) => t.reading === "reorder")
    .map(([term, t]) => [term, t.units, t.span, t.weight, t.penalty]);
  assert.deepEqual(await read("显存爆"), [["爆显存", ["显存", "爆"], [0, 3], 1, 1]]);
  assert.deepEqual(await read("顯存爆"), [["爆显存", ["顯存", "爆"], [0, 3], 1, 2]]);  // a variant's cost, and one more
  assert.deepEqual(await read("爆显存"), []);  // typed so: no reading
  // 不足 is a part of 显存不足, not a whole piece: no 爆不足
  assert.deepEqual(await read("显存不足爆"), []);
  // Chinese words only: an English word that touches one makes no word to look up (nor a shard to fetch)
  const asked = [];
  const spied = engineFor(files);
  const loadShards = spied.loadShards.bind(spied);
  spied.loadShards = terms => { asked.push(...terms); return loadShards(terms); };
  await spied.analyze("显存oom");
  assert.deepEqual(asked.filter(t => /[a-z]/.test(t) && /[^a-z]/.test(t)), []);
  // a word neither the index nor the vocabulary has: none; one of the vocabulary only: read
  const bare = index({ "显存": [0, 100, STEPS], "爆": [0, 100, STEPS] }, 4);
  const analyzed = async (files, text) => [...(await engineFor(files).analyze(text)).terms.keys()];
  assert.deepEqual(await analyzed(bare, "显存爆"), ["显存", "爆"]);
  const vocabulary = index({ "显存": [0, 100, STEPS], "爆": [0, 100, STEPS] }, 4, { synonyms: [[["爆显存"], ["oom"]]] });
  assert.deepEqual((await analyzed(vocabulary, "显存爆")).slice(0, 3), ["显存", "爆", "爆显存"]);
});

test("likelySynonyms: the terms of the groups a phrase of the typed words or Chinese may bring in", async () => {
  const terms = Object.fromEntries(["gradient", "checkpoint", "梯度检查点", "hang", "卡住", "oom", "显存", "不足", "empty"].map(t => [t, [0, 100, STEPS]]));
  const files = index(terms, 1, { synonyms: [[["gradient", "checkpoint"], ["梯度检查点"]], [["hang"], ["卡住"]], [["oom"], ["显存", "不足"]], [[], ["empty"]]] });
  const engine = engineFor(files);
  await engine.ready();
  const likely = text => readings.likelySynonyms(engine, new Query(text));
  assert.deepEqual(likely("gradient checkpointing"), ["gradient", "checkpoint", "梯度检查点"]);
  assert.deepEqual(likely("gradient"), []);
  assert.deepEqual(likely("训练卡住了"), ["hang", "卡住"]);
  assert.deepEqual(likely("显存不足 hangs"), ["hang", "卡住", "oom", "显存", "不足"]);
  const off = engineFor(files, { off: ["synonyms"] });
  await off.ready();
  assert.deepEqual(readings.likelySynonyms(off, new Query("hang")), []);
  // a Chinese word of one phrase typed in the other order (reorders): 住卡 is 卡住; with a character between, not
  assert.deepEqual(likely("训练住卡了"), ["hang", "卡住"]);
  assert.deepEqual(likely("住了卡"), []);
  assert.deepEqual(likely("存显"), []);  // one word of a phrase of two
  const unordered = engineFor(files, { off: ["reorders"] });
  await unordered.ready();
  assert.deepEqual(readings.likelySynonyms(unordered, new Query("训练住卡了")), []);
});

test("a synonym term no entry has is neither fetched nor read: its phrase still brings in the group", async () => {
  // 32 shards: oom (and vram, kept with it), 显 and 爆 each in a shard of its own; no entry has vram or 爆显存 (the
  // manifest lists them absent)
  const files = index({ oom: [1, 100, TITLE], "显存": [0, 100, STEPS] }, 2,
    { synonyms: [[["oom"], ["vram"], ["显存"], ["爆显存"]]], shards: 32 });
  const { shardOf } = load("analysis");
  assert.equal(new Set(["oom", "显", "爆"].map(t => shardOf(t, 32))).size, 3);
  assert.deepEqual(files["manifest.json"].absentSynonymTerms, ["vram", "爆显存"]);
  const searched = async (query, manifest = {}) => {
    const log = [];
    Object.assign(files["manifest.json"], manifest);
    const engine = new Engine(fetcher(files, log));
    const { ranked } = await engine.search(query);
    const shards = [...new Set(log.filter(p => p.startsWith("t/")))].sort();
    return [ranked.map(r => [r.id, r.explain.units.flatMap(u => u.terms.map(t => t.term))]), shards];
  };
  const shard = term => `t/${shardOf(term, 32)}.json`;
  // typed oom brings in 显存, not vram nor 爆显存: 爆显存's shard is not asked for
  assert.deepEqual(await searched("oom"), [[["doc1", ["oom"]], ["doc0", ["显存"]]], [shard("oom"), shard("显")].sort()]);
  // typed vram still brings in its group
  assert.deepEqual((await searched("vram"))[0], [["doc1", ["oom"]], ["doc0", ["显存"]]]);
  // the same index with nothing listed absent: 爆显存's shard is fetched, to find nothing
  assert.deepEqual((await searched("oom", { absentSynonymTerms: [] }))[1], [shard("oom"), shard("显"), shard("爆")].sort());
});

test("a synonym group's English terms are kept in the shard of its first word: one file for them, not one each", async () => {
  // 32 shards: 显, oom, vram and cuda each keyed to a shard of its own; the group's English terms kept in 显's
  const { shardOf } = load("analysis");
  assert.equal(new Set(["显", "oom", "vram", "cuda"].map(t => shardOf(t, 32))).size, 4);
  const files = index({ cuda: [0, 100, TITLE], "显存不足": [1, 100, TITLE], oom: [2, 100, STEPS], vram: [3, 100, STEPS] }, 4,
    { synonyms: [[["显存不足"], ["oom"], ["vram"]]], shards: 32 });
  assert.deepEqual(Object.keys(files[`t/${shardOf("显", 32)}.json`].terms).sort(), ["oom", "vram", "显存不足"]);
  const log = [];
  const { ranked } = await new Engine(fetcher(files, log)).search("cuda vram");
  // the typed words' shards and the group's: cuda's and 显's, where vram, oom and 显存不足 are
  assert.deepEqual([...new Set(log.filter(p => p.startsWith("t/")))].sort(), [`t/${shardOf("cuda", 32)}.json`, `t/${shardOf("显", 32)}.json`].sort());
  assert.deepEqual(ranked.map(r => r.id).sort(), ["doc0", "doc1", "doc2", "doc3"]);
});

