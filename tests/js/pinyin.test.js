/* pinyin.js: letters typed without an input method, read as whole syllables (docs/SEARCH.md, "Query" 5, [pinyin]). */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const { syllableEdges, readsWhole, pinyinSpans, halfTypedFirsts } = load("pinyin");

const SYLLABLES = new Set(["xi", "an", "xian", "cun", "bu", "zu", "a", "ang"]);
const byKey = spans => new Set(spans.map(s => JSON.stringify(s)));
const expect = list => byKey(list);
const words = text => [...text.matchAll(/[a-z]+/g)].map(m => ({ text: m[0], start: m.index }));

test("syllableEdges: every reading of a word, as start → ends (xian is xian or xi an)", () => {
  assert.deepEqual(syllableEdges("xian", SYLLABLES, 4), new Map([[0, [2, 4]], [2, [4]]]));
  assert.deepEqual(syllableEdges("cun", SYLLABLES, 4), new Map([[0, [3]]]));
});

test("syllableEdges: null for a word that does not split wholly into syllables; syllables up to `longest`", () => {
  assert.equal(syllableEdges("xyz", SYLLABLES, 4), null);
  assert.equal(syllableEdges("xianq", SYLLABLES, 4), null);
  // syllables longer than `longest` are not tried: xian is then only xi an
  assert.deepEqual(syllableEdges("xian", SYLLABLES, 3), new Map([[0, [2]], [2, [4]]]));
});

test("readsWhole: a word that splits wholly into syllables, up to the longest the set has", () => {
  assert.equal(readsWhole("xian", SYLLABLES), true);
  assert.equal(readsWhole("xiancun", SYLLABLES), true);
  assert.equal(readsWhole("t", SYLLABLES), false);  // the t of can't
  assert.equal(readsWhole("xianq", SYLLABLES), false);
  assert.equal(readsWhole("zhuang", new Set(["zhuang"])), true);  // six letters: as long as the set's longest
});

test("syllableEdges: syllables that lead nowhere are left out", () => {
  // xiang: xi + ang reaches the end; xian + g and xi + an + g do not
  assert.deepEqual(syllableEdges("xiang", SYLLABLES, 4), new Map([[0, [2]], [2, [5]]]));
  // aang: a + ang; a + a + ... reaches no end from 1 via a
  assert.deepEqual(syllableEdges("aang", SYLLABLES, 4), new Map([[0, [1]], [1, [4]]]));
  // abcd: a + b leads to c, where no syllable starts; abc + d reaches the end
  assert.deepEqual(syllableEdges("abcd", new Set(["a", "abc", "b", "d"]), 3), new Map([[0, [3]], [3, [4]]]));
});

test("syllableEdges: only syllables that start where an earlier one ends", () => {
  // abc: ab, then c is no syllable; bc would end the word but starts inside ab
  assert.equal(syllableEdges("abc", new Set(["ab", "bc"]), 2), null);
});

test("pinyinSpans: every stretch of syllables, across the spaces between words from a word's start to a word's end", () => {
  const spans = pinyinSpans(words("xian cun"), SYLLABLES, 12);
  assert.equal(spans.length, 7);
  assert.deepEqual(byKey(spans), expect([
    { key: "an", first: "an", span: [2, 4] },
    { key: "cun", first: "cun", span: [5, 8] },
    { key: "xi", first: "xi", span: [0, 2] },
    { key: "xian", first: "xi", span: [0, 4] },
    { key: "xian", first: "xian", span: [0, 4] },
    { key: "xiancun", first: "xi", span: [0, 8] },
    { key: "xiancun", first: "xian", span: [0, 8] },
  ]));
});

