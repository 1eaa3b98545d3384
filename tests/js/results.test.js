/* results.js: Material's result items (docs/SEARCH.md, "How it plugs into Material" and "Query" 9, 10). Material
 * inserts title, text and tags as HTML: record text is escaped, only <mark> and <p> are added. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const results = load("results");

test("escapeHtml: & < > \" ' as character references", () => {
  assert.equal(results.escapeHtml(`<a href="x">&'`), "&#60;a href=&#34;x&#34;&#62;&#38;&#39;");
  assert.equal(results.escapeHtml("a < b > c"), "a &#60; b &#62; c");
  assert.equal(results.escapeHtml("显存 ok"), "显存 ok");
});

test("highlighter: English words marked by their stem, as written; the rest escaped", () => {
  const mark = results.highlighter(new Set(["run", "oom"]));
  assert.equal(mark("<b>Running</b> OOM & runs"), "&#60;b&#62;<mark>Running</mark>&#60;/b&#62; <mark>OOM</mark> &#38; <mark>runs</mark>");
  assert.equal(mark("rerun <x>"), "rerun &#60;x&#62;");
  assert.equal(mark(""), "");
});

test("highlighter: the words' terms shared by the items of a search, each item marking its own matches", () => {
  const stems = new Map();
  assert.equal(results.highlighter(new Set(["run"]), stems)("Running OOM"), "<mark>Running</mark> OOM");
  assert.equal(results.highlighter(new Set(["oom"]), stems)("Running OOM"), "Running <mark>OOM</mark>");
  assert.deepEqual([...stems], [["Running", "run"], ["OOM", "oom"]]);
  assert.equal(results.highlighter(new Set(["run"]), new Map([["Running", "walk"]]))("Running"), "Running");  // read from it
});

test("highlighter: a word analysis drops is never marked", () => {
  const mark = results.highlighter(new Set(["a", "a1b2c3d"]));
  assert.equal(mark("a A1B2C3D b"), "a A1B2C3D b");
});

test("highlighter: an identifier that matched as one is marked whole, another by its words", () => {
  // all_reduce matched through the word it reads as joined (a query allreduce); torch.load did not, load did
  const mark = results.highlighter(new Set(["allreduc", "load"]));
  assert.equal(mark("First All_Reduce, then torch.load(x) in v2.3.0"),
    "First <mark>All_Reduce</mark>, then torch.<mark>load</mark>(x) in v2.3.0");
  assert.equal(results.highlighter(new Set(["torch_load"]))("use torch.load."), "use <mark>torch.load</mark>.");
});

test("highlighter: Chinese terms, longest first, anywhere in a run", () => {
  const mark = results.highlighter(new Set(["显存", "显存不足", "oom", "足"]));
  assert.equal(mark("报错显存不足了，显存OOM"), "报错<mark>显存不足</mark>了，<mark>显存</mark><mark>OOM</mark>");
  assert.equal(mark("不足"), "不<mark>足</mark>");
  assert.equal(mark("存显存"), "存<mark>显存</mark>");
});

const MANIFEST = { fields: [["title", "", "", 1], ["tags", "", "Tags", 0.8], ["quick_fix", "quick-fix", "Quick fix", 0.6],
  ["symptoms", "symptoms", "Symptoms <1>", 0.8], ["steps", "steps", "Steps", 0.2], ["cause", "cause", "Cause", 0.2]] };
const OPTIONS = { sectionsShown: 2, linesShown: 3 };

function entry({ flags = 8 | 16 | 32, sections } = {}) {
  return {
    doc: 1, score: 4, flags, matched: new Set(["alpha", "beta"]),
    data: {
      location: "doc1/", title: "Alpha <beta> gamma", tags: ["gpu", "<oom>"],
      sections: sections || [[2, ["beta first", "other fix"]], [3, ["one alpha", "nothing", "two alpha", "three beta", "four alpha"]],
        [4, ["a step", "alpha step"]], [5, ["no match here", "nor here"]]],
    },
  };
}
const TERMS = new Map([["alpha", { surface: "Alpha" }], ["beta", { surface: null }]]);

test("entryItem: the entry with its title marked, its quick fix and tags", () => {
  const [item] = results.entryItem(entry(), TERMS, MANIFEST, OPTIONS);
  assert.deepEqual(item, { location: "doc1/", title: "<mark>Alpha</mark> &#60;<mark>beta</mark>&#62; gamma",
    text: "<p><mark>beta</mark> first</p>", tags: ["gpu", "&#60;oom&#62;"], score: 4, terms: { Alpha: true } });
});

test("entryItem: the sections the terms are in (not the quick fix), the matching lines, at most 3", () => {
  const [, ...sections] = results.entryItem(entry(), TERMS, MANIFEST, OPTIONS);
  assert.deepEqual(sections.map(s => [s.location, s.title]), [["doc1/#symptoms", "Symptoms &#60;1&#62;"],
    ["doc1/#steps", "Steps"], ["doc1/#cause", "Cause"]]);
  assert.equal(sections[0].text, "<p>one <mark>alpha</mark></p><p>two <mark>alpha</mark></p><p>three <mark>beta</mark></p>");
  assert.equal(sections[1].text, "<p><mark>alpha</mark> step</p>");
  assert.equal(sections[2].text, "<p>no match here</p>");  // no line matches: the first, as it is
  assert.deepEqual(sections.map(s => s.terms), [{ Alpha: true }, { Alpha: true }, { Alpha: true }]);
  assert.deepEqual(sections.map(s => s.score), [4, 4, 2]);  // two show, the third folds away
});

test("entryItem: sectionsShown and linesShown", () => {
  const [, ...sections] = results.entryItem(entry(), TERMS, MANIFEST, { sectionsShown: 1, linesShown: 4 });
  assert.deepEqual(sections.map(s => s.score), [4, 2, 2]);
  assert.equal(sections[0].text.split("<p>").length - 1, 4);
});

test("entryItem: only the sections whose field bit the entry's matched terms have", () => {
  const [, ...sections] = results.entryItem(entry({ flags: 16 }), TERMS, MANIFEST, OPTIONS);
  assert.deepEqual(sections.map(s => s.location), ["doc1/#steps"]);
  const [item, ...none] = results.entryItem(entry({ flags: 16, sections: [[4, ["x"]]] }), TERMS, MANIFEST, OPTIONS);
  assert.equal(item.text, "");  // no quick fix
  assert.deepEqual(none.map(s => s.title), ["Steps"]);
});

test("entryItem: the quick fix is the entry's text, never a section, even when a term is in it", () => {
  const [item, ...sections] = results.entryItem(entry({ flags: 4 | 16 }), TERMS, MANIFEST, OPTIONS);
  assert.equal(item.text, "<p><mark>beta</mark> first</p>");
  assert.deepEqual(sections.map(s => s.location), ["doc1/#steps"]);
});

test("noResultsItem: says so, offers the nearest terms, links the tag index", () => {
  const messages = { none: "No <results>", closest: "Closest terms: {terms}", browse: "Browse & tags", browseLocation: "tags/" };
  assert.deepEqual(results.noResultsItem(messages, ["git", "<x>"]), [{ location: "tags/", title: "No &#60;results&#62;",
    text: "<p>Closest terms: git, &#60;x&#62;</p><p>Browse &#38; tags</p>", tags: [], score: 0, terms: {} }]);
  assert.deepEqual(results.noResultsItem(messages, [])[0].text, "<p>Browse &#38; tags</p>");
});

test("outdatedItem: reload, in the site's language or both", () => {
  const item = lang => results.outdatedItem(lang);
  assert.deepEqual(item("zh"), [{ location: "./", title: "搜索索引已过期，请刷新页面", text: "", tags: [], score: 0, terms: {} }]);
  assert.equal(item("en")[0].title, "The search index is out of date: reload the page");
  assert.equal(item(undefined)[0].title, "搜索索引已过期，请刷新页面 · The search index is out of date: reload the page");
});
