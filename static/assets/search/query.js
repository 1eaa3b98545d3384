/* What the engine makes of a query before it reads the index (docs/SEARCH.md, "Query"): the text analysed (all
 * of it, or a long paste's start and end), its Chinese runs and kept words, and the terms the stages read into it,
 * each with the pieces of the query it stands for. Pure: the index is read by engine.js, which fills `terms`. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./analysis.js"));
  else (root.PitfallSearch = root.PitfallSearch || {}).query = factory(root.PitfallSearch.analysis);
})(typeof self !== "undefined" ? self : this, function (analysis) {
  "use strict";

  const { PIECES, keepWord, stem, compounds } = analysis;

  /* Each [start, end) of `spans` with the longest of `spans` that contains it (itself when none is longer): a pinyin
   * reading and the readings inside it (xiancun in xiancunbuzu) are one piece of the query, the longer reading. */
  function nested(spans) {
    return spans.map(span => [span, spans.reduce((wide, s) =>
      s[0] <= span[0] && span[1] <= s[1] && s[1] - s[0] > wide[1] - wide[0] ? s : wide, span)]);
  }

  /* Each [start, end) of `spans` with the stretch that it and the spans overlapping it (and theirs, in turn) cover:
   * the Chinese words of a query that share characters are one piece of it, the longer word with the words inside
   * it (显存不足: 显存, 不足) and the words that cross (執行程式: 執行, 程式, and 行程, which only reads across the two;
   * an entry matches the piece by its best parts that do not overlap). `spans` come in the order of their starts, as
   * readTyped finds them, so the stretches come in order and apart: the first that ends at or after a span holds it. */
  function stretches(spans) {
    const merged = [];
    for (const [start, end] of spans) {
      const last = merged[merged.length - 1];
      if (last && start < last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    return spans.map(span => [span, merged.find(stretch => span[1] <= stretch[1])]);
  }

  /* Where the numbers of `text` start that a query does not search: in a run of numbers joined by dots, a part after
   * the first that starts with 0 (04 of 22.04: Ubuntu 23.04's 04 is not 22.04's; 13 of 3.13 is kept, it says which
   * Python), and every number of a run of four or more (203.0.113.7: an address, the reader's own host). The index
   * keeps them (04 typed alone is found). */
  function unsearchedNumbers(text) {
    const starts = new Set();
    for (const m of text.matchAll(/[0-9]+(?:\.[0-9]+)+/g)) {
      const parts = m[0].split(".");
      let at = m.index;
      parts.forEach((part, n) => {
        if ((n > 0 && part.startsWith("0")) || parts.length >= 4) starts.add(at);
        at += part.length + 1;
      });
    }
    return starts;
  }

  /* The compound directional complements of Chinese grammar (复合趋向补语), simplified and traditional. After 不 they make
   * the potential complement, "cannot V" (推不上去, 写不进去, 登不上去): the verb and 不 say what happened; the complement
   * only its direction, and matched alone it found the entries that say the opposite (推上去的提交 for 推不上去). */
  const COMPLEMENTS = new Set(("上来 上去 下来 下去 进来 进去 出来 出去 回来 回去 过来 过去 起来 " +
    "上來 下來 進來 進去 出來 回來 過來 過去 起來").split(" "));

  /* [start, end) of each filler word in a run of Chinese: the `stopwords` (怎么办, 一直, 吗 …, at most `longest`
   * characters), and a complement after a verb and 不. */
  function fillerSpans(text, stopwords, longest) {
    const spans = [];
    for (let i = 0; i < text.length; i++) {
      for (let n = 1; n <= Math.min(longest, text.length - i); n++)
        if (stopwords.has(text.substr(i, n))) spans.push([i, i + n]);
      if (i >= 2 && text[i - 1] === "不" && COMPLEMENTS.has(text.substr(i, 2))) spans.push([i, i + 2]);
    }
    return spans;
  }

  /* What of a query is analysed: all of it, or of a paste longer than `limit` its first and last limit / 2
   * characters, a line apart: a log line names its error first, a traceback last (the message rule reads all). */
  function excerpt(text, limit) {
    if (text.length <= limit) return text;
    const half = Math.floor(limit / 2);
    return `${text.slice(0, half)}\n${text.slice(-half)}`;
  }

  /* What the engine made of a query: the text analysed, its Chinese runs and kept words ({text, start}), and
   * its terms: Map term → {units, span, reading, weight, penalty, surface, phraseWord}. `units`: the pieces of the query
   * the term stands for (the words rule counts them; a synonym of a phrase stands for each of its words); `phraseWord`:
   * the term is one word of a synonym phrase of several (matching.js collect drops it when common); `span`:
   * where they are in the text; `reading`: how the term was read (options.readings: its weight and penalty);
   * `surface`: what to highlight on the entry's page. */
  class Query {
    constructor(text) {
      this.text = text;
      this.runs = [];
      this.words = [];
      this.compounds = compounds(text);
      const unsearched = unsearchedNumbers(text);
      for (const m of text.matchAll(PIECES)) {
        if (m[1]) this.runs.push({ text: m[1], start: m.index });
        else if (keepWord(m[2]) && !(/^[0-9]+$/.test(m[2]) && unsearched.has(m.index))) {
          this.words.push({ text: m[2], start: m.index, unit: stem(m[2]) });
        }
      }
      this.terms = new Map();
      this.characters = new Set();  // Chinese characters that no word of the query covers (their units)
      this.typedHan = false;  // Chinese other than filler typed (readTyped), whether it matches or not
      this.spans = new Map();  // unit → where it is in the text
    }

    /* Adds `term`, unless the query has it already, read at least as well (higher weight, then lower penalty).
     * `within`: the span of the unit the term is a part of (the whole word 显存不足 for its part 显存); `unitSpans`
     * (unit → span), where the term stands for a different part of each of its units (partSpan). */
    add(term, { units, span, within = span, unitSpans = null, reading, surface = null, weight, penalty, phraseWord = false }) {
      for (const unit of units) if (!this.spans.has(unit)) this.spans.set(unit, within);
      const known = this.terms.get(term);
      if (!known || known.weight < weight || (known.weight === weight && known.penalty > penalty))
        this.terms.set(term, { units, span, unitSpans, reading, weight, penalty, surface, phraseWord });
    }

    /* The part of `unit` that `term` stands for: its span, or its own span in that unit. */
    partSpan(term, unit) {
      const { span, unitSpans } = this.terms.get(term);
      return unitSpans ? unitSpans.get(unit) : span;
    }

    /* The units: the pieces of the query its terms stand for. */
    units() {
      return new Set([...this.terms.values()].flatMap(t => t.units));
    }

    letterWords() {
      return this.words.filter(w => /^[a-z]+$/.test(w.text));
    }
  }

  return { Query, excerpt, fillerSpans, nested, stretches };
});
