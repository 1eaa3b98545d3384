/* What a query matches in each entry (docs/SEARCH.md, "Ranking"), the values ranking.js orders by: every entry a term
 * of the query occurs in, what each piece of the query weighs (its rarity) and each entry's words-rule values; the
 * error messages the query holds, found through the index and in the first entries' d/ files; the share of the query
 * those entries state as typed (its phrases). Functions of the engine (its shards as loaded, its manifest, options and
 * `tables`) and the query, as readings.js's stages are. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./analysis.js"), require("./typos.js"), require("./ranking.js"));
  } else {
    const search = root.PitfallSearch;
    search.matching = factory(search.analysis, search.typos, search.ranking);
  }
})(typeof self !== "undefined" ? self : this, function (analysis, typos, ranking) {
  "use strict";

  const { isHan, normalize, messageChars, messageIn } = analysis;
  const { coverage } = ranking;
  const STATEMENTS = new Set(["quick_fix", "symptoms"]);  // with the title, tags and keywords: what an entry says it is about
  // an English phrase: two words or more typed one space apart (letters and digits, with . _ - inside a word)
  const ENGLISH_WORD = "[a-z0-9][a-z0-9_.\\-]*";
  const ENGLISH_PHRASE = new RegExp(`${ENGLISH_WORD}(?: ${ENGLISH_WORD})+`, "g");
  const PHRASE_WORD = new RegExp(`^${ENGLISH_WORD}$`);
  // a stretch typed as it stands, symbols and all: two pieces or more of anything but Chinese, one space apart (bad
  // interpreter ^m, docker run -d), less the sentence punctuation at its ends (the reader's, not the stretch's; an
  // English phrase's full stop too: connection timed out.)
  const TYPED_STRETCH = /[^\s\p{Script=Han}]+(?: [^\s\p{Script=Han}]+)+/gu;
  const EDGE_PUNCTUATION = /^[,.;:!?，。？ ]+|[,.;:!?，。？ ]+$/g;

  /* What the index's postings say of an entry, read from the manifest once: what a match in the fields of a posting's
   * bits counts (the best of them, cached per bit set), the bits of the title, of a lone character and of a word that
   * only overlaps the entry's, and each entry's links and length. */
  function entryTables(manifest, options) {
    const fieldMatch = manifest.fields.map(([, , , match]) => match);
    const whereCache = new Map();
    // each entry's links from others on a log scale, 0 … 1 (the most linked entry 1; a site without links divides
    // 0 by log 2): a hub among many links is not ten times more general than one among few
    const linkScale = Math.log(1 + Math.max(1, ...manifest.linkedFrom));
    return {
      where(fields) {
        let found = whereCache.get(fields);
        if (found === undefined) {
          found = 0;
          for (let bit = 0; bit < fieldMatch.length; bit++) if (fields & (1 << bit)) found = Math.max(found, fieldMatch[bit]);
          whereCache.set(fields, found);
        }
        return found;
      },
      titleBit: 1 << manifest.fields.findIndex(([name]) => name === "title"),
      aloneBit: 1 << manifest.aloneBit,
      overlapBit: 1 << manifest.overlapBit,
      linkShare: manifest.linkedFrom.map(n => Math.log(1 + n) / linkScale),
      // each entry's length over the average's (BM25's length normalisation, for the words rule's body matches)
      lengthShare: manifest.lengths.map(percent => Math.max(percent / 100, options.minLengthShare)),
    };
  }

  /* Every entry a term of the query occurs in: Map doc → hit (see ranking.js). */
  function collect(engine, query) {
    const { tables } = engine;
    const hits = new Map();
    const atLeast = new Map();  // unit → how many entries match it {whole, at all} at least, by the index's counts
    query.common = [];  // the words of synonym phrases not read, as too common ({term, entries}), for explain
    query.commonCharacters = [];  // the lone characters not weighed, as too common (weigh), for explain
    const [hanShift, latinShift] = engine.manifest.titleCharsShift;
    for (const [term, info] of query.terms) {
      const list = engine.postings(term);
      if (!list) continue;
      // a word of a synonym phrase of several that is in many entries (train of resume training, for 断点续训) is in
      // them for other reasons, as a common lone character is: it stands for nothing
      const entries = engine.entriesWith(term, list);
      if (info.phraseWord && entries > engine.options.maxPhraseWordShare * engine.manifest.docs) {
        query.common.push({ term, entries });
        continue;
      }
      // what a unit's rarity counts is at least the entries of each of its terms (the postings of a common term are
      // capped, its count is not): whole, those of a term spanning all of it; at all, each for the share it spans
      const spansWhole = new Set();
      const partSpans = new Map(info.units.map(unit => [unit, query.partSpan(term, unit)]));  // once a term, not a posting
      for (const unit of info.units) {
        const share = coverage(query.spans.get(unit), [{ span: partSpans.get(unit), match: 1 }]);
        const whole = share === 1;
        if (whole) spansWhole.add(unit);
        const least = atLeast.get(unit) || { whole: 0, any: 0 };
        atLeast.set(unit, { whole: Math.max(least.whole, whole ? entries : 0), any: Math.max(least.any, entries * share) });
      }
      // a Chinese term found only inside the entry's words is likely another word's piece: a lone character that
      // no word of the entry is (爆 of 显存爆了 in 梯度爆炸), a word that only overlaps the entry's (定性 of 确定性 in
      // 稳定性, whose words are 稳定 and 性); it counts insideWordMatch of a match
      const han = isHan(term), character = han && term.length === 1;
      for (let k = 0; k < list.length; k += 3) {
        const doc = list[k], flags = list[k + 2], fields = flags & ((1 << hanShift) - 1);
        let hit = hits.get(doc);
        // few allocations a hit: a common character brings thousands of them, and collecting them was mostly
        // garbage collection (`matched`, for the page, is read for the first few only: markMatched)
        if (!hit) hits.set(doc, hit = { doc, units: new Map(), flags: 0, title: null, titleChars: null, links: tables.linkShare[doc] });
        hit.flags |= fields;
        const inside = character ? !(flags & tables.aloneBit) : han && (flags & tables.overlapBit);
        const where = tables.where(fields);
        // a word only in the body says less of a long entry than of a short one, which says less besides it (BM25)
        const b = where <= engine.options.bodyMatch ? engine.options.bodyLength : 0;
        const match = where * info.weight * (inside ? engine.options.insideWordMatch : 1) / (1 - b + b * tables.lengthShare[doc]);
        const score = list[k + 1] / engine.manifest.scoreScale;
        for (const name of info.units) {
          // a unit's matched parts; `whole`: a term spanning all of it is among them (its rarity, weigh)
          const unit = hit.units.get(name);
          const span = partSpans.get(name);
          if (!unit) hit.units.set(name, { parts: [{ span, match }], penalty: info.penalty, score, whole: spansWhole.has(name) });
          else {
            unit.whole = unit.whole || spansWhole.has(name);
            // terms of one span (a synonym group's) are one part, at the best match
            const same = unit.parts.find(part => part.span === span);
            if (same) same.match = Math.max(same.match, match);
            else unit.parts.push({ span, match });
            unit.penalty = Math.min(unit.penalty, info.penalty);
            unit.score = Math.max(unit.score, score);
          }
        }
        if (fields & tables.titleBit) {
          (hit.title || (hit.title = [])).push({ term, span: info.span });
          hit.titleChars = [(flags >> hanShift) & 0xff, (flags >> latinShift) & 0xff];
        }
      }
    }
    weigh(engine, query, hits, atLeast);
    return hits;
  }

  /* Each unit's weight in the words rule: its rarity, log(1 + N / n) for n of the N entries matching it whole, or in
   * part where none does (below; a word in few entries says more about which one is meant than one in many; n is at
   * least rarityFloor × N, as the rarest words of a query are often its accidents: 一半 in 训练跑一半就断了), half for
   * a lone Chinese character (it may belong to another word in the entry: 爆 in 梯度爆炸), nothing for one in more
   * than maxCharacterShare of the entries (了, 不) unless the query has nothing else to weigh. Then each hit's values
   * for ranking.js. */
  function weigh(engine, query, hits, atLeast) {
    // unit → how many entries match it whole (one term, in any reading, spanning all of it) and how many at all, each
    // counted for the share of it that it matches (an entry with nvidia alone counts half for nvidia-smi). A word of
    // the query is as rare as its whole is: 显存不足 is in few entries, though 显存 and 不足 are each in many; its
    // parts say how rare it is only where no entry has the whole (顯示卡記憶體不足, a run that no entry says)
    const matching = new Map();
    const count = (found, unit) => {
      let counted = matching.get(unit);
      if (!counted) matching.set(unit, counted = { whole: 0, any: 0 });
      counted.any += coverage(query.spans.get(unit), found.parts, true);
      if (found.whole) counted.whole++;
    };
    for (const hit of hits.values()) hit.units.forEach(count);
    query.weights = new Map();
    query.entries = new Map();  // unit → the n of its rarity (explain: how many entries match it)
    const common = [];  // [unit, weight, entries] of the lone characters in more than maxCharacterShare of the entries
    for (const unit of query.units()) {  // in the query's order, so that equal matches sum to equal values
      const found = matching.get(unit), least = atLeast.get(unit);
      if (!found) continue;
      const n = Math.max(found.whole, least.whole) || Math.max(found.any, least.any);
      query.entries.set(unit, n);
      const character = query.characters.has(unit);
      const rarity = Math.log(1 + engine.manifest.docs / Math.max(n, engine.options.rarityFloor * engine.manifest.docs));
      if (character && n > engine.options.maxCharacterShare * engine.manifest.docs) common.push([unit, rarity * engine.options.characterWeight, n]);
      else query.weights.set(unit, rarity * (character ? engine.options.characterWeight : 1));
    }
    // a query of common characters only (卡 or 装 typed alone, on the way to 卡死 or 安装) is about them: weighed,
    // the entries that have one in the title come first, rather than every entry that has one at 0 in no order
    if (!query.weights.size) for (const [unit, weight] of common) query.weights.set(unit, weight);
    else query.commonCharacters = common.map(([term, , entries]) => ({ term, entries }));  // for explain
    // above 0 once an entry matched: each unit an entry matches is weighed, a common character when nothing else is
    const total = query.totalWeight = [...query.weights.values()].reduce((a, b) => a + b, 0);  // phrases() reads it too
    // the scripts of the query: Chinese when Chinese other than filler was typed, whether it matched or not (loss飞了:
    // 飞 matches nothing, yet a title that is Chinese but for loss is not the query's), English when a weighed piece
    // is: the words rule measures a title in these (ranking.js titleShare)
    const weighed = [...query.weights.keys()];
    const queryScripts = { han: query.typedHan, latin: !weighed.every(isHan) };
    // a lone character says the title is the query only in a query of characters: beside a word, it may sit inside
    // another word of the title (爆 of 显存爆掉 for 显卡爆了), as the words value discounts it (characterWeight)
    const titleCharacters = weighed.every(unit => query.characters.has(unit));
    // each weighed unit once, not for each of the thousands of entries a common word reaches
    const units = [...query.weights].map(([unit, weight]) => ({ unit, weight, within: query.spans.get(unit),
      inTitle: titleCharacters || !query.characters.has(unit) }));
    for (const hit of hits.values()) {
      hit.queryScripts = queryScripts;
      hit.words = hit.titleWords = hit.typo = hit.score = hit.phrases = 0;
      for (const { unit, weight, within, inTitle } of units) {
        const found = hit.units.get(unit);
        if (!found) continue;
        found.match = coverage(within, found.parts);
        hit.words += weight * found.match;
        // the share of the unit the title has, however it was read there (the words rule weighs the reading)
        if (hit.title && inTitle) {
          const parts = [];
          for (const { term } of hit.title)
            if (query.terms.get(term).units.includes(unit)) parts.push({ span: query.partSpan(term, unit), match: 1 });
          hit.titleWords += weight * coverage(within, parts);
        }
        hit.typo += found.penalty;
        hit.score += found.score;
      }
      hit.words /= total;
      hit.titleWords /= total;
    }
  }

  /* hit.message = 2 for the entries of `hits` with an error message found whole in the query's message key `key`,
   * through the index: each message is listed under its rarest word, in that word's shard (since index format 6), so
   * an entry the other rules leave below the first maxResults is still found by the message a paste names. */
  function indexedMessages(engine, terms, key, hits) {
    for (const term of new Set(terms)) {
      const { messages } = engine.shard(term);
      if (!Object.hasOwn(messages, term)) continue;
      const listed = messages[term];
      for (let k = 0; k < listed.length; k += 2) {
        const hit = hits.get(listed[k]);
        if (hit && holdsMessage(engine, key, listed[k + 1])) hit.message = 2;
      }
    }
  }

  /* Whether the query's message key `key` holds the error message `message` whole: its runs in order, and long enough
   * (minMessageChars, the spaces between its runs not counted) not to be found by accident. */
  function holdsMessage(engine, key, message) {
    return messageChars(message) >= engine.options.minMessageChars && messageIn(key, message);
  }

  /* The message rule's and the phrase rule's values of a hit of the first maxResults, from its d/ file (`hit.data`):
   * hit.message 2 for a message the query's message key `key` holds whole, else a share for a message holding the
   * key (ranking.partialMessage), or holding it within `edits` edits where the query had misspelt words
   * (readings.correctedEdits: `conection timed out` is the ssh message's), hit.foundMessage the one found (for
   * explain), hit.phrases the share of the query in `phrases` that the entry's statements say as typed. */
  function readEntryFile(engine, hit, key, phrases, edits = 0) {
    const whole = hit.data.messages.find(m => holdsMessage(engine, key, m));
    // a message's runs are apart where its text varies: the key is inside one
    const holdsKey = m => m.includes(key)
      || (edits > 0 && m.split(" ").some(run => typos.editDistance(key, run, edits, true) <= edits));
    // of the messages holding the query, the shortest: the one the query is most of
    const part = key.length >= engine.options.minPartialChars ? hit.data.messages.filter(holdsKey)
      .sort((a, b) => messageChars(a) - messageChars(b))[0] : undefined;
    hit.message = whole ? 2 : part ? ranking.partialMessage(key.length / messageChars(part), engine.options) : 0;
    hit.foundMessage = whole || part || null;  // for explain
    hit.phrases = ranking.statedShare(phrases, statements(engine, hit.data));
  }

  /* The phrases of the query whose words the index has only apart: each Chinese word typed alone (a run between
   * spaces, punctuation or letters, at most maxPhraseChars long, no filler in it) that is neither its term nor the
   * vocabulary's (jieba cut 端口占用 into 端口 and 占用 in every entry), each English stretch of two words or more
   * (connection timed out), and each stretch typed with symbols between its words (bad interpreter ^m); each with the
   * share of the query's weight inside it: {text, share} for ranking.statedShare (read for the entries found, so some
   * piece of the query is weighed). */
  function phrases(engine, query) {
    const total = query.totalWeight;  // summed by weigh
    const share = (start, text) => {
      let inside = 0;
      for (const [unit, weight] of query.weights) {
        const [from, to] = query.spans.get(unit);
        if (from >= start && to <= start + text.length) inside += weight;
      }
      return { text, share: inside / total };
    };
    const chinese = query.runs.filter(({ text }) =>
      text.length <= engine.options.maxPhraseChars && !engine.filler(text).length && !engine.knows(text));
    // a stretch with symbols the English phrase leaves out (^m, -d, --user, (publickey)): stated verbatim, its share
    // counts again, on top of its words' phrase, as an exact form counts before a looser one (the entry that says
    // `bad interpreter ^M` before one that says `bad interpreter:`)
    const typed = [];
    for (const m of query.text.matchAll(TYPED_STRETCH)) {
      const text = m[0].replace(EDGE_PUNCTUATION, ""), pieces = text.split(" ");
      if (pieces.length > 1 && !pieces.every(piece => PHRASE_WORD.test(piece))) typed.push(share(m.index + m[0].indexOf(text), text));
    }
    return [...chinese.map(({ start, text }) => share(start, text)),
      ...[...query.text.matchAll(ENGLISH_PHRASE)].map(m => share(m.index, m[0].replace(EDGE_PUNCTUATION, ""))), ...typed];
  }

  /* What an entry says it is about, from its d/ file, as the query is read (normalize): its title, tags, keywords,
   * quick fix and symptoms. */
  function statements(engine, data) {
    const { fields } = engine.manifest;
    return [data.title, ...data.tags, ...data.keywords,
      ...data.sections.filter(([bit]) => STATEMENTS.has(fields[bit][0])).flatMap(([, lines]) => lines)].map(normalize);
  }

  return { entryTables, collect, indexedMessages, readEntryFile, phrases };
});
