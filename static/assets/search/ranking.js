/* The ranking rules (docs/SEARCH.md, "Ranking"): a sequence of tie-breakers, each explainable on its own, as
 * Meilisearch orders by words, typo, attribute and exactness. An entry comes before another when it is better
 * by the first rule where they differ. Each rule can be switched off by name (new Engine(fetch, {off: [...]})). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./analysis.js"));
  else (root.PitfallSearch = root.PitfallSearch || {}).ranking = factory(root.PitfallSearch.analysis);
})(typeof self !== "undefined" ? self : this, function (analysis) {
  "use strict";

  const { isHan } = analysis;

  /* How much of a unit at `within` an entry matches, 0 … 1: its matched parts ({span, match}: the match of a term
   * where it stands in the entry and as it was read), each counted for the share of the unit it spans, the best
   * first, none overlapping another. 显存不足 matched whole counts 1; matched as 显存 and 不足, the share of each.
   * spansOnly: the share of the unit matched, wherever and however. */
  function coverage(within, parts, spansOnly = false) {
    // called for every unit of every entry a query reaches (thousands at 5,000 entries): one part, most often, is
    // counted without allocating
    // Stryker disable next-line ConditionalExpression: a shortcut, the loop below counts one part the same
    if (parts.length === 1) return Math.min(1, partValue(within, parts[0], spansOnly));
    const valued = [];  // the best first, equal ones in their order (a sort would allocate its own work array)
    for (const part of parts) {
      const value = partValue(within, part, spansOnly);
      let at = valued.length;
      while (at > 0 && valued[at - 1].value < value) at--;
      valued.splice(at, 0, { span: part.span, value });
    }
    const taken = [];
    let total = 0;
    for (const { span, value } of valued) {
      if (taken.some(([a, b]) => span[0] < b && a < span[1])) continue;
      taken.push(span);
      total += value;
    }
    return Math.min(1, total);
  }

  /* What a matched part counts in coverage: the share of the unit it spans (1 for a part from outside it), times its
   * match unless spansOnly. */
  function partValue(within, { span, match }, spansOnly) {
    const share = span[0] >= within[0] && span[1] <= within[1] ? (span[1] - span[0]) / (within[1] - within[0]) : 1;
    return spansOnly ? share : share * match;
  }

  /* A hit is one entry matched by a query (matching.js collect): {words, titleWords, typo, title: [{term, span}] or
   * null, titleChars: [Chinese characters, English letters] (with a title), queryScripts: {han, latin} (Chinese when
   * Chinese other than filler was typed, English when a weighed piece is), links (how many entries name it as related,
   * 0 … 1), score, message}. A rule's value is value(hit, options), options those of options.js. */
  const RULES = [
    // An error message of the entry found whole in the query (2), or the query found in one (1 … 2, partialMessage):
    // a pasted error names its entry. Known only for the entries whose d/ file is fetched, the first maxResults.
    { name: "message", value: hit => hit.message || 0, better: "more" },
    // How much of the query the entry matches: the share of the query's words it has, each word weighed by its
    // rarity (a word in few entries says more than one in many), by where it stands in the entry (the title
    // counts 1, an error message or a label 0.8, the quick fix 0.6, the body 0.2: an entry about the query
    // beats one that mentions its words) and by how it was read (typed 1; a synonym, a correction, a pinyin
    // reading less, so they never count more than the typed word would in the same place); times
    // 1 + titleWeight × how far the entry's title and the query are the same (titleAgreement): the general
    // entry, whose title is the query, before the specific neighbours that mention its words as often; and times
    // 1 + linkWeight × how many other entries name it as related (hit.links, 0 … 1): the general entry that the
    // specific neighbours point to, before them, where they match the query about as well; and times
    // 1 + phraseWeight × the share of the query in phrases whose words the index has only apart and the entry states
    // as typed (hit.phrases, statedShare): 端口占用 in a keyword, where the index has only 端口 and 占用.
    { name: "words", value: (hit, options) => hit.words * (1 + options.titleWeight * titleAgreement(hit, options))
      * (1 + options.linkWeight * hit.links) * (1 + options.phraseWeight * hit.phrases), better: "more" },
    // How far the matches are from what was typed: a converted, corrected, pinyin or synonym match costs 1
    // (two edits 2), a typed one 0.
    { name: "typo", value: hit => hit.typo, better: "less" },
    // BM25F: each matched word of the query by its best-scoring term (pitfalls/pages/search_scoring.py),
    // summed: what the rules above leave equal.
    { name: "score", value: hit => hit.score, better: "more" },
  ];
  const RULE_NAMES = RULES.map(rule => rule.name);

  /* The share of the title's characters that the query's matched title terms cover, in the scripts of the query
   * and of those terms (a Chinese query is measured against the title's Chinese, an English one against its English
   * words, a query of both against both: ssh alone does not cover the title SSH 端口被防火墙拦截 of a query ssh 掉线),
   * each piece of the query counted once (the longest term it matched). An English query is measured against the
   * title's English only when the title says itself in English too, with echoLetters letters a Chinese character or
   * more (显存不足 (CUDA out of memory)); in a Chinese title with English names (容器内看不到 GPU), against all of it. */
  function titleShare(hit, options) {
    if (!hit.title) return 0;
    const taken = [];
    const covered = { han: 0, latin: 0 };
    for (const { term, span } of [...hit.title].sort((a, b) => b.term.length - a.term.length)) {
      if (taken.some(([a, b]) => span[0] < b && a < span[1])) continue;
      taken.push(span);
      covered[isHan(term) ? "han" : "latin"] += term.length;
    }
    const [han, latin] = hit.titleChars;
    const { queryScripts } = hit;
    const echo = latin >= options.echoLetters * han;
    const total = (covered.han || queryScripts.han || !echo ? han : 0) + (covered.latin || queryScripts.latin ? latin : 0);
    // a script's terms cover at most what the title has of it (a stem can be longer than the title's word)
    return total ? (Math.min(covered.han, han) + Math.min(covered.latin, latin)) / total : 0;
  }

  /* How far the entry's title and the query are the same, 0 … 1: the share of the title the query covers times the
   * share of the query (its weighed words) found in the title. Both: a short title of which the query names one
   * word (SSH of SSH 连接远程服务器频繁掉线, for a pasted ssh timeout line) is covered whole but says little of the
   * query; a title holding the query's words inside a longer story says less than one that is the query. */
  function titleAgreement(hit, options) {
    return hit.titleWords ? titleShare(hit, options) * hit.titleWords : 0;
  }

  /* The message rule's value for a query found inside an error message of the entry, `share` of that message's
   * characters: 1, and a step more for each 1 / partialMessageSteps of the message the query is, below the 2 of a
   * message found whole. A line the query is more of before one it is a small part of: `connection timed out` is 18
   * of the 44 characters of ssh's `connect to host … port 22: Connection timed out` (1.25), 18 of the 75 of nginx's
   * `upstream timed out (110: Connection timed out) while reading response header from upstream` (1). Steps, not the
   * share itself, so that the words rule still decides between lines the query is about as much of. */
  function partialMessage(share, options) {
    const steps = options.partialMessageSteps;
    return 1 + Math.min(steps - 1, Math.floor(share * steps)) / steps;
  }

  /* The share of the query in `phrases` ({text, share}: phrases whose words the index has only apart, and the share of
   * the query's weight inside each) that one of `lines` (an entry's statements of what it is about) says as typed. */
  function statedShare(phrases, lines) {
    let share = 0;
    for (const { text, share: of } of phrases) if (lines.some(line => line.includes(text))) share += of;
    return share;
  }

  /* The rules in force, less those named in `off`. */
  function rulesInForce(off) {
    return RULES.filter(rule => !off.has(rule.name));
  }

  /* Each hit's value under each rule: hit.values[name]. */
  function evaluate(hits, rules, options) {
    for (const hit of hits) {
      hit.values = {};
      for (const rule of rules) hit.values[rule.name] = rule.value(hit, options);
    }
  }

  /* Sort order: better by the first rule that differs, then the lower entry number (stable across builds). */
  function compare(rules) {
    return (a, b) => {
      for (const { name, better } of rules) {
        const d = b.values[name] - a.values[name];
        if (d) return better === "more" ? d : -d;
      }
      return a.doc - b.doc;
    };
  }

  /* The first `count` hits in `order`, best first: one pass that keeps the best so far, instead of sorting every
   * hit (thousands for a common word at 5,000 entries, each comparison walking the rules). */
  function best(hits, order, count) {
    const kept = [];
    for (const hit of hits) {
      if (kept.length === count && order(hit, kept[count - 1]) >= 0) continue;
      let at = kept.length;
      while (at > 0 && order(hit, kept[at - 1]) < 0) at--;
      kept.splice(at, 0, hit);
      if (kept.length > count) kept.pop();
    }
    return kept;
  }

  /* Why `hit` ranks where it does, after `before` (the hit above it, or null): the rule that put it there. */
  function decidingRule(before, hit, rules) {
    if (!before) return null;
    for (const { name } of rules) if (before.values[name] !== hit.values[name]) return name;
    return "order";
  }

  return { RULES, RULE_NAMES, coverage, partialMessage, statedShare, titleShare, titleAgreement, rulesInForce, evaluate, compare, best, decidingRule };
});
