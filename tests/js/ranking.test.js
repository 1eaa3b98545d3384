/* ranking.js: the rules, in order (docs/SEARCH.md, "Ranking"): message → words → typo → score → entry number.
 * Every ordering test puts the expected winner after the first hit, better by the rule under test and worse by every
 * later one, so it wins by that rule and not by a tie. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const ranking = load("ranking");
const ALL = ranking.rulesInForce(new Set());

const OPTIONS = { titleWeight: 2, linkWeight: 0.1, phraseWeight: 0.25, echoLetters: 2 };  // options.js

/* A hit as matching.js collect and weigh make it: title terms of 4 English letters in a title of `latin` letters, for
 * an English query, holding `titleWords` of the query's weighed words; `links`: how many entries name it as related,
 * 0 … 1. */
function hit(doc, { message, words = 0.5, latin = 8, titleWords = 0.5, links = 0, phrases = 0, typo = 1, score = 5 } = {}) {
  return { doc, message, words, titleWords, title: [{ term: "abcd", span: [0, 4] }], titleChars: [0, latin],
    queryScripts: { han: false, latin: true }, links, phrases, typo, score };
}

function order(hits, rules = ALL, options = OPTIONS) {
  ranking.evaluate(hits, rules, options);
  return [...hits].sort(ranking.compare(rules)).map(h => h.doc);
}

test("the rules and their order", () => {
  assert.deepEqual(ranking.RULE_NAMES, ["message", "words", "typo", "score"]);
  assert.deepEqual(ranking.RULES.map(r => r.better), ["more", "more", "less", "more"]);
});

// For each rule: doc1 better by it, doc0 better by every rule after it.
const CASES = {
  message: [hit(0, { message: 1, words: 0.9, latin: 4, typo: 0, score: 9 }), hit(1, { message: 2, words: 0.1, latin: 16, typo: 3, score: 1 })],
  words: [hit(0, { words: 0.4, typo: 0, score: 9 }), hit(1, { words: 0.6, typo: 3, score: 1 })],
  typo: [hit(0, { typo: 2, score: 9 }), hit(1, { typo: 1, score: 1 })],
  score: [hit(0, { score: 4 }), hit(1, { score: 6 })],
};

for (const [name, hits] of Object.entries(CASES)) {
  test(`rule ${name}: its better entry first, and the next rules decide without it`, () => {
    assert.deepEqual(order(hits), [1, 0]);
    assert.equal(ranking.decidingRule(hits[0], hits[1], ALL), name);
    assert.deepEqual(order(hits, ranking.rulesInForce(new Set([name]))), [0, 1]);
  });
}

test("message: a whole message (2) before a partial one (1) before none", () => {
  const hits = [hit(0, { score: 9 }), hit(1, { message: 1, score: 5 }), hit(2, { message: 2, score: 1 })];
  assert.deepEqual(order(hits), [2, 1, 0]);
  assert.equal(hits[0].values.message, 0);  // not known (no d/ file fetched): no message
});

test("partialMessage: 1, a step more for each quarter of the message the query is, below a whole message's 2", () => {
  const steps = share => ranking.partialMessage(share, { partialMessageSteps: 4 });
  assert.deepEqual([0, 0.24, 0.25, 0.41, 0.5, 0.72, 0.75, 0.99, 1].map(steps), [1, 1, 1.25, 1.25, 1.5, 1.5, 1.75, 1.75, 1.75]);
  assert.equal(ranking.partialMessage(0.99, { partialMessageSteps: 1 }), 1);  // one step: every partial message alike
  assert.equal(ranking.partialMessage(0.5, { partialMessageSteps: 2 }), 1.5);
});

test("words: the hit's share, times 1 + titleWeight × its title's agreement with the query", () => {
  const h = hit(3, { words: 0.75, latin: 8, titleWords: 0.5 });  // title: 4 of 8 letters covered, half the query in it
  assert.equal(ranking.titleAgreement(h, OPTIONS), 0.25);
  ranking.evaluate([h], ALL, OPTIONS);
  assert.deepEqual(h.values, { message: 0, words: 0.75 * (1 + 2 * 0.25), typo: 1, score: 5 });
  ranking.evaluate([h], ALL, { ...OPTIONS, titleWeight: 0 });
  assert.equal(h.values.words, 0.75);
});