test("pinyinSpans: a stretch across a space neither starts nor ends inside a word (li xian of tuili xiancun)", () => {
  const syllables = new Set(["tui", "li", "xian", "cun", "bu", "zu"]);
  const keys = text => new Set(pinyinSpans(words(text), syllables, 12).map(s => s.key));
  // not lixian or lixiancun (starting inside tuili), nor tuilixian (ending inside xiancun)
  assert.deepEqual(keys("tuili xiancun"), new Set(["tui", "li", "tuili", "xian", "cun", "xiancun", "tuilixiancun"]));
  // inside one word, from any syllable to any other
  assert.ok(keys("tuilixiancun").has("lixian"));
  // syllables typed apart, or words of two: every stretch that keeps to the words
  assert.ok(keys("xian cun bu zu").has("cunbu") && keys("xiancun buzu").has("xiancunbuzu") && !keys("xiancun buzu").has("cunbu"));
});

test("pinyinSpans: at most maxSyllables syllables a stretch", () => {
  const keys = n => new Set(pinyinSpans(words("cun bu zu"), SYLLABLES, n).map(s => s.key));
  assert.deepEqual(keys(3), new Set(["cun", "bu", "zu", "cunbu", "buzu", "cunbuzu"]));
  assert.deepEqual(keys(2), new Set(["cun", "bu", "zu", "cunbu", "buzu"]));
  assert.deepEqual(keys(1), new Set(["cun", "bu", "zu"]));
});

test("pinyinSpans: a word that is not pinyin ends the stretch", () => {
  const spans = pinyinSpans(words("cun nvidia bu zu"), SYLLABLES, 12);
  assert.deepEqual(byKey(spans), expect([
    { key: "bu", first: "bu", span: [11, 13] },
    { key: "buzu", first: "bu", span: [11, 16] },
    { key: "cun", first: "cun", span: [0, 3] },
    { key: "zu", first: "zu", span: [14, 16] },
  ]));
  assert.deepEqual(pinyinSpans(words("nvidia"), SYLLABLES, 12), []);
  assert.deepEqual(pinyinSpans([], SYLLABLES, 12), []);
});

test("pinyinSpans: a span's end is the query position after its last letter, across the gap between words", () => {
  // "cun   bu": the words start at 0 and 6
  const spans = pinyinSpans([{ text: "cun", start: 0 }, { text: "bu", start: 6 }], SYLLABLES, 12);
  assert.deepEqual(byKey(spans), expect([
    { key: "bu", first: "bu", span: [6, 8] },
    { key: "cun", first: "cun", span: [0, 3] },
    { key: "cunbu", first: "cun", span: [0, 8] },
  ]));
});

test("halfTypedFirsts: the first syllables of a word whose last syllable is half typed", () => {
  // xianc: xian + c…, or xi + an + c… (c begins cun); no syllable begins with xianc itself
  assert.deepEqual(halfTypedFirsts("xianc", SYLLABLES).sort(), ["xi", "xian"]);
  // xia: begins xian (a syllable that begins with the word), or xi + a… (of an, ang)
  assert.deepEqual(halfTypedFirsts("xia", SYLLABLES).sort(), ["xi", "xian"]);
  // cun: a whole syllable with nothing after it is the word read whole (the pinyin stage's); it begins only itself
  assert.deepEqual(halfTypedFirsts("cun", SYLLABLES), ["cun"]);
  assert.deepEqual(halfTypedFirsts("buz", SYLLABLES), ["bu"]);  // bu + z… of zu
  assert.deepEqual(halfTypedFirsts("bux", SYLLABLES), ["bu"]);  // x… of xi, xian
  assert.deepEqual(halfTypedFirsts("bq", SYLLABLES), []);  // b begins bu, but q begins nothing
  assert.deepEqual(halfTypedFirsts("ssh", SYLLABLES), []);
  assert.deepEqual(halfTypedFirsts("buzuc", SYLLABLES), ["bu"]);  // bu + zu + c…: two whole syllables, then one begun
  // read whole (xian, or xi + an), a word is also the start of a longer reading: the first syllables of both
  assert.deepEqual(halfTypedFirsts("xian", SYLLABLES).sort(), ["xi", "xian"]);
  // syllables are found up to the longest one's length: xiang is xi + ang, and xian + g… (g begins nothing here)
  assert.deepEqual(halfTypedFirsts("xiangc", SYLLABLES).sort(), ["xi"]);
});
