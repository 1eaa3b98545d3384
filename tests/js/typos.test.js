/* typos.js: corrections of misspelt words (docs/SEARCH.md, "Query" 5, [typos]). */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const { editDistance, editLimit, withinEdits, chooseCorrections } = load("typos");

test("editDistance: insertions, deletions and substitutions count one each", () => {
  assert.equal(editDistance("timeout", "timeout", 2), 0);
  assert.equal(editDistance("timout", "timeout", 2), 1);
  assert.equal(editDistance("timeoutt", "timeout", 2), 1);
  assert.equal(editDistance("timeaut", "timeout", 2), 1);
  assert.equal(editDistance("tmout", "timeout", 2), 2);
  assert.equal(editDistance("", "abc", 3), 3);
  assert.equal(editDistance("abc", "", 3), 3);
  assert.equal(editDistance("kitten", "sitting", 3), 3);
});

test("editDistance: a transposition of neighbours is one edit (optimal string alignment)", () => {
  assert.equal(editDistance("versoin", "version", 2), 1);
  assert.equal(editDistance("abdc", "abcd", 2), 1);
  assert.equal(editDistance("bacd", "abcd", 2), 1);
  assert.equal(editDistance("badc", "abcd", 2), 2);
  assert.equal(editDistance("ca", "abc", 3), 3);  // optimal string alignment: no edit of a transposed pair
  assert.equal(editDistance("ab", "ba", 1), 1);
  assert.equal(editDistance("acb", "abc", 1), 1);
});

test("editDistance anywhere: to the nearest stretch of the text, which may start and end anywhere", () => {
  assert.equal(editDistance("conectiontimedout", "sshconnecttohostport22connectiontimedout", 2, true), 1);
  assert.equal(editDistance("conectiontimedout", "sshconnecttohostport22connectiontimedout", 2), 3);  // the whole: over
  assert.equal(editDistance("timeout", "xxtimeoutxx", 0, true), 0);
  assert.equal(editDistance("timeuot", "xxtimeoutxx", 1, true), 1);  // a transposition inside the text
  assert.equal(editDistance("timout", "xxtimeoutxx", 1, true), 1);
  assert.equal(editDistance("timeaot", "xxtimeoutxx", 1, true), 2);  // two edits: limit + 1
  assert.equal(editDistance("abcd", "ab", 2, true), 2);  // longer than the text by the limit: within
  assert.equal(editDistance("abcde", "ab", 2, true), 3);  // by more: past it at once
  assert.equal(editDistance("ab", "xxxxxxxxab", 0, true), 0);  // a text far longer is no reason to stop
});

test("editDistance: past the limit, limit + 1", () => {
  assert.equal(editDistance("abcdef", "ghijkl", 2), 3);
  assert.equal(editDistance("abcdef", "ab", 2), 3);  // lengths four apart
  assert.equal(editDistance("abcd", "ab", 2), 2);  // lengths two apart: within
  assert.equal(editDistance("abcdefgh", "abcdefgh", 0), 0);
  assert.equal(editDistance("abcdefgh", "abcdefgx", 0), 1);
  assert.equal(editDistance("xbcdefgh", "abcdefgh", 0), 1);  // stops at the first row over the limit
  assert.equal(editDistance("xxcdefgh", "abcdefgh", 1), 2);
  assert.equal(editDistance("abcdefgh", "abcdefxx", 1), 2);  // over the limit only in the last row
  assert.equal(editDistance("axcdefgh", "abcdefgh", 1), 1);
});

test("editLimit: no edit under 5 letters, one from 5, two from 9", () => {
  const minChars = [0, 5, 9];
  assert.equal(editLimit("abcd", minChars), 0);
  assert.equal(editLimit("abcde", minChars), 1);
  assert.equal(editLimit("abcdefgh", minChars), 1);
  assert.equal(editLimit("abcdefghi", minChars), 2);
  assert.equal(editLimit("abcdefghijklmnop", minChars), 2);
  assert.equal(editLimit("abc", [0, 3, 4]), 1);
});

test("withinEdits: the terms within the limit, nearest first, then alphabetical", () => {
  const found = withinEdits("timout", ["timeout", "tmout", "timouts", "abc", "timeouts", "zimout", "timout"], 1);
  assert.deepEqual(found, [["timout", 0], ["timeout", 1], ["timouts", 1], ["tmout", 1], ["zimout", 1]]);
  assert.deepEqual(withinEdits("timout", ["timeouts"], 2), [["timeouts", 2]]);
  assert.deepEqual(withinEdits("timout", ["timeouts"], 1), []);
  assert.deepEqual(withinEdits("abcde", ["abcdz", "abcdy", "abcdx"], 1), [["abcdx", 1], ["abcdy", 1], ["abcdz", 1]]);
});

test("chooseCorrections: the terms that agree with the rest of the query, even when farther", () => {
  const found = [["abcdefghik", 1], ["abcdefghxx", 2], ["abcdefghiy", 1]];
  assert.deepEqual(chooseCorrections(found, new Map([["abcdefghxx", 3], ["abcdefghik", 0]]), 3), [["abcdefghxx", 2]]);
});

test("chooseCorrections: without agreement, all the nearest", () => {
  const found = [["abcdx", 1], ["abcdy", 1], ["abcxx", 2]];
  assert.deepEqual(chooseCorrections(found, new Map(), 3), [["abcdx", 1], ["abcdy", 1]]);
  assert.deepEqual(chooseCorrections(found, new Map([["abcdx", 0], ["abcdy", 0]]), 3), [["abcdx", 1], ["abcdy", 1]]);
});

test("chooseCorrections: of the nearest agreeing terms, the most agreeing first, at most `max`", () => {
  const found = [["abcdw", 1], ["abcdx", 1], ["abcdy", 1], ["abcdz", 1], ["abcxx", 2]];
  const agreement = new Map([["abcdw", 1], ["abcdx", 5], ["abcdy", 3], ["abcxx", 9]]);
  assert.deepEqual(chooseCorrections(found, agreement, 3), [["abcdx", 1], ["abcdy", 1], ["abcdw", 1]]);
  assert.deepEqual(chooseCorrections(found, agreement, 2), [["abcdx", 1], ["abcdy", 1]]);
  // an agreeing term not in the first place of `found`, and terms without agreement counting as 0
  const some = new Map([["abcdz", 2]]);
  assert.deepEqual(chooseCorrections([["abcdw", 1], ["abcdz", 1]], some, 3), [["abcdz", 1]]);
  assert.deepEqual(chooseCorrections([], new Map(), 3), []);
});