test("words: an entry whose title is the query before one that matches as much of it elsewhere", () => {
  // equal shares; doc1's title is the query (4 of 4 letters, the whole query in it), doc0's a longer story; doc0
  // better by every later rule. With titleWeight 0, doc0 first.
  const hits = [hit(0, { latin: 16, typo: 0, score: 9 }), hit(1, { latin: 4, titleWords: 1, typo: 3, score: 1 })];
  assert.deepEqual(order(hits), [1, 0]);
  assert.deepEqual(order(hits, ALL, { ...OPTIONS, titleWeight: 0 }), [0, 1]);
  // the title outweighs a small lead in words, not a large one: 0.5 × 3 against 0.9
  assert.deepEqual(order([hit(0, { words: 0.9, latin: 16, titleWords: 0 }), hit(1, { latin: 4, titleWords: 1 })]), [1, 0]);
  assert.deepEqual(order([hit(0, { words: 1, latin: 16, titleWords: 0 }), hit(1, { words: 0.3, latin: 4, titleWords: 1 })]), [0, 1]);
});

test("words: times 1 + linkWeight × how many entries name the hit as related", () => {
  const h = hit(3, { words: 0.75, latin: 8, titleWords: 0.5, links: 0.5 });
  ranking.evaluate([h], ALL, OPTIONS);
  assert.equal(h.values.words, 0.75 * (1 + 2 * 0.25) * (1 + 0.1 * 0.5));
  // equal shares and titles; doc1 is the entry others point to, doc0 better by every later rule. With linkWeight 0,
  // doc0 first.
  const hits = [hit(0, { typo: 0, score: 9 }), hit(1, { links: 1, typo: 3, score: 1 })];
  assert.deepEqual(order(hits), [1, 0]);
  assert.equal(ranking.decidingRule(hits[0], hits[1], ALL), "words");
  assert.deepEqual(order(hits, ALL, { ...OPTIONS, linkWeight: 0 }), [0, 1]);
  // links outweigh a lead in words of less than a tenth, not a larger one: 0.5 × 1.1 against 0.54 and 0.56
  assert.deepEqual(order([hit(0, { words: 0.54 }), hit(1, { links: 1 })]), [1, 0]);
  assert.deepEqual(order([hit(0, { words: 0.56 }), hit(1, { links: 1 })]), [0, 1]);
});

test("words: times 1 + phraseWeight × the share of the query in phrases the index has apart that the hit states", () => {
  const h = hit(3, { words: 0.75, latin: 8, titleWords: 0.5, phrases: 0.4 });
  ranking.evaluate([h], ALL, OPTIONS);
  assert.equal(h.values.words, 0.75 * (1 + 2 * 0.25) * (1 + 0.25 * 0.4));
  // equal shares and titles; doc1 states half the query as typed, doc0 is better by every later rule. With
  // phraseWeight 0, doc0 first.
  const hits = [hit(0, { typo: 0, score: 9 }), hit(1, { phrases: 0.5, typo: 3, score: 1 })];
  assert.deepEqual(order(hits), [1, 0]);
  assert.equal(ranking.decidingRule(hits[0], hits[1], ALL), "words");
  assert.deepEqual(order(hits, ALL, { ...OPTIONS, phraseWeight: 0 }), [0, 1]);
  // it outweighs a lead in words of less than an eighth, not a larger one: 0.5 × 1.125 against 0.56 and 0.57
  assert.deepEqual(order([hit(0, { words: 0.56 }), hit(1, { phrases: 0.5 })]), [1, 0]);
  assert.deepEqual(order([hit(0, { words: 0.57 }), hit(1, { phrases: 0.5 })]), [0, 1]);
});

