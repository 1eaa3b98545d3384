/* engine.js, continued: how pieces of a query become units and parts, filler spans, which words are corrected, synonym
 * readings built from other readings, and what an entry's hit carries into the items and the explanation. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, makeIndex: index, fetcher, engineFor, titleChars, search, rank, matches, TITLE, TAGS, QUICK_FIX, SYMPTOMS, STEPS, ALONE } = require("./helpers.js");

const { Engine } = load("engine");
const matching = load("matching");
const units = async (files, query, settings) => (await search(files, query, settings))[0].explain.queryUnits;

test("units: Chinese words that share characters are one unit, the stretch they cover; words that only touch are two", async () => {
  const docs = terms => index(Object.fromEntries(terms.map((t, n) => [t, [n, 100, STEPS]])), terms.length);
  assert.deepEqual(await units(docs(["甲乙", "乙丙丁"]), "甲乙丙丁"), ["甲乙丙丁"]);
  assert.deepEqual(await units(docs(["甲乙丙", "丙丁"]), "甲乙丙丁"), ["甲乙丙丁"]);
  assert.deepEqual(await units(docs(["甲乙丙丁", "乙丙"]), "甲乙丙丁"), ["甲乙丙丁"]);
  assert.deepEqual(await units(docs(["甲乙", "乙丙", "丙丁"]), "甲乙丙丁"), ["甲乙丙丁"]);  // a chain
  assert.deepEqual(await units(docs(["甲乙", "丙丁"]), "甲乙丙丁"), ["甲乙", "丙丁"]);
  assert.deepEqual(await units(docs(["丙丁", "甲乙"]), "甲乙丙丁戊甲乙"), ["甲乙", "丙丁"]);  // a unit once, in order
});

test("parts: a part after a better one is counted too, when they do not overlap", async () => {
  // doc1: 不足 in the title (half of the unit at 1), 显存 in the steps (half at 0.2), 显存 before 不足 in the query
  const files = index({ "显存不足": [0, 100, STEPS], "显存": [1, 100, STEPS], "不足": [1, 100, TITLE | titleChars(8, 0)] }, 2);
  const found = await search(files, "显存不足");
  assert.deepEqual(found.map(r => [r.id, matches(r)["显存不足"]]), [["doc1", 0.6], ["doc0", 0.2]]);
});

test("a unit's share is measured in the word it belongs to, wherever the run starts", async () => {
  // 了 (no term) starts the run: the unit 显存不足 is characters 1 … 5 of it, and 显存 half of it
  const files = index({ "显存不足": [1, 100, STEPS], "显存": [0, 100, STEPS] }, 2);
  const found = await search(files, "了显存不足");
  assert.deepEqual(found.map(r => [r.id, matches(r)["显存不足"]]), [["doc1", 0.2], ["doc0", 0.1]]);
});

test("title: a lone character beside a word covers the title, and counts nothing of the query found in it", async () => {
  const files = index({ "显存": [1, 100, TITLE | titleChars(6, 0)], "爆": [1, 100, TITLE | titleChars(6, 0), 0, 900, STEPS] }, 8);
  const [result] = await search(files, "显存爆");
  // 3 of the title's 6 characters covered (显存 and 爆), times the query's share in it: 显存's weight, log(1 + 8 / 1),
  // of the query's, 爆 (0.5 × log(1 + 8 / 2)) left out: 0.5 × 2.197 / 3.002
  assert.equal(result.explain.title, 0.366);
});

test("title: an identifier and its words are one piece of the query, counted once", async () => {
  // doc1's title has torch_load (10 letters as joined), torch and load: the query covers 10 of its 40 letters
  const flags = TITLE | titleChars(0, 40);
  const files = index({ torch_load: [1, 100, flags], torch: [1, 100, flags, 0, 900, STEPS], load: [1, 100, flags] }, 2);
  const [result] = await search(files, "torch.load");
  assert.equal(result.id, "doc1");
  assert.equal(result.explain.title, 0.25);
});

test("title: the title field is found by name, wherever it is in the manifest", async () => {
  const fields = [["tags", "", "", 0.8], ["title", "", "", 1], ["steps", "", "", 0.2]];
  const files = index({ alpha: [0, 900, 4, 1, 100, 2 | titleChars(0, 10)] }, 2, { fields });
  const found = await search(files, "alpha");
  assert.deepEqual(found.map(r => [r.id, r.explain.title]), [["doc1", 0.5], ["doc0", 0]]);
});

test("filler: its characters are not read alone, and a word reaching past it still counts", async () => {
  const files = index({ "怎": [0, 100, STEPS], "办": [1, 100, STEPS], "么办": [2, 100, STEPS], "办法": [3, 100, STEPS], "显存": [4, 100, STEPS] }, 5,
    { stopwords: ["怎么办"] });
  assert.deepEqual(await rank(files, "显存怎么办"), ["doc4"]);
  assert.deepEqual(await rank(files, "怎么办法"), ["doc3"]);
});

test("filler: a complement after a verb and 不 is not read, so 推不上去 (cannot push) does not find 推上去 (pushed)", async () => {
  // doc0 says 上去 in its title (推上去的提交 of the force-push entry), 推 in a step; doc1 says 推 in its title
  const files = index({ "上去": [0, 100, TITLE | titleChars(6, 0)], "推": [0, 100, STEPS, 1, 100, TITLE | titleChars(6, 0)] }, 10);
  assert.deepEqual(await rank(files, "推不上去"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "推上去"), ["doc0", "doc1"]);  // typed without 不, the complement counts
});

test("phrases: a Chinese word typed alone that the index has only in pieces counts where an entry states it", async () => {
  // doc0 and doc1 say 端口 and 占用 apart in their steps, doc0 with the better score; doc1 says 端口占用 as typed in a
  // keyword, doc0 only in a step (bit 4)
  const terms = { "端口": [0, 200, STEPS, 1, 100, STEPS], "占用": [0, 200, STEPS, 1, 100, STEPS] };
  const files = index(terms, 2, { keywords: { 1: ["ssh 端口占用"] }, sections: { 0: [[4, ["本地端口占用"]]] } });
  assert.deepEqual(await rank(files, "端口占用"), ["doc1", "doc0"]);
  // at the defaults, the whole query in the phrase: doc1's words value is its share × (1 + phraseWeight 0.25 × 1), no
  // title or link in it
  const { explain } = (await search(files, "端口占用")).find(r => r.id === "doc1");
  assert.deepEqual([explain.phrases, explain.title, explain.linkedFrom], [1, 0, 0]);
  assert.ok(Math.abs(explain.rules.words - explain.share * 1.25) < 0.002, JSON.stringify(explain.rules));
  // the share of the query's weight in it: 端口 and 占用 weigh log(1 + 3/2) each, 分布式 (doc2) log(1 + 3/1)
  const three = index({ ...terms, "分布式": [2, 100, STEPS] }, 3, { keywords: { 1: ["ssh 端口占用"] } });
  const two = 2 * Math.log(1 + 3 / 2);
  assert.equal((await search(three, "分布式 端口占用")).find(r => r.id === "doc1").explain.phrases,
    Math.round(1000 * two / (two + Math.log(1 + 3))) / 1000);
  assert.deepEqual(await rank(files, "端口占用", { options: { phraseWeight: 0 } }), ["doc0", "doc1"]);
  // the words and their shares: an English word after the run is not in it
  const alpha = index({ ...terms, alpha: [2, 100, STEPS] }, 3);
  const engine = engineFor(alpha);
  assert.deepEqual(matching.phrases(engine, (await engine.rank("端口占用 alpha")).query),
    [{ text: "端口占用", share: two / (two + Math.log(1 + 3)) }]);
  // a query of common characters only (甲 and 乙 in every entry, alone), weighed as nothing else is: its phrase is all
  // of it, stated in doc1's keyword
  const common = index({ "甲": [0, 100, STEPS | ALONE, 1, 100, STEPS | ALONE], "乙": [0, 100, STEPS | ALONE, 1, 100, STEPS | ALONE] },
    2, { keywords: { 1: ["甲乙"] } });
  assert.deepEqual((await search(common, "甲乙")).map(r => [r.id, r.explain.rules.words, r.explain.phrases]),
    [["doc1", 0.25, 1], ["doc0", 0.2, 0]]);
  // in the quick fix (bit 2), a symptom (bit 3), the title or a tag as in a keyword
  for (const said of [{ sections: { 1: [[2, ["先查端口占用"]]] } }, { sections: { 1: [[3, ["端口占用"]]] } },
    { titles: { 1: "端口占用" } }, { tags: { 1: ["端口占用"] } }]) {
    assert.deepEqual(await rank(index(terms, 2, said), "端口占用"), ["doc1", "doc0"]);
  }
  const keyword = (text, settings = {}) => index(terms, 2, { keywords: { 1: [text] }, ...settings });
  // at most 6 characters: 甲, 乙 and 丙 are in no entry, a run of 7 says no word
  assert.deepEqual(await rank(keyword("甲端口占用乙"), "甲端口占用乙"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(keyword("甲端口占用乙丙"), "甲端口占用乙丙"), ["doc0", "doc1"]);
  // not with filler in it, nor a word the index has whole (doc2 has it in its steps: the words rule counts it, and doc1,
  // which would come first with the phrase counted, stays below doc0 by the score)
  assert.deepEqual(await rank(keyword("端口占用了", { stopwords: ["了"] }), "端口占用了"), ["doc0", "doc1"]);
  const whole = index({ ...terms, "端口占用": [2, 100, STEPS] }, 3, { keywords: { 1: ["端口占用"] } });
  assert.deepEqual(await rank(whole, "端口占用"), ["doc0", "doc1", "doc2"]);
});

test("phrases: an English stretch of two words or more counts where an entry states it as typed", async () => {
  // doc0 and doc1 have connection, timed and out alike in their symptoms, doc0 with the better score; doc1 says them
  // together in a symptom line (in capitals), doc0 apart, and together only in a step (bit 4)
  const said = { "connect": [0, 200, SYMPTOMS, 1, 100, SYMPTOMS], "time": [0, 200, SYMPTOMS, 1, 100, SYMPTOMS],
    "out": [0, 200, SYMPTOMS, 1, 100, SYMPTOMS] };
  const files = index(said, 2, { sections: { 0: [[3, ["out of time on connection"]], [4, ["connection timed out"]]],
    1: [[3, ["ssh: Connection timed out"]]] } });
  assert.deepEqual(await rank(files, "connection timed out"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "ssh连服务器connection timed out"), ["doc1", "doc0"]);  // a stretch between Chinese
  assert.deepEqual(await rank(files, "connection timed out", { options: { phraseWeight: 0 } }), ["doc0", "doc1"]);
  // one word is no phrase; two words one space apart are, and three
  const engine = engineFor(files);
  const phrases = async text => matching.phrases(engine, (await engine.rank(text)).query).map(p => p.text);
  assert.deepEqual(await phrases("connection"), []);
  // (with the comma, the stretch as typed too: a symbol between its words)
  assert.deepEqual(await phrases("timed out, connection"), ["timed out", "timed out, connection"]);
  assert.deepEqual(await phrases("connection timed out"), ["connection timed out"]);  // the whole stretch
  // a full stop ends the sentence, not the last word; a dot inside a word stays
  assert.deepEqual(await phrases("connection timed out.."), ["connection timed out"]);
  assert.deepEqual(await phrases("torch.load failed"), ["torch.load failed"]);
  assert.deepEqual(await rank(files, "connection timed out."), ["doc1", "doc0"]);
});

test("phrases: a stretch typed with symbols between its words counts again where an entry states it verbatim", async () => {
  // doc0 and doc1 both say `bad interpreter` in a symptom, doc0 with the better score; doc1's symptom has the ^M a
  // reader pastes, doc0's a colon
  const terms = { bad: [0, 200, SYMPTOMS, 1, 100, SYMPTOMS], interpreter: [0, 200, SYMPTOMS, 1, 100, SYMPTOMS] };
  const files = index(terms, 2, { sections: { 0: [[3, ["/bin/bash: bad interpreter: No such file"]]],
    1: [[3, ["/bin/bash^M: bad interpreter ^M"]]] } });
  assert.deepEqual(await rank(files, "bad interpreter ^M"), ["doc1", "doc0"]);
  // both count the words' phrase, doc1 the typed stretch too: the whole query's weight once more
  assert.deepEqual((await search(files, "bad interpreter ^M")).map(r => [r.id, r.explain.phrases]), [["doc1", 2], ["doc0", 1]]);
  assert.deepEqual(await rank(files, "bad interpreter ^M", { options: { phraseWeight: 0 } }), ["doc0", "doc1"]);
  const engine = engineFor(files);
  const phrases = async text => matching.phrases(engine, (await engine.rank(text)).query).map(p => p.text);
  assert.deepEqual(await phrases("bad interpreter ^M"), ["bad interpreter", "bad interpreter ^m"]);
  // the reader's punctuation at its ends is not in it; a stretch of plain words is the words' phrase only; one piece is none
  assert.deepEqual(await phrases("docker run -d，"), ["docker run", "docker run -d"]);
  assert.deepEqual(await phrases("? docker run -d"), ["docker run", "docker run -d"]);
  assert.deepEqual(await phrases("bad interpreter,"), ["bad interpreter"]);
  assert.deepEqual(await phrases("^M"), []);
  assert.deepEqual(await phrases("docker run -d ?!"), ["docker run", "docker run -d"]);
  assert.deepEqual(await phrases("? ^M"), []);  // one piece once its punctuation is left out
  // after punctuation left out at its start, the stretch's share is of the words it holds
  assert.equal((await search(files, "?!? bad interpreter ^M")).find(r => r.id === "doc1").explain.phrases, 2);
});

test("typos: the first eight unknown words, each counted once", async () => {
  const letters = [..."abcdefghi"];
  const terms = {};
  letters.forEach((c, n) => { terms[`word${c}y`] = [n, 100, STEPS]; });
  const files = index(terms, 9, { words: { 6: Object.keys(terms).sort() } });
  const query = ["wordax", ...letters.map(c => `word${c}x`)].join(" ");  // wordax twice
  assert.deepEqual((await rank(files, query)).sort(), ["doc0", "doc1", "doc2", "doc3", "doc4", "doc5", "doc6", "doc7"]);
});

test("typos: short unknown words do not count toward the eight", async () => {
  const files = index({ timeout: [0, 100, STEPS] }, 1, { words: { 7: ["timeout"] } });
  assert.deepEqual(await rank(files, "aa bb cc dd ee ff gg hh ii timout"), ["doc0"]);
});

test("typos: a word read as the pinyin of an index term is not corrected (pipei: 匹配, not pipe)", async () => {
  const files = index({ pipe: [0, 100, TITLE], "匹配": [1, 100, STEPS] }, 2,
    { words: { 4: ["pipe"] }, pinyin: { pipei: ["匹配"] }, syllables: "pi pei" });
  assert.deepEqual(await rank(files, "pipei"), ["doc1"]);
  assert.deepEqual(await rank(files, "pipei", { off: ["pinyin"] }), ["doc0"]);  // without pinyin, a misspelt word
});

test("typos: a word beside a pinyin word is corrected, and one that only looks like pinyin", async () => {
  const files = index({ container: [1, 100, TITLE], "匹配": [0, 100, STEPS], table: [2, 100, TITLE] }, 3,
    { words: { 5: ["table"], 9: ["container"] }, pinyin: { pipei: ["匹配"] }, syllables: "pi pei ta bel" });
  // the pinyin word before the misspelt one and after it: container (doc1) is found either way
  assert.deepEqual(await rank(files, "pipei contaner"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "contaner pipei"), ["doc1", "doc0"]);
  // tabel reads as ta bel, but the index has no term read so: a misspelt table
  assert.deepEqual(await rank(files, "tabel"), ["doc2"]);
});

test("typos: a word with digits is not corrected", async () => {
  const files = index({ ghijkl: [0, 100, STEPS] }, 1, { words: { 6: ["ghijkl"] } });
  assert.deepEqual(await rank(files, "ghijkm", { off: ["parts"] }), ["doc0"]);
  assert.deepEqual(await rank(files, "ghijkl2", { off: ["parts"] }), []);
  assert.deepEqual(await rank(files, "2ghijkl", { off: ["parts"] }), []);
});

test("synonyms: a phrase of several readings weighs as its weakest and costs as its dearest, plus one", async () => {
  // checkpointing typed with a transposition: checkpoint read by one edit (0.5, cost 1), gradient typed
  const files = index({ "梯度检查点": [1, 100, TITLE], gradient: [0, 100, STEPS], checkpoint: [0, 100, STEPS] }, 2,
    { synonyms: [[["gradient", "checkpoint"], ["梯度检查点"]]], words: { 8: ["gradient"], 10: ["checkpoint"] } });
  const found = await search(files, "gradient checkpoitning");
  const doc1 = found.find(r => r.id === "doc1");
  assert.deepEqual(matches(doc1), { gradient: 0.25, checkpoitn: 0.25 });  // 0.5 × 0.5
  assert.equal(doc1.explain.rules.typo, 4);  // 1 + 1 for each of the two units
});

test("synonyms: each word of a phrase stands for its share of the phrase where it is in the query", async () => {
  // twelve entries: each word of the phrase in one of them (a word in more than a quarter stands for nothing)
  const files = index({ gradient: [1, 100, TITLE], checkpoint: [2, 100, TITLE], "梯度检查点": [0, 100, STEPS] }, 12,
    { synonyms: [[["gradient", "checkpoint"], ["梯度检查点"]]] });
  const found = await search(files, "alpha 梯度检查点");  // alpha: in no entry
  assert.deepEqual(Object.fromEntries(found.map(r => [r.id, matches(r)["梯度检查点"]])), { doc0: 0.2, doc1: 0.25, doc2: 0.25 });
});

test("synonyms: a phrase of several words for a query's phrase of several: each word its share of each unit", async () => {
  // gradient checkpoint typed, two units; the group's other phrase is two words, 梯度 and 检查点. doc1 says both, doc0
  // only 梯度: half of each unit (0.5 × 0.5), not the whole of the unit it does not fall inside
  const files = index({ "梯度": [0, 100, TITLE, 1, 100, TITLE], "检查点": [1, 100, TITLE] }, 12,
    { synonyms: [[["gradient", "checkpoint"], ["梯度", "检查点"]]] });
  const found = await search(files, "gradient checkpoint");
  assert.deepEqual(found.map(r => [r.id, matches(r)]),
    [["doc1", { gradient: 0.5, checkpoint: 0.5 }], ["doc0", { gradient: 0.25, checkpoint: 0.25 }]]);
});

test("synonyms: the shards of terms a reading brings in are fetched before ranking", async () => {
  // vram in t/0 (gddr's shard is 0 of 4): no typed character or word is in it
  const files = index({ gddr: [1, 100, TITLE], "显存": [0, 100, STEPS] }, 2, { synonyms: [[["显存"], ["gddr"]]], variants: { "顯存": ["显存"] }, shards: 4 });
  assert.deepEqual(await rank(files, "顯存"), ["doc1", "doc0"]);
});

test("a term already read keeps its reading when a synonym brings it in again", async () => {
  // serveraliveinterval: read from a two-edit typo, and a synonym of keepalive, which is typed too
  const files = index({ serveraliveinterval: [1, 100, TITLE], keepaliv: [0, 100, STEPS] }, 2,
    { synonyms: [[["keepaliv"], ["serveraliveinterval"]]], words: { 19: ["serveraliveinterval"] } });
  const found = await search(files, "keepalive servraliveintervl");
  const doc1 = found.find(r => r.id === "doc1");
  assert.deepEqual(doc1.explain.units.map(u => [u.unit, u.match, u.terms[0].reading]), [["servraliveintervl", 0.3, "typo2"]]);
});

test("a unit matched by several terms in one entry: the best match, the lowest cost, the best score", async () => {
  // shiyan reads as 实验 and 试验 (one span): doc1 has one in its title, the other in its steps
  const files = index({ "实验": [1, 100, STEPS, 0, 900, STEPS], "试验": [1, 700, TITLE] }, 2, { pinyin: { shiyan: ["实验", "试验"] }, syllables: "shi yan" });
  const found = await search(files, "shiyan");
  assert.deepEqual(found.map(r => [r.id, matches(r).shiyan]), [["doc1", 0.6], ["doc0", 0.12]]);
  // a typed word and its synonym in the same entry: the typed word's cost (0) and the higher score
  const both = index({ hang: [1, 100, STEPS, 0, 100, STEPS], freez: [1, 800, STEPS] }, 2, { synonyms: [[["hang"], ["freez"]]] });
  const [first] = await search(both, "hang");
  assert.deepEqual([first.id, first.explain.rules.typo, first.explain.rules.score], ["doc1", 0, 8]);
});

test("an entry's sections: those of every field its matched terms are in", async () => {
  const fields = [["title", "", "", 1], ["tags", "", "Tags", 0.8], ["quick_fix", "quick-fix", "Quick fix", 0.6],
    ["symptoms", "symptoms", "Symptoms", 0.8], ["steps", "steps", "Steps", 0.2]];
  const files = index({ alpha: [0, 100, SYMPTOMS], beta: [0, 100, STEPS] }, 1, { fields,
    sections: { 0: [[3, ["alpha here"]], [4, ["beta there"]]] } });
  const [[, ...sections]] = (await engineFor(files).search("alpha beta")).items;
  assert.deepEqual(sections.map(s => [s.location, s.text]), [["doc0/#symptoms", "<p><mark>alpha</mark> here</p>"],
    ["doc0/#steps", "<p><mark>beta</mark> there</p>"]]);
});

test("ranked: the id is the location without its trailing slash", async () => {
  const files = index({ alpha: [0, 100, STEPS] }, 1, { locations: { 0: "entries/cuda-oom/" } });
  assert.deepEqual((await search(files, "alpha")).map(r => r.id), ["entries/cuda-oom"]);
});

test("explain: the fields of the explained entry's own posting", async () => {
  const files = index({ alpha: [0, 900, STEPS, 1, 100, TITLE, 2, 100, SYMPTOMS] }, 3);
  const found = await search(files, "alpha");
  assert.deepEqual(found.map(r => [r.id, r.explain.units[0].terms[0].fields]), [["doc1", ["title"]], ["doc2", ["symptoms"]], ["doc0", ["steps"]]]);
});

test("explain: the error message the message rule found, whole in the query or holding it; none, null", async () => {
  const files = index({ pipe: [0, 100, STEPS, 1, 100, STEPS, 2, 100, STEPS] }, 3, {
    messages: { 0: ["connectionto port brokenpipe"], 1: ["brokenpipeonclientloopsenddisconnect"], 2: ["permissiondenied"] },
  });
  const found = await search(files, "Connection to 10.0.0.5 port 22: Broken pipe");
  assert.deepEqual(found.map(r => [r.id, r.explain.rules.message, r.explain.message]),
    [["doc0", 2, "connectionto port brokenpipe"], ["doc1", 0, null], ["doc2", 0, null]]);
  const inside = await search(files, "broken pipe on client loop");  // 22 characters, inside doc1's message
  assert.deepEqual([inside[0].id, inside[0].explain.message], ["doc1", "brokenpipeonclientloopsenddisconnect"]);
});

test("nothing found: the nearest terms of the first three words typed, the nearest only", async () => {
  const words = { 5: ["abcdw", "lmnop", "lmnoq", "lmnxx"] };
  const files = index(Object.fromEntries(words[5].map(w => [w, [0, 100, STEPS]])), 1, { words });
  const text = async query => (await engineFor(files, { off: ["typos"] }).search(query)).items[0][0].text;
  assert.equal(await text("zzzzz yyyyy wwwww abcdv"), "<p>Tags</p>");
  assert.equal(await text("lmnoz"), "<p>Closest terms: lmnop, lmnoq</p><p>Tags</p>");
  assert.equal(await text("abcdv2"), "<p>Tags</p>");  // not a word of letters
  assert.equal(await text("2abcdv"), "<p>Tags</p>");
});

test("the console error for an index of another format is written once, however many queries", async () => {
  const files = index({}, 1);
  files["manifest.json"].formatVersion = 7;
  const errors = [];
  const original = console.error;
  console.error = (...args) => errors.push(args.join(" "));
  try {
    const engine = new Engine(fetcher(files));
    for (let n = 0; n < 3; n++) await engine.search("alpha");
  } finally {
    console.error = original;
  }
  assert.deepEqual(errors, ["search: the index is format 7, this engine reads 16: reload the page"]);
});

test("an entry shows two sections and three lines each (sectionsShown 2, linesShown 3); more fold away", async () => {
  // alpha in the tags, quick fix, symptoms and steps; four symptoms and the cause say it too
  const fields = [["title", "", "", 1], ["tags", "", "Tags", 0.8], ["quick_fix", "quick-fix", "Quick fix", 0.6],
    ["symptoms", "symptoms", "Symptoms", 0.8], ["steps", "steps", "Steps", 0.2], ["cause", "cause", "Cause", 0.2]];
  const sections = { 0: [[2, ["alpha fix"]], [3, ["alpha one", "alpha two", "alpha three", "alpha four"]], [4, ["alpha step"]],
    [5, ["alpha cause"]]] };
  const files = index({ alpha: [0, 100, STEPS | SYMPTOMS | QUICK_FIX | TAGS] }, 1, { fields, sections });
  files["t/0.json"].terms.alpha = [0, 100, STEPS | SYMPTOMS | 32];
  const [[entry, ...shown]] = (await engineFor(files).search("alpha")).items;
  assert.deepEqual(shown.map(s => s.title), ["Symptoms", "Steps", "Cause"]);
  assert.deepEqual(shown.map(s => s.score === entry.score), [true, true, false]);  // the third folds away
  assert.equal(shown[0].text.split("<p>").length - 1, 3);  // three of the four matching symptoms
  const [[more, ...all]] = (await engineFor(files, { options: { sectionsShown: 3, linesShown: 4 } }).search("alpha")).items;
  assert.deepEqual(all.map(s => s.score === more.score), [true, true, true]);
  assert.equal(all[0].text.split("<p>").length - 1, 4);
});
