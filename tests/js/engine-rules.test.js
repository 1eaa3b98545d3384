/* engine.js with ranking.js: each ranking rule and each weight or threshold of options.js on a hand-made index
 * (as tests/test_search_rules.py, in-process). The expected winner is never doc0 and never wins by a tie: with the
 * rule off, or the option moved (passed explicitly), another entry comes first. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { makeIndex: index, titleChars, search, rank, matches, waves, load, fetcher, READINGS, TITLE, TAGS, QUICK_FIX, SYMPTOMS, STEPS, TRANSLATION, ALONE,
  OVERLAP } = require("./helpers.js");

const first = async (files, query, settings) => (await rank(files, query, settings))[0];

// Each case: the rule, an index, a query, and the entry that comes first only because of that rule (doc0 always
// scores higher, so with the rule off the remaining rules put doc0 first).
const RULE_CASES = {
  message: [index({ illeg: [0, 900, STEPS, 1, 100, STEPS], memori: [0, 900, STEPS, 1, 100, STEPS] }, 2,
    { messages: { 1: ["illegalmemoryaccess"] } }), "illegal memory access", "doc1"],
  words: [index({ alpha: [0, 900, STEPS, 1, 100, STEPS], beta: [1, 100, STEPS] }, 2), "alpha beta", "doc1"],
  typo: [index({ "显存": [0, 900, STEPS], alpha: [1, 100, STEPS] }, 2, { variants: { "顯存": ["显存"] } }), "顯存 alpha", "doc1"],
  score: [index({ alpha: [0, 100, STEPS, 1, 900, STEPS] }, 2), "alpha", "doc1"],
};

for (const [rule, [files, query, expected]] of Object.entries(RULE_CASES)) {
  test(`rule ${rule} puts its entry first, and decides it`, async () => {
    const found = await search(files, query);
    assert.equal(found[0].id, expected);
    assert.equal(found[1].explain.decidedBy, rule);
    assert.notEqual(await first(files, query, { off: [rule] }), expected);
  });
}

test("a word counts by the field it is in: title 1, tags 0.8, quick fix 0.6, symptoms 0.8, steps 0.2", async () => {
  for (const [bit, match] of [[TITLE, 1], [TAGS, 0.8], [QUICK_FIX, 0.6], [SYMPTOMS, 0.8], [STEPS, 0.2], [STEPS | TAGS, 0.8]]) {
    const [result] = await search(index({ alpha: [0, 100, bit] }, 1), "alpha");
    assert.deepEqual(matches(result), { alpha: match }, `bit ${bit}`);
  }
});

test("where a word stands decides between entries", async () => {
  assert.deepEqual(await rank(index({ alpha: [0, 900, STEPS, 1, 100, SYMPTOMS] }, 2), "alpha"), ["doc1", "doc0"]);
});

test("a body match says more of a short entry: × 1 / (1 − 0.75 + 0.75 × its length over the average)", async () => {
  // doc1 half the average length, doc0 twice it: 0.2 / 0.625 = 0.32 and 0.2 / 1.75 = 0.114 in the steps
  const files = index({ alpha: [0, 900, STEPS, 1, 100, STEPS] }, 2, { lengths: [200, 50] });
  const found = await search(files, "alpha");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.equal(found[1].explain.decidedBy, "words");
  assert.deepEqual(found.map(matches), [{ alpha: 0.32 }, { alpha: 0.114 }]);
  assert.deepEqual(found.map(r => r.explain.length), [0.5, 2]);
  assert.deepEqual(await rank(files, "alpha", { options: { bodyLength: 0 } }), ["doc0", "doc1"]);
});

test("the body is what counts 0.4 or less: the other language is measured, the symptoms are not", async () => {
  const other = index({ alpha: [0, 900, TRANSLATION, 1, 100, TRANSLATION] }, 2, { lengths: [200, 50] });
  assert.deepEqual(await rank(other, "alpha"), ["doc1", "doc0"]);  // 0.4 / 0.625 against 0.4 / 1.75
  assert.deepEqual(await rank(other, "alpha", { options: { bodyMatch: 0.3 } }), ["doc0", "doc1"]);
  const symptoms = index({ alpha: [0, 100, SYMPTOMS, 1, 900, SYMPTOMS] }, 2, { lengths: [50, 200] });
  const found = await search(symptoms, "alpha");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);  // 0.8 each: the score decides
  assert.equal(found[1].explain.decidedBy, "score");
  assert.deepEqual(await rank(symptoms, "alpha", { options: { bodyMatch: 0.8 } }), ["doc0", "doc1"]);
});

test("an entry shorter than a quarter of the average counts as a quarter", async () => {
  // doc0's steps at 2% of the average: 0.2 / (0.25 + 0.75 × 0.25) = 0.457, under doc1's quick fix (0.6); at its
  // length they would count 0.2 / 0.265 = 0.755
  const files = index({ alpha: [0, 900, STEPS, 1, 100, QUICK_FIX] }, 2, { lengths: [2, 198] });
  const found = await search(files, "alpha");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.equal(found[1].explain.length, 0.25);
  assert.deepEqual(matches(found[1]), { alpha: 0.457 });
  assert.deepEqual(await rank(files, "alpha", { options: { minLengthShare: 0 } }), ["doc0", "doc1"]);
});

// How each reading counts, found in the title (1), and what it costs in the typo rule
const READING_CASES = {
  variant: [index({ "显存": [0, 100, TITLE] }, 1, { variants: { "顯存": ["显存"] } }), "顯存", 1, 1],
  parts: [index({ opset: [0, 100, TITLE], 14: [0, 100, TITLE] }, 1), "opset14", 0.6, 1],
  pinyin: [index({ "嫦娥": [0, 100, TITLE] }, 1, { pinyin: { change: ["嫦娥"] } }), "change", 0.6, 1],
  synonym: [index({ freez: [0, 100, TITLE] }, 1, { synonyms: [[["hang"], ["freez"]]] }), "hang", 0.5, 1],
  typo1: [index({ version: [0, 100, TITLE] }, 1, { words: { 7: ["version"] } }), "versoin", 0.5, 1],
  typo2: [index({ serveraliveinterval: [0, 100, TITLE] }, 1, { words: { 19: ["serveraliveinterval"] } }), "servraliveintervl", 0.3, 2],
  completion: [index({ nvidia: [0, 100, TITLE] }, 1, { completions: { nvi: ["nvidia"] } }), "nvid", 0.5, 1],
};

for (const [reading, [files, query, weight, penalty]] of Object.entries(READING_CASES)) {
  test(`reading ${reading} counts ${weight} and costs ${penalty}`, async () => {
    const [result] = await search(files, query);
    assert.deepEqual(Object.values(matches(result)), [weight]);
    assert.equal(result.explain.rules.typo, penalty);
    assert.deepEqual(new Set(result.explain.units.flatMap(u => u.terms.map(t => t.reading))), new Set([reading]));
    // the option decides it
    const readings = { ...READINGS, [reading]: { weight: 0.25, penalty: 3 } };
    const [moved] = await search(files, query, { options: { readings } });
    assert.deepEqual(Object.values(matches(moved)), [0.25]);
    assert.equal(moved.explain.rules.typo, 3);
  });
}

test("a typed word counts 1 in the title and costs nothing", async () => {
  const [result] = await search(index({ alpha: [0, 100, TITLE] }, 1), "alpha");
  assert.deepEqual(matches(result), { alpha: 1 });
  assert.equal(result.explain.rules.typo, 0);
  assert.deepEqual(result.explain.units[0].terms, [{ term: "alpha", reading: "typed", fields: ["title"] }]);
});

test("a synonym in the title beats the typed word in the body", async () => {
  const files = index({ hang: [0, 900, STEPS], freez: [1, 100, TITLE | titleChars(0, 5)] }, 2, { synonyms: [[["hang"], ["freez"]]] });
  assert.deepEqual(await rank(files, "hang"), ["doc1", "doc0"]);
  // a synonym at 0.05, in a title that is the query (× 3 by the title): 0.15 against 0.2
  const readings = { ...READINGS, synonym: { weight: 0.05, penalty: 1 } };
  assert.deepEqual(await rank(files, "hang", { options: { readings } }), ["doc0", "doc1"]);
});

test("titleWeight: an entry whose title is the query before one whose longer title also has it", async () => {
  // both titles have the word; doc1's is shorter (9 letters against 14): words 1 × (1 + 2 × 5/9) against 1 × (1 + 2 × 5/14)
  const files = index({ alpha: [0, 900, TITLE | titleChars(0, 14), 1, 100, TITLE | titleChars(0, 9)] }, 2);
  const found = await search(files, "alpha");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.equal(found[1].explain.decidedBy, "words");
  assert.deepEqual([found[0].explain.title, found[1].explain.title], [0.556, 0.357]);
  assert.deepEqual(await rank(files, "alpha", { options: { titleWeight: 0 } }), ["doc0", "doc1"]);
});

test("a title counts for as much of the query as it holds: a title the query covers through one word says less", async () => {
  // doc0's title is alpha alone (covered whole, half the query in it), beta in its labels; doc1's title has both
  // words in 18 letters (half covered, the whole query in it): 0.9 × (1 + 2 × 1 × 0.5) against 1 × (1 + 2 × 0.5 × 1)
  const files = index({ alpha: [0, 900, TITLE | titleChars(0, 5), 1, 100, TITLE | titleChars(0, 18)],
    beta: [0, 900, TAGS, 1, 100, TITLE | titleChars(0, 18)] }, 2);
  const found = await search(files, "alpha beta");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual([found[0].explain.title, found[1].explain.title], [0.5, 0.5]);
  assert.equal(found[0].explain.rules.words, 2);
  assert.equal(found[1].explain.rules.words, 1.8);
});

test("a title holds a piece of the query for the share of it that it has", async () => {
  // 显存不足 is one piece; doc0's title has its part 显存 (its 4 characters covered half), doc1's has 显存不足 whole
  // in 8 characters; both have 显存不足 in their steps, doc0 scores higher
  const files = index({ "显存": [0, 900, TITLE | STEPS | titleChars(4, 0), 1, 100, TITLE | STEPS | titleChars(8, 0)],
    "不足": [0, 900, STEPS, 1, 100, TITLE | STEPS | titleChars(8, 0)],
    "显存不足": [0, 900, STEPS, 1, 100, TITLE | STEPS | titleChars(8, 0)] }, 2);
  const found = await search(files, "显存不足");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual([found[0].explain.title, found[1].explain.title], [0.5, 0.25]);
});

test("a rare word weighs more", async () => {
  const files = index({ alpha: [1, 100, STEPS], beta: [0, 900, STEPS, 2, 100, STEPS, 3, 100, STEPS] }, 4);
  const found = await search(files, "alpha beta");
  assert.equal(found[0].id, "doc1");
  const weights = Object.fromEntries(found[0].explain.units.map(u => [u.unit, u.weight]));
  assert.deepEqual(weights, { alpha: 1.609 });  // log(1 + 4 / 1)
  assert.deepEqual(found[1].explain.units.map(u => [u.unit, u.weight]), [["beta", 0.847]]);  // log(1 + 4 / 3)
  assert.deepEqual(found[0].explain.queryUnits, ["alpha", "beta"]);
  assert.equal((await rank(files, "alpha beta", { options: { rarityFloor: 1 } }))[0], "doc0");
});

test("rarity has a floor of five percent", async () => {
  const gamma = [];
  for (let d = 3; d < 40; d++) gamma.push(d, 1, STEPS);
  const files = index({ alpha: [1, 100, STEPS], beta: [0, 900, STEPS, 2, 100, STEPS], gamma }, 40);
  assert.equal(await first(files, "alpha beta"), "doc0");  // equal weights: doc0 wins on its score
  assert.equal(await first(files, "alpha beta", { options: { rarityFloor: 0.02 } }), "doc1");
  const [result, other] = await search(files, "alpha beta");
  assert.deepEqual(result.explain.units.map(u => u.weight), [3.045]);  // log(1 + 40 / 2)
  // --explain gives the entries a unit is in, before the floor: alpha in one, weighed as in two
  assert.deepEqual(other.explain.units.map(u => [u.unit, u.weight, u.entries]), [["alpha", 3.045, 1]]);
  assert.deepEqual(result.explain.units.map(u => [u.unit, u.entries]), [["beta", 2]]);
});

test("a word of a synonym phrase in more than a quarter of the entries stands for nothing", async () => {
  // gamma's group has the phrase "alpha beta": beta in doc0's title and two more of eight, alpha in doc1's steps only
  const terms = { alpha: [1, 100, STEPS], beta: [0, 900, TITLE | titleChars(0, 4), 2, 1, STEPS, 3, 1, STEPS], gamma: [7, 100, STEPS] };
  const synonyms = [[["gamma"], ["alpha", "beta"]]];
  const found = await search(index(terms, 8, { synonyms }), "gamma");
  assert.deepEqual(found.map(r => r.id), ["doc7", "doc1"]);
  assert.deepEqual(found[0].explain.common, [{ term: "beta", entries: 3 }]);  // what --explain says was not read
  assert.deepEqual((await rank(index(terms, 8, { synonyms }), "gamma", { options: { maxPhraseWordShare: 0.5 } })).slice(0, 2),
    ["doc0", "doc7"]);
  // exactly a quarter still counts: beta in two of eight
  assert.equal(await first(index({ ...terms, beta: terms.beta.slice(0, -3) }, 8, { synonyms }), "gamma"), "doc0");
  // a phrase of one word is the group's meaning whole, however common
  const whole = index({ delta: [0, 900, TITLE | titleChars(0, 5), 2, 1, STEPS, 3, 1, STEPS, 4, 1, STEPS], gamma: [7, 100, STEPS] }, 8,
    { synonyms: [[["gamma"], ["delta"]]] });
  assert.equal(await first(whole, "gamma"), "doc0");
});

test("a capped term counts as in as many entries as the index says", async () => {
  // alpha listed in doc0 only, but in 30 of 40 entries; beta in doc1 only
  const terms = { alpha: [0, 900, STEPS], beta: [1, 100, STEPS], gamma: Array.from({ length: 38 }, (_, d) => [d + 2, 1, STEPS]).flat() };
  assert.equal(await first(index(terms, 40, { entries: { alpha: 30 } }), "alpha beta"), "doc1");
  assert.equal(await first(index(terms, 40), "alpha beta"), "doc0");
});

test("a unit counts as in the entries that have it whole; only where none does, as in the most of its terms, each for its share", async () => {
  const weight = async (files, query, unit) => (await search(files, query))[0].explain.units.find(u => u.unit === unit).weight;
  // alpha in 30 of 40 entries, its synonym delta (a phrase of one word: the unit whole) in 12: 30 counts
  const synonyms = index({ alpha: [0, 900, STEPS], delta: [1, 100, STEPS] }, 40,
    { synonyms: [[["alpha"], ["delta"]]], entries: { alpha: 30, delta: 12 } });
  assert.equal(await weight(synonyms, "alpha", "alpha"), 0.847);  // log(1 + 40 / 30)
  // 显存不足 whole in one entry (two, the floor), though 显存, half of it, is in 30: the unit counts as in two
  const rare = { "显存": [0, 900, STEPS], "不足": [0, 900, STEPS], "显存不足": [1, 100, STEPS] };
  assert.equal(await weight(index(rare, 40, { entries: { "显存": 30 } }), "显存不足", "显存不足"), 3.045);  // log(1 + 40 / 2)
  // listed in doc1 only, but in 12 entries by the index's count
  assert.equal(await weight(index(rare, 40, { entries: { "显存": 30, "显存不足": 12 } }), "显存不足", "显存不足"), 1.466);  // log(1 + 40 / 12)
  // 执行程序, which no entry has whole (执行 and 程序 cross 行程): 执行 in 30 entries is half of it, the unit counts as in 15
  const crossing = index({ "执行": [0, 900, STEPS], "行程": [1, 100, STEPS], "程序": [1, 100, STEPS] }, 40, { entries: { "执行": 30 } });
  assert.equal(await weight(crossing, "执行程序", "执行程序"), 1.299);  // log(1 + 40 / 15)
  // the entries of each term counted together: 显存不足 in six entries (which say 显存 too), its synonym 爆显存 in four
  // others, 显存 alone in 30 more: whole in ten of 100
  const listed = (first, count) => Array.from({ length: count }, (_, d) => [first + d, 100, STEPS]).flat();
  const together = index({ "显存不足": listed(0, 6), "爆显存": listed(6, 4), "显存": listed(0, 6).concat(listed(10, 30)) }, 100,
    { synonyms: [[["显存不足"], ["爆显存"]]] });
  assert.equal(await weight(together, "显存不足", "显存不足"), 2.398);  // log(1 + 100 / 10)
  // and in part: 执行 in ten entries, 程序 in ten others, 行程 in one more, each half of 执行程序: ten and a half in all
  const halves = index({ "执行": listed(0, 10), "行程": [20, 100, STEPS], "程序": listed(10, 10) }, 40);
  assert.equal(await weight(halves, "执行程序", "执行程序"), 1.571);  // log(1 + 40 / 10.5)
  assert.equal((await search(halves, "执行程序"))[0].explain.units[0].entries, 10.5);  // what --explain says it is in
});

test("a word of the query is as rare as its whole: the entry that has it whole before one with a rarer word and part of it", async () => {
  // 显存不足 崩溃: doc1 has 显存不足 in its steps; doc0 崩溃 (in six of 40 entries) in its steps. 显存, half of 显存不足,
  // is in 30 entries: counted by its parts, 显存不足 would be as rare as 15 entries (1.299) and doc0's 崩溃 (2.037) win
  const files = index({ "崩溃": [0, 900, STEPS], "显存不足": [1, 100, STEPS], "显存": [2, 100, STEPS] }, 40,
    { entries: { "崩溃": 6, "显存": 30 } });
  const found = await search(files, "显存不足 崩溃");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0", "doc2"]);
  assert.deepEqual(found[0].explain.units.map(u => [u.unit, u.weight]), [["显存不足", 3.045]]);
  assert.deepEqual(found[1].explain.units.map(u => [u.unit, u.weight]), [["崩溃", 2.037]]);
});

test("a capped character or phrase word in more than a quarter of the entries counts nothing", async () => {
  const characters = { "显存": [0, 100, STEPS, 1, 900, STEPS], "了": [0, 100, STEPS], gamma: [2, 1, STEPS] };
  const found = await search(index(characters, 40, { entries: { "了": 11 } }), "显存了");
  assert.equal(found[0].explain.queryUnits.includes("了"), false);
  assert.equal(found[0].id, "doc1");
  assert.equal(await first(index(characters, 40), "显存了"), "doc0");
  const terms = { alpha: [1, 100, STEPS], beta: [0, 900, TITLE | titleChars(0, 4)], gamma: [7, 100, STEPS] };
  const synonyms = [[["gamma"], ["alpha", "beta"]]];
  assert.deepEqual(await rank(index(terms, 40, { synonyms, entries: { beta: 11 } }), "gamma"), ["doc7", "doc1"]);
  assert.equal(await first(index(terms, 40, { synonyms }), "gamma"), "doc0");
});

test("a lone character counts half, and nothing when in more than a quarter of the entries", async () => {
  const terms = { "显存": [0, 900, STEPS, 1, 100, STEPS], "显": [0, 1, STEPS, 1, 1, STEPS], "存": [0, 1, STEPS, 1, 1, STEPS],
    "爆": [1, 100, STEPS, 2, 1, STEPS], "了": [1, 1, STEPS, 2, 1, STEPS, 3, 1, STEPS] };
  const files = index(terms, 8);
  const doc1 = (await search(files, "显存爆")).find(r => r.id === "doc1");
  const weights = Object.fromEntries(doc1.explain.units.map(u => [u.unit, u.weight]));
  assert.equal(weights["爆"], 0.805);  // 0.5 × log(1 + 8 / 2)
  assert.deepEqual(await rank(files, "显存爆"), ["doc1", "doc0", "doc2"]);
  assert.deepEqual((await rank(files, "显存爆", { options: { characterWeight: 0 } })).slice(0, 2), ["doc0", "doc1"]);
  assert.equal((await search(files, "显存了"))[0].explain.queryUnits.includes("了"), false);  // 3 of 8
  assert.deepEqual((await rank(files, "显存了")).slice(0, 2), ["doc0", "doc1"]);
  assert.deepEqual((await rank(files, "显存了", { options: { maxCharacterShare: 0.5 } })).slice(0, 2), ["doc1", "doc0"]);
  // exactly a quarter still counts: 2 of 8
  assert.equal((await search(files, "显存爆"))[0].explain.queryUnits.includes("爆"), true);
  assert.equal((await search(files, "显存爆", { options: { maxCharacterShare: 0.2 } }))[0].explain.queryUnits.includes("爆"), false);
});

test("a query of common characters only is weighed by them: the entry with one in its title first, not all at 0", async () => {
  // 卡 is in four entries of eight, more than a quarter; doc1 has it in its title, doc0 in its steps (scoring higher)
  const files = index({ "卡": [0, 900, STEPS | ALONE, 1, 100, TITLE | ALONE, 2, 1, STEPS | ALONE, 3, 1, STEPS | ALONE] }, 8);
  const found = await search(files, "卡");
  assert.deepEqual(found.map(r => r.id).slice(0, 2), ["doc1", "doc0"]);
  assert.equal(found[0].explain.units.find(u => u.unit === "卡").weight, 0.549);  // 0.5 × log(1 + 8 / 4), as a lone character
  assert.equal(found[1].explain.decidedBy, "words");
  // with a word beside it that is weighed, it still counts nothing
  const withWord = index({ "卡": [0, 900, STEPS | ALONE, 1, 100, TITLE | ALONE, 2, 1, STEPS | ALONE, 3, 1, STEPS | ALONE],
    "显存": [0, 900, STEPS, 1, 100, STEPS] }, 8);
  const beside = await search(withWord, "显存卡");
  assert.deepEqual(beside.map(r => r.id).slice(0, 2), ["doc0", "doc1"]);
  // explain names it, with its entries; alone it was weighed, so nothing is named
  assert.deepEqual(beside[0].explain.commonCharacters, [{ term: "卡", entries: 4 }]);
  assert.deepEqual(found[0].explain.commonCharacters, []);
});

test("a lone character agrees with a title only in a query of characters", async () => {
  // 显卡爆: 显卡 a word, 爆 a character no word of the query covers. doc0 has 爆 in its short title inside another word
  // (爆掉: 0.5) and 显卡 in its symptoms, scoring higher; doc1 has both in its tags, 爆 a word of its own. By the words
  // value doc1 (0.8 of the query against 0.7); were 爆 taken for the title's agreement, doc0: 0.7 × (1 + 2 × 0.5 × 1/3)
  const others = { "其他": [2, 3, 4, 5, 6, 7].flatMap(doc => [doc, 1, STEPS]) };
  const mixed = index({ "显卡": [0, 900, SYMPTOMS, 1, 100, TAGS], "爆": [0, 900, TITLE | titleChars(2, 0), 1, 100, TAGS | ALONE],
    ...others }, 8);
  const found = await search(mixed, "显卡爆");
  assert.deepEqual(found.map(r => [r.id, r.explain.title]), [["doc1", 0], ["doc0", 0]]);
  assert.equal(found[1].explain.decidedBy, "words");
  // a query of characters only has nothing else to agree with a title: 爆 alone, doc1's title (inside a word, 0.5)
  // before doc0's tags (0.8, scoring higher): 0.5 × (1 + 2 × 0.5) against 0.8
  const alone = index({ "爆": [0, 900, TAGS | ALONE, 1, 100, TITLE | titleChars(2, 0)], ...others }, 8);
  assert.deepEqual((await search(alone, "爆")).map(r => [r.id, r.explain.title]), [["doc1", 0.5], ["doc0", 0]]);
});

test("a lone character found only inside the entry's longer words matches at half", async () => {
  // 爆: doc1 has it as a word of its own (ALONE), doc2 only inside longer words; doc0 scores higher
  const files = index({ "显存": [0, 900, STEPS, 1, 100, STEPS, 2, 100, STEPS], "爆": [0, 900, STEPS, 1, 100, STEPS | ALONE, 2, 100, TITLE] }, 16);
  const found = await search(files, "显存爆");
  assert.deepEqual(Object.fromEntries(found.map(r => [r.id, matches(r)["爆"]])), { doc0: 0.1, doc1: 0.2, doc2: 0.5 });
  assert.deepEqual(found.map(r => r.id), ["doc2", "doc1", "doc0"]);
  // a word of two characters is not halved unless it overlaps (next test); with the option at 1, a character inside
  // words counts whole
  const [word] = await search(index({ "显存": [0, 100, STEPS] }, 1), "显存");
  assert.deepEqual(matches(word), { "显存": 0.2 });
  const whole = await search(files, "显存爆", { options: { insideWordMatch: 1 } });
  assert.deepEqual(Object.fromEntries(whole.map(r => [r.id, matches(r)["爆"]])), { doc0: 0.2, doc1: 0.2, doc2: 1 });
});

test("a word found only where it overlaps the entry's words matches at half", async () => {
  // 定性: doc0 has it in its tags only overlapping the entry's words (稳定性), doc1 as a word of its own in its quick fix
  const files = index({ "定性": [0, 900, TAGS | OVERLAP, 1, 100, QUICK_FIX] }, 2);
  const found = await search(files, "定性");
  assert.deepEqual(Object.fromEntries(found.map(r => [r.id, matches(r)["定性"]])), { doc0: 0.4, doc1: 0.6 });
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  // the bit means nothing on a character's posting (ALONE does): 爆 with it and ALONE counts whole
  const [character] = await search(index({ "爆": [0, 100, TAGS | OVERLAP | ALONE] }, 8), "爆");
  assert.equal(matches(character)["爆"], 0.8);
  const whole = await search(files, "定性", { options: { insideWordMatch: 1 } });
  assert.deepEqual(whole.map(r => r.id), ["doc0", "doc1"]);
});

test("words that cross are one unit: a word read across two is not a third word of the query", async () => {
  // 执行程序: 执行 and 程序 (doc1, quick fix), and 行程 (doc0, title), which reads across them; 执行 and 程序 are in
  // ten entries each, 行程 in one (in a title of 16 characters). As a unit of its own, rare 行程 would outweigh both
  // words: doc0 0.58 against 0.25. As one unit, doc1 matches all of it at 0.6, doc0 half of it at 1 (its title 1/8
  // covered and holding half the query: 0.5 × 1.125 in the words rule)
  const common = n => Array.from({ length: 10 }, (_, k) => [k + n, 100, STEPS]).flat();
  const files = index({ "执行": [1, 100, QUICK_FIX, ...common(2)], "程序": [1, 100, QUICK_FIX, ...common(10)],
    "行程": [0, 900, TITLE | titleChars(16, 0)] }, 20);
  const found = await search(files, "执行程序");
  assert.deepEqual(found[0].explain.queryUnits, ["执行程序"]);
  assert.deepEqual(found.slice(0, 2).map(r => [r.id, matches(r)["执行程序"]]), [["doc1", 0.6], ["doc0", 0.5]]);
});

test("a word matched in part counts its share", async () => {
  const files = index({ "显存不足": [1, 100, STEPS], "显存": [0, 900, STEPS, 1, 100, STEPS], "不足": [1, 100, STEPS] }, 2);
  const found = await search(files, "显存不足");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(found.map(r => matches(r)["显存不足"]), [0.2, 0.1]);
});

test("a word matched by its parts counts each part's share, the best first, none overlapping", async () => {
  // doc1 has 显存 in its title and 不足 in its steps: half of the unit at 1, half at 0.2
  const files = index({ "显存": [0, 900, STEPS, 1, 100, TITLE | titleChars(8, 0)], "不足": [1, 100, STEPS],
    "存不足": [0, 900, STEPS], "显存不足": [2, 100, STEPS] }, 3);
  const found = await search(files, "显存不足");
  const byId = Object.fromEntries(found.map(r => [r.id, matches(r)["显存不足"]]));
  assert.deepEqual(byId, { doc1: 0.6, doc0: 0.15, doc2: 0.2 });  // doc0: 存不足 (0.75 × 0.2), 显存 overlaps it
});

test("an identifier is found whole", async () => {
  const files = index({ torch: [0, 900, STEPS, 1, 100, STEPS], load: [0, 900, STEPS, 1, 100, STEPS], torch_load: [1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(files, "torch.load"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "torch load"), ["doc0", "doc1"]);
});

test("an identifier typed with its joint finds the entry that writes it joined, as the identifier's own piece", async () => {
  // doc1 writes allreduce (its term allreduc, in the title), doc0 has the word all in its steps
  const files = index({ all: [0, 900, STEPS], allreduc: [1, 100, TITLE | titleChars(0, 9)] }, 2);
  const found = await search(files, "all-reduce");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  // allreduc stands for the identifier all_reduce, not for a piece of its own beside all and reduce
  assert.deepEqual(matches(found[0]), { all_reduce: 1 });
});

test("two edits count less than one", async () => {
  const files = index({ abcdefghixx: [0, 900, STEPS], lmnopqrstuw: [1, 100, STEPS] }, 2, { words: { 11: ["abcdefghixx", "lmnopqrstuw"] } });
  assert.deepEqual(await rank(files, "abcdefghijk lmnopqrstuv"), ["doc1", "doc0"]);
  const readings = { ...READINGS, typo2: READINGS.typo1 };
  assert.deepEqual(await rank(files, "abcdefghijk lmnopqrstuv", { options: { readings } }), ["doc0", "doc1"]);
});

test("words are corrected from five letters, and by two edits from nine", async () => {
  const files = index({ cuda: [0, 100, STEPS], timeout: [1, 100, STEPS], serveraliveinterval: [0, 100, STEPS] }, 2,
    { words: { 4: ["cuda"], 7: ["timeout"], 19: ["serveraliveinterval"] } });
  assert.deepEqual(await rank(files, "cdua"), []);
  assert.deepEqual(await rank(files, "cdua", { options: { typoMinChars: [0, 4, 9] } }), ["doc0"]);
  assert.deepEqual(await rank(files, "timout"), ["doc1"]);
  assert.deepEqual(await rank(files, "tmout"), []);
  assert.deepEqual(await rank(files, "tmout", { options: { typoMinChars: [0, 5, 5] } }), ["doc1"]);
  assert.deepEqual(await rank(files, "serveralivintervl"), ["doc0"]);
});

test("a correction agrees with the rest of the query", async () => {
  const files = index({ alpha: [1, 100, STEPS], abcdefghik: [0, 900, STEPS], abcdefghxx: [1, 100, STEPS] }, 2,
    { words: { 5: ["alpha"], 10: ["abcdefghik", "abcdefghxx"] } });
  assert.deepEqual(await rank(files, "alpha abcdefghij"), ["doc1"]);
  assert.deepEqual(await rank(files, "abcdefghij"), ["doc0"]);
  assert.deepEqual(await rank(files, "alpha abcdefghij", { options: { maxCandidates: 1 } }), ["doc1", "doc0"]);
});

test("twelve candidates are weighed for agreement", async () => {
  const decoys = [..."klmnopqrstuv"].map(c => `abcdefgh${c}j`);
  for (const [count, expected] of [[11, ["doc1"]], [12, ["doc1", "doc0"]]]) {
    const kept = decoys.slice(0, count);
    const terms = { alpha: [1, 100, STEPS], abcdefghxx: [1, 100, STEPS] };
    for (const d of kept) terms[d] = [0, 900, STEPS];
    const files = index(terms, 2, { words: { 5: ["alpha"], 10: [...kept, "abcdefghxx"].sort() } });
    assert.deepEqual(await rank(files, "alpha abcdefghij", { options: { maxCorrections: 12 } }), expected, String(count));
  }
});

test("at most three corrections per word", async () => {
  const terms = {};
  ["abcdx", "abcdy", "abcdz", "abcdw"].forEach((w, n) => { terms[w] = [n, 100 * (n + 1), STEPS]; });
  const files = index(terms, 4, { words: { 5: Object.keys(terms).sort() } });
  assert.equal((await rank(files, "abcdv")).length, 3);
  assert.equal((await rank(files, "abcdv", { options: { maxCorrections: 4 } })).length, 4);
});

test("only the first eight unknown words are corrected", async () => {
  const letters = [..."abcdefghi"];
  const terms = {};
  letters.forEach((c, n) => { terms[`word${c}y`] = [n, 100, STEPS]; });
  const files = index(terms, 9, { words: { 6: Object.keys(terms).sort() } });
  const query = letters.map(c => `word${c}x`).join(" ");
  assert.deepEqual((await rank(files, query)).sort(), ["doc0", "doc1", "doc2", "doc3", "doc4", "doc5", "doc6", "doc7"]);
  assert.equal((await rank(files, query, { options: { maxCorrectedWords: 9 } })).length, 9);
});

test("the last word is read as the terms it begins while it is typed: from three letters, nothing after it", async () => {
  // doc1 has both words of `driver nvidia`, doc0 driver alone at a higher score
  const files = index({ driver: [0, 900, STEPS, 1, 100, STEPS], nvidia: [1, 100, STEPS] }, 2, { completions: { nvi: ["nvidia"] } });
  assert.deepEqual(await rank(files, "driver nvid"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "driver nvid", { off: ["completions"] }), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "nvid driver"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "driver nvi"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "driver nv"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "driver nvi", { options: { minCompletionChars: 4 } }), ["doc0", "doc1"]);
  // a term may be the start of a longer one too: itself as typed, the longer at a completion's 0.5 (a title's before the
  // steps', as Meilisearch's attribute rule orders prefix matches; in the same field, the word as typed first)
  const whole = index({ nvidia: [0, 100, STEPS], nvidiasmi: [1, 900, TITLE] }, 2, { completions: { nvi: ["nvidia", "nvidiasmi"] } });
  assert.deepEqual(await rank(whole, "nvidia"), ["doc1", "doc0"]);
  const same = index({ nvidia: [0, 100, STEPS], nvidiasmi: [1, 900, STEPS] }, 2, { completions: { nvi: ["nvidia", "nvidiasmi"] } });
  assert.deepEqual(await rank(same, "nvidia"), ["doc0", "doc1"]);
  // clos is a term (the stem of close), but typed it is read by its own stem, clo: unknown. It completes to the
  // longer terms only, not to the term that is the word itself
  const stems = index({ clos: [0, 900, TITLE], closur: [1, 100, STEPS] }, 2, { completions: { clo: ["clos", "closur"] } });
  assert.deepEqual(await rank(stems, "clos"), ["doc1"]);
});

test("a completion agrees with the rest of the query; of twelve candidates, in the most entries", async () => {
  const files = index({ alpha: [3, 100, STEPS], abcdx: [0, 900, STEPS, 1, 900, STEPS, 2, 900, STEPS], abcdy: [3, 100, STEPS] }, 4,
    { completions: { abc: ["abcdx", "abcdy"] } });
  assert.deepEqual(await rank(files, "alpha abcd", { options: { maxCorrections: 1 } }), ["doc3"]);
  assert.deepEqual(await rank(files, "abcd", { options: { maxCorrections: 1 } }), ["doc0", "doc1", "doc2"]);
  assert.deepEqual(await rank(files, "abcd"), ["doc0", "doc1", "doc2", "doc3"]);  // three completions: both
  const decoys = Object.fromEntries([..."efghijklmnop"].map(c => [`abcd${c}`, [0, 900, STEPS]]));
  const crowded = index({ alpha: [3, 100, STEPS], abcdy: [3, 100, STEPS], ...decoys }, 4,
    { completions: { abc: [...Object.keys(decoys), "abcdy"] } });
  assert.deepEqual(await rank(crowded, "alpha abcd", { options: { maxCorrections: 1 } }), ["doc3", "doc0"]);
  assert.deepEqual(await rank(crowded, "alpha abcd", { options: { maxCorrections: 1, maxCandidates: 13 } }), ["doc3"]);
  // in the most entries as the index counts them: a capped term's list no longer tells how many
  const capped = index({ abcdx: [0, 900, STEPS, 1, 900, STEPS], abcdy: [3, 100, STEPS] }, 40,
    { completions: { abc: ["abcdx", "abcdy"] }, entries: { abcdy: 30 } });
  assert.deepEqual(await rank(capped, "abcd", { options: { maxCorrections: 1 } }), ["doc3"]);
});

test("two Chinese words typed next to each other are read in the other order as the word they make: 显存爆, 爆显存", async () => {
  // doc1 says 爆显存 only; doc0 has 显存 in its title and 爆 in its steps
  const files = index({ "显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "爆显存": [1, 100, TITLE] }, 8);
  const found = await search(files, "显存爆");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(matches(found[0]), { "显存": 1, "爆": 1 });  // the word stands for both, as typed: weight 1
  assert.equal(found[0].explain.rules.typo, 2);  // and costs 1 for each
  // in the steps: what a match there counts (0.2) for each, not more for spanning more than either
  const inSteps = index({ "显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "爆显存": [1, 100, STEPS] }, 8);
  assert.deepEqual(matches((await search(inSteps, "显存爆")).find(r => r.id === "doc1")), { "显存": 0.2, "爆": 0.2 });
  assert.deepEqual(await rank(files, "显存爆", { off: ["reorders"] }), ["doc0"]);
  const readings = { ...READINGS, reorder: { weight: 0.25, penalty: 3 } };
  assert.deepEqual(await rank(files, "显存爆", { options: { readings } }), ["doc0", "doc1"]);
  // words apart are not read together; converted ones are (顯存 is 显存)
  assert.deepEqual(await rank(files, "显存 爆"), ["doc0"]);
  const traditional = index({ "显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "爆显存": [1, 100, TITLE] }, 8,
    { variants: { "顯存": ["显存"] } });
  assert.deepEqual(await rank(traditional, "顯存爆"), ["doc1", "doc0"]);
  // a word of the vocabulary that no entry says brings in its group
  const vocabulary = index({ "显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "显存不足": [1, 100, TITLE] }, 8,
    { synonyms: [[["爆显存"], ["显存不足"]]] });
  assert.deepEqual(await rank(vocabulary, "显存爆"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(vocabulary, "显存爆", { off: ["reorders"] }), ["doc0"]);
});

test("the reorders stage fetches no file of its own: a converted word's pair waits for the shards the query fetches anyway", async () => {
  // 爆顯存: 顯存 is 显存 (its t/ shard says so), and the pair 显存爆 is keyed by 显, a character not typed; 显存's synonym
  // 内存 is in a shard of its own. Files come in waves: each wave the engine asks for is answered at once.
  const files = index({ "显存": [0, 900, TITLE], "内存": [1, 100, TITLE], "爆": [0, 900, STEPS] }, 2,
    { shards: 16, variants: { "顯存": ["显存"] }, synonyms: [[["显存"], ["内存"]]] });
  // the manifest, the typed characters' shards, then 显 and 内 together, then the entries' d/ files
  assert.equal(await waves(files, "爆顯存"), 4);
  assert.equal(await waves(files, "爆顯存", { off: ["reorders"] }), 4);
});

test("the pinyin stage waits for its terms' shards with the query's last fetch, not a round trip before it", async () => {
  // xiancun is 显存 (the p/ shard says so); 显存's synonym 内存 is in another shard, fetched once 显存 is read
  const files = index({ "显存": [0, 900, TITLE], "内存": [1, 100, TITLE] }, 2,
    { shards: 16, pinyin: { xiancun: ["显存"] }, synonyms: [[["显存"], ["内存"]]] });
  assert.deepEqual(await rank(files, "xiancun"), ["doc0", "doc1"]);
  // the manifest, the typed word's shard with the p/ shard, then 显 and 内 together, then the d/ files
  assert.equal(await waves(files, "xiancun"), 4);
  // asked for with the phase's other fetches: the shard of dirver's correction (driver, t/15) is fetched in that phase,
  // and 内存's (t/0) goes with it rather than alone after it (neicun and dirver t/7 and t/1)
  const typo = index({ "内存": [0, 900, TITLE], driver: [1, 100, TITLE] }, 2,
    { shards: 16, syllables: "nei cun", pinyin: { neicun: ["内存"] }, words: { 6: ["driver"] } });
  assert.equal(await waves(typo, "neicun dirver"), 4);
  assert.equal(await waves(typo, "neicun dirver", { off: ["pinyin"] }), 4);
});

test("the parts of a name with digits are fetched with the typed words' shards, not a round trip after them", async () => {
  // opset14: the index has opset and 14, not the name whole; their shards are asked for before the typed ones say so
  const files = index({ onnx: [0, 100, TITLE], opset: [1, 100, TITLE], 14: [1, 100, TITLE] }, 2, { shards: 16 });
  assert.deepEqual(await rank(files, "opset14"), ["doc1"]);
  // the manifest, the typed words' shards with the parts', then the d/ files
  assert.equal(await waves(files, "opset14"), 3);
  assert.equal(await waves(files, "opset14", { off: ["parts"] }), 2);
});

test("the typos stage asks for the w/ lists with the term shards, after them, and waits for them only to correct", async () => {
  // versions is spelt right, versoin is not: w/7 lists version; the w/ files are answered only when let go
  const files = index({ version: [0, 100, STEPS, 1, 900, TITLE] }, 2, { words: { 6: ["versio"], 7: ["version"], 8: ["versions"] } });
  const { Engine } = load("engine"), answer = fetcher(files), asked = [], held = [];
  const engine = new Engine((file, priority) => {
    asked.push([file.split("/").slice(-2).join("/"), priority]);
    return file.includes("/w/") ? new Promise(resolve => held.push(() => resolve(answer(file)))) : answer(file);
  });
  const waited = (search, ms = 1000) => Promise.race([search, new Promise(resolve => setTimeout(() => resolve("waited"), ms))]);
  const spelt = await waited(engine.search("version"));
  assert.notEqual(spelt, "waited");  // answered with its w/ lists not yet there
  assert.deepEqual(spelt.ranked.map(r => r.id), ["doc1", "doc0"]);
  // asked for all the same, at low priority and after the shard and the c/ file, which are asked at the default
  assert.deepEqual(asked.slice(1, 6), [["t/0.json", undefined], ["c/0.json", undefined], ["w/6.json", "low"],
    ["w/7.json", "low"], ["w/8.json", "low"]]);
  const misspelt = engine.search("versoin");
  assert.equal(await waited(misspelt, 200), "waited");  // its correction waits for the same requests
  held.splice(0).forEach(release => release());
  assert.deepEqual((await misspelt).ranked.map(r => r.id), ["doc1", "doc0"]);
});

test("the typos stage asks for its candidates' synonyms with the candidates, not a round trip after them", async () => {
  // dirver is driver misspelt (w/6 lists it); with the typed nvidia it makes the phrase of 驱动's group. Shards of 16:
  // nvidia t/14, dirver t/1, driver t/15 (the home of its first group), 驱动 t/12; not read: 公版驱动 (no entry has
  // it) t/11, 内存 t/0 (a group of no candidate), 闪退 t/13 (its phrase driver crash is not all typed or corrected)
  const files = index({ nvidia: [0, 100, TITLE], driver: [0, 100, TITLE], "驱动": [1, 100, TITLE], "内存": [1, 100, STEPS],
    "闪退": [1, 100, STEPS] }, 2, { shards: 16, words: { 6: ["driver"] },
    synonyms: [[["driver", "crash"], ["闪退"]], [["nvidia", "driver"], ["驱动"], ["公版驱动"]], [["memori"], ["内存"]]] });
  assert.deepEqual(await rank(files, "nvidia dirver"), ["doc0", "doc1"]);
  // the manifest, the typed words' shards with w/6, then driver's and 驱动's together, then the d/ files
  assert.equal(await waves(files, "nvidia dirver"), 4);
  const shardsAsked = async settings => {
    const { Engine } = load("engine"), log = [];
    await new Engine(fetcher(files, log), settings).search("nvidia dirver");
    return log.filter(name => name.startsWith("t/")).sort();
  };
  assert.deepEqual(await shardsAsked({}), ["t/1.json", "t/12.json", "t/14.json", "t/15.json"]);
  // without the synonyms stage nothing of 驱动 is asked for
  assert.deepEqual(await shardsAsked({ off: ["synonyms"] }), ["t/1.json", "t/14.json", "t/15.json"]);
});

test("a word being typed is read as the Chinese terms whose pinyin it begins, the shortest readings first", async () => {
  const files = index({ "版本": [0, 900, STEPS, 1, 100, STEPS], "显存": [1, 100, STEPS] }, 2,
    { pinyin: { banben: ["版本"], xiancun: ["显存"] } });
  assert.deepEqual(await rank(files, "banben xianc"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "banben xianc", { off: ["completions"] }), ["doc0", "doc1"]);
  const two = index({ "现场": [0, 900, TITLE], "显存": [1, 100, STEPS] }, 2, { pinyin: { xianchang: ["现场"], xiancun: ["显存"] } });
  assert.deepEqual(await rank(two, "xianc", { options: { maxCandidates: 1 } }), ["doc1"]);
  assert.deepEqual(await rank(two, "xianc"), ["doc0", "doc1"]);
  // the pinyin stage off: no pinyin read, half typed either
  assert.deepEqual(await rank(two, "xianc", { off: ["pinyin"] }), []);
  // readings as long: alphabetical (xiancao, xianche, xiancun), whichever order the file lists them in
  const same = index({ "限车": [0, 100, STEPS], "显存": [1, 900, TITLE], "线槽": [2, 100, STEPS] }, 3,
    { pinyin: { xianche: ["限车"], xiancun: ["显存"], xiancao: ["线槽"] } });
  assert.deepEqual((await rank(same, "xianc", { options: { maxCandidates: 2 } })).sort(), ["doc0", "doc2"]);
  // with nothing else to agree with: the term in the most entries, however long its reading
  const many = index({ "现场": [0, 100, STEPS, 2, 100, STEPS], "显存": [1, 900, TITLE] }, 3,
    { pinyin: { xianchang: ["现场"], xiancun: ["显存"] } });
  assert.deepEqual(await rank(many, "xianc", { options: { maxCorrections: 1 } }), ["doc0", "doc2"]);
  // a synonym's term no entry has is no candidate: with one candidate, 显存, not the absent 限车 (first alphabetically)
  const absent = index({ "显存": [1, 100, STEPS] }, 2, { pinyin: { xianche: ["限车"], xiancun: ["显存"] },
    synonyms: [[["限车"], ["limit"]]] });
  assert.deepEqual(await rank(absent, "xianc", { options: { maxCandidates: 1 } }), ["doc1"]);
});

test("pinyin being typed after an apostrophe, the syllable mark of input methods (xian'c), is read as the terms it begins", async () => {
  // an input method composing 显存 shows xian'c in the search box: xian + c…, as xianc is read
  const files = index({ "版本": [0, 900, STEPS, 1, 100, STEPS], "显存": [1, 100, STEPS] }, 2,
    { pinyin: { banben: ["版本"], xiancun: ["显存"] } });
  assert.deepEqual(await rank(files, "banben xian'c"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "banben xian'c", { off: ["completions"] }), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "banben xian'c  "), ["doc1", "doc0"]);  // spaces after it: still the last
  assert.deepEqual(await rank(files, "xian'c banben"), ["doc0", "doc1"]);  // another word after it: not being typed
  // a typed space is a word break: c alone is not begun pinyin
  assert.deepEqual(await rank(files, "banben xian c"), ["doc0", "doc1"]);
  // letters before an apostrophe that are not syllables make no pinyin (can't): x'ianc is not xianc, xi'x'ianc not xixianc
  assert.deepEqual(await rank(files, "banben x'ianc"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(index({ "显存": [1, 100, STEPS] }, 2, { pinyin: { xixiancun: ["显存"] }, syllables: "xi xian cun" }),
    "xi'x'ianc"), []);
  // three letters in all (xi'a) are enough, two (x'i) are not
  const short = index({ "显存": [1, 100, STEPS] }, 2, { pinyin: { xiancun: ["显存"] }, syllables: "x xi xian cun" });
  assert.deepEqual(await rank(short, "xi'a"), ["doc1"]);
  assert.deepEqual(await rank(short, "x'i"), []);
  // finished, the syllables read whole (xian'cun is xiancun, 显存): no completion to the longer 显存不足 (doc0)
  const whole = index({ "显存不足": [0, 900, STEPS], "显存": [1, 100, STEPS] }, 2, { pinyin: { xiancun: ["显存"], xiancunbuzu: ["显存不足"] } });
  assert.deepEqual(await rank(whole, "xian'cun"), ["doc1"]);
  assert.deepEqual(await rank(whole, "xian'cu"), ["doc0", "doc1"]);
  // the syllables before the one begun are not misspelt words: xian is not corrected to xiao (doc0)
  const corrected = index({ "版本": [0, 900, STEPS, 1, 100, STEPS], "显存": [1, 100, STEPS], xiao: [0, 900, STEPS] }, 2,
    { pinyin: { banben: ["版本"], xiancun: ["显存"] }, words: { 4: ["xiao"] } });
  assert.deepEqual(await rank(corrected, "banben xian'c"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(corrected, "banben xian c"), ["doc0", "doc1"]);  // (xian alone is corrected)
  // nor the syllables after the first: zhuang of xian'zhuang'c (现状测试) is not corrected to zhuan (doc0)
  const longer = index({ "现状测试": [1, 100, STEPS], zhuan: [0, 900, STEPS] }, 2,
    { pinyin: { xianzhuangceshi: ["现状测试"] }, words: { 5: ["zhuan"] }, syllables: "xian zhuang ce shi" });
  assert.deepEqual(await rank(longer, "xian'zhuang'c"), ["doc1"]);
});

test("an identifier being typed (nvidia-sm) is read as the identifiers it begins, and so is its last word", async () => {
  // doc1 says nvidia-smi; doc0 has nvidia and sm (of sm_89) at a higher score, doc2 sm alone: nvidia-sm is nvidia-smi
  // half typed, its sm read as smi begun more than as the word sm
  const files = index({ nvidia: [0, 900, STEPS, 1, 100, STEPS], sm: [0, 900, STEPS, 2, 100, STEPS], nvidia_smi: [1, 100, STEPS] },
    3, { completions: { nvi: ["nvidia_smi"] } });
  const found = await search(files, "nvidia-sm");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0", "doc2"]);
  assert.deepEqual(matches(found[0]), { nvidia: 0.2, sm: 0.1, nvidia_sm: 0.1 });  // the completion's 0.5 for both
  assert.deepEqual(await rank(files, "nvidia-sm", { off: ["completions"] }), ["doc0", "doc1", "doc2"]);
  assert.deepEqual(await rank(files, "nvidia-sm  "), ["doc1", "doc0", "doc2"]);  // spaces after it: still the last
  assert.deepEqual(await rank(files, "nvidia-sm sm"), ["doc0", "doc1", "doc2"]);  // another word after it: not being typed
  // an identifier the index has earlier in the query is no matter: the last is still being typed
  const known = index({ ...files["t/0.json"].terms, cuda_oom: [0, 900, STEPS, 1, 100, STEPS] }, 3, { completions: { nvi: ["nvidia_smi"] } });
  assert.deepEqual(await rank(known, "cuda_oom nvidia-sm"), ["doc1", "doc0", "doc2"]);
  // a last letter alone is no word: the completion stands for the identifier only
  const letter = index({ nvidia: [0, 900, STEPS, 1, 100, STEPS], nvidia_ctk: [1, 100, STEPS] }, 2, { completions: { nvi: ["nvidia_ctk"] } });
  assert.deepEqual(matches((await search(letter, "nvidia-c"))[0]), { nvidia: 0.2, nvidia_c: 0.1 });
  // typed whole, it is read as typed: nvidia_smi is not completed to the longer nvidia_smi_q (doc0)
  const whole = index({ nvidia_smi_q: [0, 900, STEPS], nvidia_smi: [1, 100, STEPS] }, 2,
    { completions: { nvi: ["nvidia_smi_q", "nvidia_smi"] } });
  assert.deepEqual(await rank(whole, "nvidia_smi"), ["doc1"]);
  assert.deepEqual(await rank(whole, "nvidia_sm"), ["doc0", "doc1"]);
  // an identifier the index has joined is whole too: time-out is timeout (doc1), not time_out_error half typed (doc0)
  const joined = index({ time_out_error: [0, 900, STEPS], timeout: [1, 100, STEPS] }, 2,
    { completions: { tim: ["time_out_error", "timeout"] } });
  assert.deepEqual(await rank(joined, "time-out"), ["doc1"]);
  // a word being typed completes to words only: nvid is nvidia (doc1), not nvidia_smi (doc0)
  const words = index({ nvidia_smi: [0, 900, STEPS], nvidia: [1, 100, STEPS] }, 2, { completions: { nvi: ["nvidia_smi", "nvidia"] } });
  assert.deepEqual(await rank(words, "nvid"), ["doc1"]);
});

test("a word being typed that begins terms is not corrected: checkp is checkpoint half typed, not check misspelt", async () => {
  const files = index({ check: [0, 900, STEPS], checkpoint: [1, 100, STEPS] }, 2, { words: { 5: ["check"] },
    completions: { che: ["check", "checkpoint"] } });
  assert.deepEqual(await rank(files, "checkp"), ["doc1"]);
  assert.deepEqual(await rank(files, "checkp", { off: ["completions"] }), ["doc0"]);
  // a word being typed that begins no term is corrected as before
  assert.deepEqual(await rank(files, "chekc"), ["doc0"]);
});

test("a last word the index has stands for the longer terms it begins too: cli on the way to clip", async () => {
  // doc0 has cli, doc1 gradient and clip: without the completion each matches one word of two, as rare, and the
  // score puts doc0 first
  const files = index({ cli: [0, 900, TITLE], gradient: [1, 100, TITLE], clip: [1, 100, TITLE] }, 2,
    { completions: { cli: ["cli", "clip"] } });
  const found = await search(files, "gradient cli");
  assert.deepEqual(found.map(r => r.id), ["doc1", "doc0"]);
  assert.deepEqual(found.map(matches), [{ gradient: 1, cli: 0.5 }, { cli: 1 }]);
  assert.deepEqual(await rank(files, "gradient cli", { off: ["completions"] }), ["doc0", "doc1"]);
  // not a word with another after it; and the word as typed before the terms it begins
  assert.deepEqual(await rank(files, "cli gradient"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "cli"), ["doc0", "doc1"]);
});

test("a last word read as pinyin is not pinyin begun, whatever else of the query is unread", async () => {
  // xiancun is 显存 (doc1), whole; read as begun it would be 显存不足 too (doc0, at a higher score)
  const files = index({ "显存": [1, 100, STEPS], "显存不足": [0, 900, STEPS] }, 2,
    { pinyin: { xiancun: ["显存"], xiancunbuzu: ["显存不足"] }, syllables: "xian cun bu zu" });
  assert.deepEqual(await rank(files, "xiancun"), ["doc1"]);
  assert.deepEqual(await rank(files, "qqqq xiancun"), ["doc1"]);  // qqqq: no term, no pinyin
  assert.deepEqual(await rank(files, "qqqq xiancunb"), ["doc0"]);  // begun: 显存不足
  // nor English begun: change is 嫦娥 (doc1), not the start of changelog (doc0, in its title)
  const english = index({ "嫦娥": [1, 100, STEPS], changelog: [0, 900, TITLE] }, 2,
    { pinyin: { change: ["嫦娥"] }, completions: { cha: ["changelog"] } });
  assert.deepEqual(await rank(english, "change"), ["doc1"]);
  assert.deepEqual(await rank(english, "changel"), ["doc0"]);
});

test("a name being typed that begins terms is not read by its parts: fail2b is fail2ban half typed, not fail", async () => {
  const files = index({ fail: [0, 900, TITLE], fail2ban: [1, 100, STEPS] }, 2, { completions: { fai: ["fail", "fail2ban"] } });
  assert.deepEqual(await rank(files, "fail2b"), ["doc1"]);
  assert.deepEqual(await rank(files, "fail2b", { off: ["completions"] }), ["doc0"]);
  // read by its parts as before: a name that begins no term, and one with a word after it (typed whole)
  assert.deepEqual(await rank(files, "fail2x"), ["doc0"]);
  assert.deepEqual(await rank(files, "fail2b zzz"), ["doc0"]);
});

test("the message rule needs eight characters whole, or sixteen of the query inside a message", async () => {
  const terms = {};
  for (const t of ["pod", "oom", "kill"]) terms[t] = [0, 900, STEPS, 1, 100, STEPS];
  const files = index(terms, 2, { messages: { 1: ["oomkilled", "containerkilledbyoomkiller"] } });
  assert.equal(await first(files, "pod OOMKilled"), "doc1");
  assert.equal(await first(files, "pod OOMKilled", { options: { minMessageChars: 10 } }), "doc0");
  assert.equal(await first(files, "pod OOMKilled", { options: { minMessageChars: 9 } }), "doc1");
  // at the defaults, a message of eight characters counts and one of seven does not
  const eight = index({ alpha: [0, 900, STEPS, 1, 100, STEPS] }, 2, { messages: { 1: ["abcdefgh"] } });
  assert.equal(await first(eight, "alpha abcdefgh"), "doc1");
  const seven = index({ alpha: [0, 900, STEPS, 1, 100, STEPS] }, 2, { messages: { 1: ["abcdefg"] } });
  assert.equal(await first(seven, "alpha abcdefg"), "doc0");
  assert.equal(await first(files, "killed by oom kill"), "doc0");
  assert.equal(await first(files, "killed by oom kill", { options: { minPartialChars: 15 } }), "doc1");
  assert.equal(await first(files, "killed by oom kille"), "doc1");
  assert.equal(await first(files, "killed by oom kille", { options: { minPartialChars: 17 } }), "doc0");
  const found = await search(files, "pod OOMKilled");
  assert.deepEqual(found.map(r => [r.id, r.exact, r.explain.rules.message]), [["doc1", true, 2], ["doc0", false, 0]]);
  const part = await search(files, "killed by oom kille");
  // the query's 16 characters are 16 of the message's 26: two quarters over the 1 of a partial message
  assert.deepEqual(part.map(r => [r.id, r.exact, r.explain.rules.message]), [["doc1", true, 1.5], ["doc0", false, 0]]);
});

test("the query inside a message: the entry whose message it is more of first, the shortest message holding it", async () => {
  // both hold `connection timed out`; doc0's title has the query's words, so the words rule would put it first, but
  // the query is under a quarter of its message and about half of doc1's shorter one (an entry's shortest such
  // message counts)
  const terms = {};
  for (const t of ["connection", "timed", "out"]) terms[t] = [0, 900, TITLE, 1, 100, STEPS];
  const files = index(terms, 2, { messages: {
    0: ["upstreamtimedout110connectiontimedoutwhilereadingresponseheaderfromupstream"],
    1: ["sshconnecttohostxxxxport22connectiontimedoutafterretries", "connecttohostport22connectiontimedout"] } });
  const found = await search(files, "connection timed out");
  // 18 of 75 characters: 1; 18 of 37: 1.25 (not 18 of 56, the longer message)
  assert.deepEqual(found.map(r => [r.id, r.explain.rules.message, r.explain.message]),
    [["doc1", 1.25, "connecttohostport22connectiontimedout"], ["doc0", 1, "upstreamtimedout110connectiontimedoutwhilereadingresponseheaderfromupstream"]]);
  assert.deepEqual(await rank(files, "connection timed out", { options: { partialMessageSteps: 1 } }), ["doc0", "doc1"]);
});

test("a misspelt query holds a message within the edits its corrected words may be off by", async () => {
  // doc0 has the words in its title and no message; doc1's message holds `connection timed out`, which `conection`
  // (9 letters: two edits) misses by one: corrected to connection, the key is doc1's message's as if typed right
  const terms = {};
  for (const t of ["connection", "time", "out"]) terms[t] = [0, 900, TITLE, 1, 100, STEPS];
  const files = index(terms, 2, { words: { 10: ["connection"] },
    messages: { 1: ["sshconnecttohostport22connectiontimedout"] } });
  const found = await search(files, "conection timed out");
  assert.deepEqual(found.map(r => [r.id, r.explain.rules.message, r.explain.message]),
    [["doc1", 1.25, "sshconnecttohostport22connectiontimedout"], ["doc0", 0, null]]);
  // the edits are the corrected words': none when nothing was corrected (outs is out's plural, a term) ...
  assert.deepEqual(await rank(files, "connection timed outs"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "conection timed out", { off: ["typos"] }), ["doc0", "doc1"]);
  // ... and no more than their limit: two edits here (conection, and outt's t), one allowed where a word of 9 letters
  // is corrected by one
  assert.deepEqual(await rank(files, "conection timed outt"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "conection timed outt", { options: { typoMinChars: [0, 5, 10] } }), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "conection timed out", { options: { typoMinChars: [0, 5, 10] } }), ["doc1", "doc0"]);
  // a message's runs are apart where its text varies (a signature): the key is found inside one, as when typed right
  const signature = index(terms, 2, { words: { 10: ["connection"] }, messages: { 1: ["sshconnecttohostport22connectiontimed out"] } });
  assert.deepEqual(await rank(signature, "conection timed out"), ["doc0", "doc1"]);
  const inOneRun = index(terms, 2, { words: { 10: ["connection"] }, messages: { 1: ["sshconnecttohostport22connectiontimedout after"] } });
  assert.deepEqual(await rank(inOneRun, "conection timed out"), ["doc1", "doc0"]);
});

test("a message's symbols count in the message rule: load key '<' is not load key 'v'", async () => {
  const terms = {};
  for (const t of ["invalid", "load", "key"]) terms[t] = [0, 900, STEPS, 1, 100, STEPS];
  const files = index(terms, 2, { messages: { 0: ["invalidloadkeyv"], 1: ["invalidloadkey<"] } });
  assert.deepEqual(await rank(files, "invalid load key, '<'."), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "invalid load key, 'v'."), ["doc0", "doc1"]);
});

test("a message listed under a word of the query puts its entry first, however far the other rules put it", async () => {
  // doc1's message is listed under key, its rarest word (since index format 6): found without its d/ file, past maxResults
  const terms = {};
  for (const t of ["invalid", "load", "key"]) terms[t] = [0, 900, TITLE, 1, 100, STEPS];
  const anchored = { key: [1, "invalidloadkeyv"] };
  const files = index(terms, 2, { messages: { 1: ["invalidloadkeyv"] }, anchored });
  const one = { options: { maxResults: 1 } };
  assert.deepEqual(await rank(files, "invalid load key, 'v'.", one), ["doc1"]);
  assert.deepEqual(await rank(files, "invalid load key, 'v'."), ["doc1", "doc0"]);
  const found = await search(files, "invalid load key, 'v'.", one);
  assert.deepEqual(found.map(r => [r.id, r.exact, r.explain.rules.message]), [["doc1", true, 2]]);
  // not: a message the query does not contain, one shorter than minMessageChars, one listed under a word not typed
  assert.deepEqual(await rank(files, "invalid load key, '<'.", one), ["doc0"]);
  assert.deepEqual(await rank(files, "invalid load key, 'v'.", { options: { maxResults: 1, minMessageChars: 16 } }), ["doc0"]);
  assert.deepEqual(await rank(files, "invalid load key, 'v'.", { options: { maxResults: 1, minMessageChars: 15 } }), ["doc1"]);
  const elsewhere = index(terms, 2, { messages: { 1: ["invalidloadkeyv"] }, anchored: { zzz: [1, "invalidloadkeyv"] } });
  assert.deepEqual(await rank(elsewhere, "invalid load key, 'v'.", one), ["doc0"]);
});

test("a message in the middle of a long paste is found by its words there, which the other rules do not read", async () => {
  // alpha at both ends of a 230-character paste (the rules read its first and last 100), doc1's message in the
  // middle, listed under key: doc0 better by the words rule, doc1 first by the message rule
  const files = index({ alpha: [0, 900, TITLE, 1, 100, STEPS], key: [1, 100, STEPS] }, 2,
    { messages: { 1: ["invalidloadkeyv"] }, anchored: { key: [1, "invalidloadkeyv"] } });
  const paste = `alpha ${"x".repeat(100)} invalid load key, 'v'. ${"x".repeat(100)} alpha`;
  assert.deepEqual(await rank(files, paste, { options: { maxResults: 1 } }), ["doc1"]);
  assert.deepEqual(await rank(files, paste, { options: { maxResults: 1, maxQueryChars: 400 } }), ["doc1"]);  // read whole
  assert.deepEqual(await rank(files, paste, { options: { maxResults: 1 }, off: ["message"] }), ["doc0"]);
  // a message listed under an identifier, in a middle that has Chinese too
  const named = index({ alpha: [0, 900, TITLE, 1, 100, STEPS] }, 2,
    { messages: { 1: ["nvidiacontainercliinitializationerror"] },
      anchored: { nvidia_container_cli: [1, "nvidiacontainercliinitializationerror"] } });
  const log = `alpha ${"x".repeat(100)} 容器 nvidia-container-cli: initialization error ${"x".repeat(100)} alpha`;
  assert.deepEqual(await rank(named, log, { options: { maxResults: 1 } }), ["doc1"]);
});

test("a message of the query found whole counts more than the query found in a message", async () => {
  const terms = { oom: [0, 900, STEPS, 1, 100, STEPS, 2, 500, STEPS] };
  const files = index(terms, 3, { messages: { 0: ["xxoomkilledbythekernelxx"], 2: ["oomkilledbythekernel"] } });
  assert.deepEqual(await rank(files, "OOM killed by the kernel"), ["doc2", "doc0", "doc1"]);
});

test("at most ten results", async () => {
  const alpha = [];
  for (let d = 0; d < 12; d++) alpha.push(d, 100, STEPS);
  const files = index({ alpha }, 12);
  assert.equal((await rank(files, "alpha")).length, 10);
  assert.equal((await rank(files, "alpha", { options: { maxResults: 11 } })).length, 11);
});

test("a long paste is analysed by its first and last 100 characters", async () => {
  const files = index({ alpha: [0, 100, STEPS], gamma: [1, 100, STEPS], omega: [2, 100, STEPS] }, 3);
  // 200 characters are analysed whole: gamma, across the middle, is not cut in two
  const whole = "alpha " + "x".repeat(90) + " gamma " + "x".repeat(91) + " omega";
  assert.equal(whole.length, 200);
  assert.equal(whole.indexOf("gamma"), 97);
  assert.deepEqual(await rank(files, whole), ["doc0", "doc1", "doc2"]);
  // of a longer paste, the middle is left out: gamma stands between the first and the last 100
  const longer = "alpha " + "x".repeat(120) + " gamma " + "x".repeat(120) + " omega";
  assert.deepEqual(await rank(files, longer), ["doc0", "doc2"]);
  // 201 characters are longer: the 101st, inside gamma, is left out
  const over = "alpha " + "x".repeat(91) + " gamma " + "x".repeat(91) + " omega";
  assert.equal(over.length, 201);
  assert.equal(over.indexOf("gamma"), 98);
  assert.deepEqual(await rank(files, over), ["doc0", "doc2"]);
  assert.deepEqual(await rank(files, longer, { options: { maxQueryChars: 300 } }), ["doc0", "doc1", "doc2"]);
});

test("a title is measured in the scripts of the query", async () => {
  // Both titles have alpha; 显存 is in both entries' steps, in neither title. Both titles are said in English too
  // (10 letters: 5 and 2 Chinese characters); in the query's scripts doc1's is the more covered (5 of 12 against 5 of 15)
  const mixed = index({ alpha: [0, 900, TITLE | titleChars(5, 10), 1, 100, TITLE | titleChars(2, 10)],
    "显存": [0, 900, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(mixed, "alpha 显存"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(mixed, "alpha"), ["doc0", "doc1"]);  // an English query: the titles' English only (5 of 10)
  // Chinese titles with alpha as an English name in them (5 letters for 10 and 4 characters): measured whole, 5 of 15
  // against 5 of 9
  const named = index({ alpha: [0, 900, TITLE | titleChars(10, 5), 1, 100, TITLE | titleChars(4, 5)] }, 2);
  assert.deepEqual(await rank(named, "alpha"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(named, "alpha", { options: { echoLetters: 0.5 } }), ["doc0", "doc1"]);  // both "said in English"
  // said in English from two letters a Chinese character: doc0's title (4 characters, 6 letters) is measured whole at
  // the defaults, 5 of 10, below doc1's English (1 character, 7 letters), 5 of 7; with one letter enough, 5 of 6
  const twice = index({ alpha: [0, 900, TITLE | titleChars(4, 6), 1, 100, TITLE | titleChars(1, 7)] }, 2);
  assert.deepEqual(await rank(twice, "alpha"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(twice, "alpha", { options: { echoLetters: 1 } }), ["doc0", "doc1"]);
  // and the other way round: 显存 in both titles, alpha in neither; doc0's title has 20 letters, doc1's none
  const han = index({ "显存": [0, 900, TITLE | titleChars(4, 20), 1, 100, TITLE | titleChars(8, 0)],
    alpha: [0, 900, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(han, "显存 alpha"), ["doc1", "doc0"]);  // 2 of 8 against 2 of 24
  assert.deepEqual(await rank(han, "显存"), ["doc0", "doc1"]);  // 2 of 4 against 2 of 8
});

test("a title is measured in Chinese too when the query typed Chinese that matches nothing, but not for filler", async () => {
  // as above, alpha in both titles, said in both languages: 10 letters, and 5 Chinese characters (doc0) or 2 (doc1);
  // 飞 is in no entry. English alone: 5 of 10 each, the tie goes to the score (doc0); with 飞 the query is also
  // Chinese: 5 of 12 against 5 of 15
  const files = index({ alpha: [0, 900, TITLE | titleChars(5, 10), 1, 100, TITLE | titleChars(2, 10)] }, 2, { stopwords: ["怎么办"] });
  assert.deepEqual(await rank(files, "alpha飞了"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "alpha"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "alpha 怎么办"), ["doc0", "doc1"]);  // filler says nothing of the script
});

test("a version's zero-led minor part (04 of 22.04) is not searched, nor an address; typed alone they are", async () => {
  // doc0 has 04 in its title (Ubuntu 23.04), doc1 has 22 (Ubuntu 22.04, in its steps); both have alpha in their steps
  const files = index({ "04": [0, 100, TITLE | titleChars(0, 10)], "22": [1, 100, STEPS], alpha: [0, 100, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(files, "alpha 22.04"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(files, "alpha 04"), ["doc0", "doc1"]);
  assert.deepEqual(await rank(files, "alpha v.04"), ["doc0", "doc1"]);  // after a letter and a dot: a word of its own
  // a minor part without a leading zero says which version it is (Python 3.13, too new for a wheel)
  const minor = index({ "13": [1, 100, TITLE | titleChars(0, 10)], alpha: [0, 100, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(minor, "alpha 3.13"), ["doc1", "doc0"]);
  // the first number of a run is searched even when it starts with 0, and a name with letters at a zero-led part
  const first = index({ "04": [1, 100, TITLE | titleChars(0, 10)], "05b": [1, 100, TITLE | titleChars(0, 10)],
    alpha: [0, 100, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(first, "alpha 04.1"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(first, "alpha 22.05b"), ["doc1", "doc0"]);
  // a name with letters after the dot is searched (3.5b: a model size)
  const named = index({ "5b": [1, 100, TITLE | titleChars(0, 10)], alpha: [0, 100, STEPS, 1, 100, STEPS] }, 2);
  assert.deepEqual(await rank(named, "alpha 3.5b"), ["doc1", "doc0"]);
  // an address, every number of it: doc0 has 203 and 113 in its title (the same documentation address), doc1 alpha
  const address = index({ "203": [0, 100, TITLE | titleChars(0, 10)], "113": [0, 100, TITLE | titleChars(0, 10)],
    alpha: [0, 100, STEPS, 1, 100, TITLE | titleChars(0, 10)] }, 2);
  assert.deepEqual(await rank(address, "alpha 203.0.113.7"), ["doc1", "doc0"]);
  assert.deepEqual(await rank(address, "alpha 203 113"), ["doc0", "doc1"]);
});