test("statedShare: the share of each phrase a line says as typed, each phrase once", () => {
  const phrases = [{ text: "端口占用", share: 0.5 }, { text: "预分配", share: 0.25 }];
  assert.equal(ranking.statedShare(phrases, ["ssh 端口占用", "端口占用了"]), 0.5);
  assert.equal(ranking.statedShare(phrases, ["端口 占用", "显存预分配"]), 0.25);
  assert.equal(ranking.statedShare(phrases, ["端口占用", "预分配"]), 0.75);
  assert.equal(ranking.statedShare(phrases, []), 0);
  assert.equal(ranking.statedShare([], ["端口占用"]), 0);
});

test("titleAgreement: the share of the title covered times the share of the query in the title", () => {
  // a short title the query covers whole through one of its words, against a longer one that holds more of it
  const short = hit(0, { latin: 4, titleWords: 0.1 }), longer = hit(1, { latin: 16, titleWords: 0.8 });
  assert.equal(ranking.titleAgreement(short, OPTIONS), 0.1);
  assert.equal(ranking.titleAgreement(longer, OPTIONS), 0.2);
  assert.deepEqual(order([short, longer]), [1, 0]);
  assert.equal(ranking.titleAgreement({ ...longer, title: null }, OPTIONS), 0);
});

test("equal by every rule: the lower entry number first", () => {
  const hits = [hit(2), hit(0), hit(1)];
  assert.deepEqual(order(hits), [0, 1, 2]);
  ranking.evaluate(hits, ALL, OPTIONS);
  assert.equal(ranking.decidingRule(hits[1], hits[0], ALL), "order");
  assert.equal(ranking.decidingRule(null, hits[0], ALL), null);
});

test("rulesInForce: every rule but those named", () => {
  assert.deepEqual(ranking.rulesInForce(new Set(["message", "typo"])).map(r => r.name), ["words", "score"]);
  assert.deepEqual(ALL.map(r => r.name), ["message", "words", "typo", "score"]);
});

test("evaluate: only the rules in force", () => {
  const h = hit(0);
  ranking.evaluate([h], ranking.rulesInForce(new Set(["message", "typo"])), { ...OPTIONS, titleWeight: 0 });
  assert.deepEqual(h.values, { words: 0.5, score: 5 });
});

// the query's scripts are those of the terms unless given
const share = (title, titleChars, queryScripts = { han: false, latin: false }) =>
  ranking.titleShare({ title, titleChars, queryScripts }, OPTIONS);

test("titleShare: the share of the title the query covers, in the script it matched", () => {
  assert.equal(share([{ term: "alpha", span: [0, 5] }], [0, 10]), 0.5);
  assert.equal(share([{ term: "显存", span: [0, 2] }], [8, 10]), 0.25);  // a Chinese query: the title's Chinese
  assert.equal(share([{ term: "显存", span: [0, 2] }, { term: "oom", span: [3, 6] }], [4, 6]), 0.5);  // both
  assert.equal(share([], [4, 6]), 0);
  assert.equal(share([{ term: "alpha", span: [0, 5] }], [4, 0]), 0);  // no English in the title
});

test("titleShare: a query of both scripts is measured against both, matched in the title or not", () => {
  const both = { han: true, latin: true };
  assert.equal(share([{ term: "ssh", span: [0, 3] }], [9, 3], both), 0.25);  // ssh 掉线 and the title SSH 端口被防火墙拦截无法访问
  // ssh alone: a Chinese title with an English name (3 letters for 9 characters) is measured whole
  assert.equal(share([{ term: "ssh", span: [0, 3] }], [9, 3], { han: false, latin: true }), 0.25);
  // an English query against a title said in both languages (12 letters for 6 characters): its English only
  assert.equal(share([{ term: "ssh", span: [0, 3] }], [6, 12], { han: false, latin: true }), 0.25);
  assert.equal(share([{ term: "ssh", span: [0, 3] }], [6, 11], { han: false, latin: true }), 3 / 17);
  assert.equal(share([{ term: "显存", span: [0, 2] }], [8, 12], { han: true, latin: false }), 0.25);  // not the English echo
  assert.equal(share([{ term: "显存", span: [0, 2] }], [8, 12], both), 0.1);
});

