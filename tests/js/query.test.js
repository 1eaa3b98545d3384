/* query.js: what a query is made of before the index is read (its runs, kept words, compounds), and how a term
 * read into it keeps its best reading. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const { Query, fillerSpans } = load("query");

test("Query: runs, kept words and their units, identifiers", () => {
  const query = new Query("显存 running a1b2c3d4 x fail2ban torch.load 了");
  assert.deepEqual(query.runs, [{ text: "显存", start: 0 }, { text: "了", start: 42 }]);
  assert.deepEqual(query.words, [{ text: "running", start: 3, unit: "run" }, { text: "fail2ban", start: 22, unit: "fail2ban" },
    { text: "torch", start: 31, unit: "torch" }, { text: "load", start: 37, unit: "load" }]);
  assert.deepEqual(query.compounds, [{ term: "torch_load", unit: "torch_load", start: 31, end: 41 }]);
  assert.deepEqual(query.letterWords().map(w => w.text), ["running", "torch", "load"]);
});

test("Query.add: a term keeps its best reading, a unit its first span", () => {
  const query = new Query("abcde");
  const add = (weight, penalty, reading, span = [0, 5]) => query.add("t", { units: ["u"], span, reading, weight, penalty });
  add(0.5, 2, "first");
  add(0.5, 2, "same");
  assert.equal(query.terms.get("t").reading, "first");
  add(0.5, 1, "cheaper");
  assert.equal(query.terms.get("t").reading, "cheaper");
  add(0.4, 0, "lighter");
  assert.equal(query.terms.get("t").reading, "cheaper");
  add(0.6, 3, "heavier", [1, 2]);
  assert.deepEqual(query.terms.get("t"), { units: ["u"], span: [1, 2], unitSpans: null, reading: "heavier", weight: 0.6, penalty: 3,
    surface: null, phraseWord: false });
  assert.deepEqual(query.partSpan("t", "u"), [1, 2]);
  query.add("p", { units: ["u"], span: [0, 1], reading: "synonym", weight: 0.25, penalty: 1, phraseWord: true });
  assert.equal(query.terms.get("p").phraseWord, true);
  assert.deepEqual(query.spans.get("u"), [0, 5]);
  query.add("v", { units: ["w"], span: [1, 2], within: [0, 3], reading: "typed", weight: 1, penalty: 0, surface: "v" });
  assert.deepEqual(query.spans.get("w"), [0, 3]);
  assert.deepEqual(query.units(), new Set(["u", "w"]));
  // a term standing for a different part of each of its units
  query.add("s", { units: ["u", "w"], span: [0, 3], unitSpans: new Map([["u", [0, 2]], ["w", [2, 3]]]), reading: "synonym", weight: 0.5, penalty: 1 });
  assert.deepEqual([query.partSpan("s", "u"), query.partSpan("s", "w")], [[0, 2], [2, 3]]);
});

test("fillerSpans: the stopwords, and a directional complement only after a verb and 不", () => {
  const stopwords = new Set(["怎么办", "了"]);
  assert.deepEqual(fillerSpans("显存怎么办了", stopwords, 3), [[2, 5], [5, 6]]);
  assert.deepEqual(fillerSpans("代码推不上去", stopwords, 3), [[4, 6]]);  // 推不上去: cannot push
  assert.deepEqual(fillerSpans("寫不進去了", stopwords, 3), [[2, 4], [4, 5]]);  // traditional
  assert.deepEqual(fillerSpans("代码推上去", stopwords, 3), []);  // pushed: the complement says what happened
  assert.deepEqual(fillerSpans("不上去", stopwords, 3), []);  // no verb before 不
  assert.deepEqual(fillerSpans("推不上", stopwords, 3), []);  // 上 alone is not a compound complement
  assert.deepEqual(fillerSpans("推不動", stopwords, 3), []);
});