test("titleShare: each piece of the query counted once, by the longest term it matched", () => {
  assert.equal(share([{ term: "显存", span: [0, 2] }, { term: "显存不足", span: [0, 4] }], [8, 0]), 0.5);
  assert.equal(share([{ term: "不足", span: [2, 4] }, { term: "显存不足", span: [0, 4] }, { term: "存不", span: [1, 3] }], [8, 0]), 0.5);
  assert.equal(share([{ term: "显存", span: [0, 2] }, { term: "不足", span: [2, 4] }], [8, 0]), 0.5);  // side by side: both
  assert.equal(share([{ term: "显存", span: [0, 2] }, { term: "显存", span: [0, 2] }], [8, 0]), 0.25);
  // a shorter piece before the longer one, ending where it starts
  assert.equal(share([{ term: "显存不足", span: [2, 6] }, { term: "爆了", span: [0, 2] }], [12, 0]), 0.5);
});

test("titleShare: at most 1", () => {
  assert.equal(share([{ term: "显存不足", span: [0, 4] }], [2, 0]), 1);
  assert.equal(share([{ term: "显存不足", span: [0, 4] }], [4, 0]), 1);
});

test("coverage: one part counts the share of the unit it spans times its match, at most 1", () => {
  assert.equal(ranking.coverage([0, 4], [{ span: [0, 2], match: 0.5 }]), 0.25);
  assert.equal(ranking.coverage([0, 4], [{ span: [0, 2], match: 0.5 }], true), 0.5);  // spansOnly: the share alone
  assert.equal(ranking.coverage([2, 6], [{ span: [0, 8], match: 0.5 }]), 0.5);  // from outside the unit: share 1
  assert.equal(ranking.coverage([0, 2], [{ span: [0, 2], match: 1.5 }]), 1);
});

test("coverage: the best parts first, none overlapping one counted; equal ones in their order", () => {
  // [1, 3] and [2, 4] count 0.5 each, [0, 2] 0.25: [1, 3] is counted first and the two others overlap it. Counted
  // worst first, [0, 2] and [2, 4] would make 0.75; equal ones in the other order, [2, 4] and [0, 2] would too.
  const parts = [{ span: [0, 2], match: 0.5 }, { span: [1, 3], match: 1 }, { span: [2, 4], match: 1 }];
  assert.equal(ranking.coverage([0, 4], parts), 0.5);
  assert.deepEqual(parts.map(p => p.span), [[0, 2], [1, 3], [2, 4]]);  // the parts themselves left in their order
  // spansOnly: each counts its share (0.5), [0, 2] first now, and [2, 4] beside it
  assert.equal(ranking.coverage([0, 4], parts, true), 1);
  assert.equal(ranking.coverage([0, 4], [{ span: [0, 2], match: 1 }, { span: [2, 4], match: 1 }, { span: [0, 4], match: 0.2 }]), 1);
});

test("best: the first `count` hits in order, best first, as a full sort would give", () => {
  const hits = [hit(0, { score: 1 }), hit(1, { score: 7 }), hit(2, { score: 3 }), hit(3, { score: 9 }),
    hit(4, { score: 7 }), hit(5, { score: 2 })];
  ranking.evaluate(hits, ALL, OPTIONS);
  const cmp = ranking.compare(ALL);
  assert.deepEqual(ranking.best(hits, cmp, 3).map(h => h.doc), [3, 1, 4]);
  assert.deepEqual(ranking.best(hits, cmp, 1).map(h => h.doc), [3]);
  assert.deepEqual(ranking.best(hits, cmp, 10).map(h => h.doc), [3, 1, 4, 2, 5, 0]);
  assert.deepEqual(ranking.best([...hits].reverse(), cmp, 3).map(h => h.doc), [3, 1, 4]);
  assert.deepEqual(ranking.best([], cmp, 3), []);
});
