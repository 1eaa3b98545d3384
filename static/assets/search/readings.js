/* The ways of reading a query beyond its typed words (docs/SEARCH.md, "Query", steps 5 and 6): traditional and
 * regional forms, the parts of a name with digits, corrections of misspelt words, the word being typed, pinyin,
 * synonyms. Each is a row of STAGES, its hooks functions of the engine (engine.js: the index files it has fetched,
 * the options) and the query. */
(function (root, factory) {
  if (typeof module === "object" && module.exports)
    module.exports = factory(require("./analysis.js"), require("./query.js"), require("./pinyin.js"), require("./typos.js"));
  else {
    const search = root.PitfallSearch;
    search.readings = factory(search.analysis, search.query, search.pinyin, search.typos);
  }
})(typeof self !== "undefined" ? self : this, function (analysis, queryModule, pinyin, typos) {
  "use strict";

  const { nameParts, stem, shardOf, isHan } = analysis;
  const { nested } = queryModule;

  /* The ways of reading a query beyond its typed words, in one table: name → hooks, each switched off by
   * naming it in `off`. `piece(engine, piece)`: what a Chinese piece stands for besides itself;
   * `prefetch(engine, query)`: the files the stage needs, fetched with the term shards (not a round trip
   * after them); `ask(engine, query)`: the files it may need, asked for with them but not waited for (its `read` waits
   * if it needs them); `read(engine, query)`: [[term, reading]] to add. Phase 1 reads what was typed; phase 2
   * (synonyms) reads what phase 1 found. */
  const STAGES = [
    ["variants", { phase: 1, piece: variants }],
    ["reorders", { phase: 1, read: readReorders }],
    ["parts", { phase: 1, prefetch: partShards, read: readParts }],
    ["typos", { phase: 1, ask: typoLists, read: readTypos }],
    ["completions", { phase: 1, prefetch: completionFiles, read: readCompletions }],
    ["pinyin", { phase: 1, prefetch: pinyinShards, read: readPinyin }],
    ["synonyms", { phase: 2, read: readSynonyms }],
  ];
  const STAGE_NAMES = STAGES.map(([name]) => name);

  /* The terms of the synonym groups that a phrase of the query's text may bring in (its terms are words typed
   * or pieces of its Chinese, or a Chinese word of one phrase typed in the other order: reorders), fetched with the
   * first shards: the synonyms stage then needs no round trip. */
  function likelySynonyms(engine, query) {
    const words = new Set(query.words.map(w => stem(w.text)));
    const inRun = text => query.runs.some(run => run.text.includes(text));
    const reordered = term => engine.stages.has("reorders") && isHan(term)
      && [...term].some((_, k) => inRun(term.slice(k) + term.slice(0, k)));
    const typed = term => words.has(term) || inRun(term);
    return groupTerms(engine, phrase => phrase.every(typed) || (phrase.length === 1 && reordered(phrase[0])));
  }

  /* The terms of the synonym groups with a phrase `brings` says the query may bring in, to fetch their shards ahead of
   * the synonyms stage (none with that stage off, nor a term no entry has, which has no shard). */
  function groupTerms(engine, brings) {
    if (!engine.stages.has("synonyms")) return [];
    return engine.manifest.synonyms.filter(group => group.some(phrase => phrase.length && brings(phrase))).flat(2)
      .filter(term => !engine.absentTerms.has(term));
  }

  /* The index terms a traditional or regional form of Chinese stands for (the t/ shard lists them). */
  function variants(engine, piece) {
    const { variants } = engine.shard(piece);
    return Object.hasOwn(variants, piece) ? variants[piece].map(term => [term, "variant"]) : [];
  }

  /* Two Chinese words typed next to each other, read in the other order as the word they make there when the index
   * or the vocabulary has it: Chinese says 爆显存 (verb, object) as 显存爆了 (topic, then what befell it). Read from
   * the words as typed or converted (顯存 is 显存; the other stages' readings are added after all of a phase have
   * read), each a whole piece of the query (不足 of 显存不足 makes no word with the next); the word stands for both.
   * Known by the vocabulary or by a shard already fetched, never by one fetched for it: a typed pair's shard is its
   * typed characters', fetched first; a converted pair's is not, and fetching it here cost a round trip before the
   * synonyms' (one in 16 of the Chinese queries at 172 entries). */
  function readReorders(engine, query) {
    // Chinese only: a word of English and Chinese is no term
    const whole = [...query.terms].filter(([term, t]) => isHan(term) && query.spans.get(t.units[0]).join() === t.span.join());
    const pairs = whole.flatMap(([first, a]) => whole.filter(([, b]) => b.span[0] === a.span[1])
      .map(([second, b]) => [second + first, a, b]));
    return pairs.filter(([word]) => engine.knows(word)).map(([word, a, b]) => [word, {
      units: [a.units[0], b.units[0]], span: [a.span[0], b.span[1]], surface: null,
      ...engine.reading("reorder", 1, Math.max(a.penalty, b.penalty)),
    }]);
  }

  /* The query's words that the index does not know (nor a stage reads as a Chinese term). */
  function unknownWords(engine, query) {
    const seen = new Set();
    return query.words.filter(w => !seen.has(w.text) && seen.add(w.text) && !engine.stopwords.has(w.text)
      && !engine.meanings(stem(w.text)).length);
  }

  /* Prefetch: the shards of the parts of every name with digits typed, with the term shards, which tell whether the
   * index has the name whole: a name it lacks is then read by its parts without a round trip of its own. */
  function partShards(engine, query) {
    return engine.loadShards(query.words.flatMap(w => nameParts(w.text)));
  }

  /* A name with digits the index lacks, by its parts: opset14 → opset, 14; not the name being typed where it begins
   * index terms (fail2b is fail2ban half typed, not fail, 2 and b). */
  async function readParts(engine, query) {
    const parts = unknownWords(engine, query).flatMap(word => nameParts(word.text).map(part => [word, part]));
    const completing = await completingWords(engine, query);
    return parts.filter(([word, part]) => engine.postings(part) && !beingTyped(completing, word)).map(([word, part]) => [part, {
      units: [word.unit], span: [word.start, word.start + word.text.length], surface: word.text,
      ...engine.reading("parts"),
    }]);
  }

  /* The unknown words not read as pinyin of an index term (pipei of banben bu pipei is 匹配, not a misspelt pipe). */
  function unreadWords(engine, query) {
    const read = pinyinReadings(engine, query).map(([, span]) => span);
    return unknownWords(engine, query).filter(w => !read.some(([a, b]) => a <= w.start && w.start + w.text.length <= b));
  }

  /* The words that may be misspelt: unread ones of letters, long enough, the first maxCorrectedWords (the word being
   * typed, last, is among them only when the others are fewer). */
  function misspeltWords(engine, query) {
    return unreadWords(engine, query).filter(w => /^[a-z]+$/.test(w.text) && w.text.length >= engine.options.typoMinChars[1])
      .slice(0, engine.options.maxCorrectedWords);
  }

  /* How many of the entries that match the query's words other than `unit` each of `terms` is in (their shards
   * fetched): a reading of the unit that agrees with the rest of the query. */
  function agreement(engine, query, unit, terms) {
    const others = new Set();
    for (const [term, info] of query.terms)
      if (!info.units.includes(unit)) for (const doc of docs(engine, term)) others.add(doc);
    return new Map(terms.map(term => [term, docs(engine, term).filter(doc => others.has(doc)).length]));
  }

  /* The w/ files of the terms a misspelt `word` may stand for: those of about its stem's length (`priority`: the
   * fetch's, engine.js file). */
  function wordListFiles(engine, word, limit, priority) {
    const length = stem(word).length;
    const lengths = engine.manifest.wordLengths.filter(n => Math.abs(n - length) <= limit);
    return Promise.all(lengths.map(n => engine.file(`w/${n}.json`, priority)));
  }

  /* Their terms, in one list. */
  function wordLists(engine, word, limit) {
    return wordListFiles(engine, word, limit).then(lists => lists.flat());
  }

  /* Asked for with the term shards: the w/ files of every word of letters that may be misspelt (the index is not
   * asked yet), not waited for, as most words are spelt right, and after the files the query waits for (low
   * priority): over HTTP/1.1's six connections a page's wave of more than six files takes two rounds, and these would
   * hold the term shards and the c/ file to the second. A misspelt word's corrections wait for the same requests. */
  function typoLists(engine, query) {
    for (const word of query.letterWords().filter(w => w.text.length >= engine.options.typoMinChars[1]))
      wordListFiles(engine, word.text, typos.editLimit(word.text, engine.options.typoMinChars), "low").catch(() => {});
  }

  /* Misspelt words: the index terms within the edit limit that agree with the rest of the query (typos.js); not the
   * word being typed where it begins index terms (checkp is checkpoint half typed, not check misspelt), whose
   * completions are fetched beside the corrections' shards, not before them. */
  async function readTypos(engine, query) {
    const [misspelt, completing] = await Promise.all([typoCandidates(engine, query), completingWords(engine, query)]);
    const words = misspelt.filter(([word]) => !beingTyped(completing, word));
    const found = [];
    for (const [word, candidates] of words) {
      const agreeing = agreement(engine, query, word.unit, candidates.map(([term]) => term));
      for (const [term, distance] of typos.chooseCorrections(candidates, agreeing, engine.options.maxCorrections))
        found.push([term, { units: [word.unit], span: [word.start, word.start + word.text.length],
          ...engine.reading(`typo${distance}`) }]);
    }
    return found;
  }

  /* How many edits the words the typos stage corrected may be off by in all, each its edit limit: what the message
   * rule allows a misspelt query's message key (matching.readEntryFile); 0 when none was corrected. */
  function correctedEdits(engine, query) {
    const corrected = new Set([...query.terms.values()].filter(t => t.reading.startsWith("typo")).flatMap(t => t.units));
    const words = new Map(query.words.filter(w => corrected.has(w.unit)).map(w => [w.unit, w.text]));
    return [...words.values()].reduce((sum, text) => sum + typos.editLimit(text, engine.options.typoMinChars), 0);
  }

  /* Each word that may be misspelt with the index terms within its edit limit, the nearest maxCandidates, their shards
   * fetched: [[word, [[term, distance]]]]. The shards of the synonyms a candidate would bring are asked for with them
   * and waited for with the query's last fetch: not a round trip after the corrections' (dirver: driver, then 驱动). */
  async function typoCandidates(engine, query) {
    const words = await Promise.all(misspeltWords(engine, query).map(async word => {
      const limit = typos.editLimit(word.text, engine.options.typoMinChars);
      const candidates = typos.withinEdits(stem(word.text), await wordLists(engine, word.text, limit), limit);
      return [word, candidates.slice(0, engine.options.maxCandidates)];
    }));
    const terms = words.flatMap(([, candidates]) => candidates.map(([term]) => term));
    engine.askShards(synonymsOf(engine, query, terms));
    await engine.loadShards(terms);
    return words;
  }

  /* The terms of the synonym groups with a phrase that `corrections` complete, alone or with the query's typed words
   * (memori of out of memroy): what the synonyms stage reads if one of them is taken. */
  function synonymsOf(engine, query, corrections) {
    const candidate = new Set(corrections), typed = new Set(query.words.map(w => stem(w.text)));
    return groupTerms(engine, phrase => phrase.some(t => candidate.has(t)) && phrase.every(t => candidate.has(t) || typed.has(t)));
  }

  /* What is being typed where it begins index terms (completionCandidates): read as those terms, so its words are
   * neither misspelt nor names by their parts. */
  async function completingWords(engine, query) {
    const completions = await completionCandidates(engine, query);
    return completions.filter(([, candidates]) => candidates.length).map(([word]) => word);
  }

  /* Whether `word` is of what is being typed (`completing`), which ends the query: a word from its start on is. */
  function beingTyped(completing, word) {
    return completing.some(({ start }) => start <= word.start);
  }

  /* The query's last word, when nothing but spaces follows it (Material trims the query: node reads it as the browser
   * does), from a letter (a query word is letters and digits), minCompletionChars or more, and not filler: a word
   * Material's search at every key may be asking on the way to a longer one. {text, start, end, unit}, else null. */
  function lastWord(engine, query) {
    const last = query.words[query.words.length - 1];
    if (!last || last.start + last.text.length !== query.text.trimEnd().length) return null;
    if (!/^[a-z]/.test(last.text) || last.text.length < engine.options.minCompletionChars) return null;
    return engine.stopwords.has(last.text) ? null : { ...last, end: last.start + last.text.length };
  }

  /* The word being typed: the last word, unread (no term, nor pinyin); else null. */
  function typingWord(engine, query) {
    const last = lastWord(engine, query);
    return last && unreadWords(engine, query).some(w => w.text === last.text) ? last : null;
  }

  /* The last word when it is a term of the index: whole, or the start of a longer term (ser of server, mem of memory,
   * cli of clip); read as typed, and as the terms it begins too. Else null. */
  function typingTerm(engine, query) {
    const last = lastWord(engine, query);
    return last && engine.meanings(stem(last.text)).length ? last : null;
  }

  /* Prefetch: the c/ files of the last word and the last identifier (by their first minCompletionChars characters), with
   * the term shards, which tell whether either is being typed; a completion's shards are then one round trip after
   * them, not two. */
  function completionFiles(engine, query) {
    const last = lastWord(engine, query), identifier = lastIdentifier(query);
    const keys = new Set([last && last.text, identifier && identifier.term].filter(Boolean)
      .map(text => text.slice(0, engine.options.minCompletionChars)));
    return Promise.all([...keys].map(key => engine.file(`c/${shardOf(key, engine.manifest.completionShards)}.json`)));
  }

  // the query's last letters after syllables set apart by apostrophes, pinyin's syllable mark
  const MARKED_SYLLABLES = /(?:[a-z]+')+[a-z]+$/;

  /* The pinyin being typed: the query's last letters joined to the syllables before them by apostrophes, as input
   * methods show a word being composed (xian'c on the way to 显存; a space the reader types is a word break, the
   * apostrophe is not), {text: the letters, start, end, unit}, when the letters before the last apostrophe read wholly
   * as syllables (can't is no pinyin), the last are no pinyin reading's end (xian'cun is read whole) and the letters
   * are minCompletionChars or more; else null (the word being typed is then read as pinyin too). */
  function typingPinyin(engine, query) {
    const marked = MARKED_SYLLABLES.exec(query.text.trimEnd());
    if (!marked) return null;
    const parts = marked[0].split("'"), text = parts.join(""), end = marked.index + marked[0].length;
    const begun = text.length >= engine.options.minCompletionChars
      && parts.slice(0, -1).every(part => pinyin.readsWhole(part, engine.syllables))
      && !pinyinReadings(engine, query).some(([, span]) => span[1] === end);
    return begun ? { text, start: marked.index, end, unit: text } : null;
  }

  /* The identifier being typed: the query's last identifier (nvidia-sm on the way to nvidia-smi, pytorch_cuda_al),
   * when nothing but spaces follows it and the index has it in no form (nor joined: timeout of time-out), as a word
   * being typed is one the index does not know: {text: its term, start, end, unit, units}; else null. Its completions
   * stand for its last word too: sm of nvidia-sm is smi half typed more than it is the word sm (of sm_89). */
  function typingIdentifier(engine, query) {
    const last = lastIdentifier(query);
    if (!last || query.compounds.some(c => c.unit === last.term && engine.postings(c.term))) return null;
    const part = query.words.find(w => w.start + w.text.length === last.end);  // (a letter alone is no word: nvidia-s)
    return { text: last.term, start: last.start, end: last.end, unit: last.term, units: [last.term, ...(part ? [part.unit] : [])] };
  }

  /* The identifier that ends the query, nothing but spaces after it, whole ({term, unit, start, end} of compounds(),
   * which lists an identifier before its joined word and its dotted parts); else undefined. */
  function lastIdentifier(query) {
    const end = query.text.trimEnd().length;
    return query.compounds.find(c => c.end === end);
  }

  /* What is being typed and the index terms it begins: [[word, candidates]], English (the word being typed), Chinese
   * (the pinyin being typed), identifiers (the identifier being typed) and the last word the index has (which may be
   * one begun too), each at most maxCandidates, their shards fetched; [] when nothing is being typed or the stage is
   * off. A candidate's shard is fetched only for a last word or identifier that begins longer terms (its c/ file comes
   * with the term shards: completionFiles). Asked by the typos and parts stages too, so they are found once a query. */
  function completionCandidates(engine, query) {
    if (!query.completionCandidates) query.completionCandidates = (async () => {
      if (!engine.stages.has("completions")) return [];
      const typing = typingWord(engine, query), spoken = typingPinyin(engine, query) || typing;
      const english = typing || typingTerm(engine, query);
      const identifier = typingIdentifier(engine, query);
      const pools = await Promise.all([english && englishCompletions(engine, english).then(found => [english, found]),
        spoken && pinyinCompletions(engine, spoken).then(found => [spoken, found]),
        identifier && englishCompletions(engine, identifier).then(found => [identifier, found])]);
      await engine.loadShards(pools.filter(Boolean).flatMap(([, found]) => found));
      return pools.filter(Boolean);
    })();
    return query.completionCandidates;
  }

  /* The English terms the word begins, words for a word and identifiers for an identifier, the maxCandidates in the
   * most entries (the c/ file's order). */
  async function englishCompletions(engine, word) {
    const key = word.text.slice(0, engine.options.minCompletionChars), identifier = word.text.includes("_");
    const listed = await engine.file(`c/${shardOf(key, engine.manifest.completionShards)}.json`);
    // longer than the word: a term that is the word itself is no completion of it (the index has clos, the stem of
    // close, and a typed clos is read by its own stem, clo: unknown, yet listed)
    return (Object.hasOwn(listed, key) ? listed[key] : []).filter(term => term.length > word.text.length
      && term.startsWith(word.text) && term.includes("_") === identifier).slice(0, engine.options.maxCandidates);
  }

  /* The Chinese terms whose pinyin the word begins, its last syllable half typed (xianc: 显存, 线程 …): from the p/
   * shards of the syllables it may start with, the terms of the shortest readings first (then alphabetical); at most
   * maxCandidates. A word with digits starts with no syllable: none. */
  async function pinyinCompletions(engine, word) {
    if (!engine.stages.has("pinyin")) return [];
    const firsts = pinyin.halfTypedFirsts(word.text, engine.syllables);
    const numbers = [...new Set(firsts.map(first => shardOf(first, engine.manifest.pinyinShards)))];
    const shards = await Promise.all(numbers.map(n => engine.file(`p/${n}.json`)));
    // reading → its terms; none is the word itself: a reading of it would have made it no word being typed
    const readings = new Map(shards.flatMap(shard => Object.entries(shard).filter(([key]) => key.startsWith(word.text))));
    const keys = [...readings.keys()].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    // a synonym's term no entry has is read by pinyin too, but matches nothing: not a candidate
    return [...new Set(keys.flatMap(key => readings.get(key)))].filter(term => !engine.absentTerms.has(term))
      .slice(0, engine.options.maxCandidates);
  }

  /* The word being typed, read as the index terms it begins (nvid: nvidia; xianc: 显存), as Meilisearch and Algolia
   * read a query's last word as a prefix: of the English candidates and of the Chinese, those that agree with the rest
   * of the query (as a correction does), else those in the most entries; at most maxCorrections of each. */
  async function readCompletions(engine, query) {
    const entries = term => engine.entriesWith(term, engine.postings(term) || []);
    return (await completionCandidates(engine, query)).flatMap(([word, candidates]) => {
      const agreeing = agreement(engine, query, word.unit, candidates);
      const frequent = [...candidates].sort((a, b) => entries(b) - entries(a));  // stable: the pool's order on ties
      return typos.chooseCorrections(frequent.map(term => [term, 0]), agreeing, engine.options.maxCorrections)
        .map(([term]) => [term, { units: word.units || [word.unit], span: [word.start, word.end], ...engine.reading("completion") }]);
    });
  }

  function docs(engine, term) {
    const list = engine.postings(term) || [];
    const docs = [];
    for (let k = 0; k < list.length; k += 3) docs.push(list[k]);
    return docs;
  }

  function pinyinSpans(engine, query) {
    if (!query.pinyin)
      query.pinyin = pinyin.pinyinSpans(query.letterWords(), engine.syllables, engine.manifest.maxTermChars);
    return query.pinyin;
  }

  /* Prefetch: Map shard number → p/ shard, for the first syllables of the query's pinyin spans. */
  async function pinyinShards(engine, query) {
    const numbers = [...new Set(pinyinSpans(engine, query).map(s => shardOf(s.first, engine.manifest.pinyinShards)))];
    query.pinyinShards = new Map(await Promise.all(numbers.map(async n => [n, await engine.file(`p/${n}.json`)])));
  }

  /* The stretches of the query that read as the pinyin of index terms, [key, span, terms], by the p/ shards fetched
   * with the first shards (none when the pinyin stage is off or has not fetched them yet). */
  function pinyinReadings(engine, query) {
    if (!query.pinyinShards) return [];
    const readings = [];
    for (const { key, first, span } of pinyinSpans(engine, query)) {
      const shard = query.pinyinShards.get(shardOf(first, engine.manifest.pinyinShards));
      if (Object.hasOwn(shard, key)) readings.push([key, span, shard[key]]);
    }
    return readings;
  }

  /* Letters read as pinyin: the Chinese terms (of 2+ characters) the index has for each span (the p/ shard lists
   * them). Their t/ shards are asked for now, with the phase's other fetches, and waited for with the query's last
   * fetch, with the shards of the synonyms they bring: not a round trip before those. */
  function readPinyin(engine, query) {
    const readings = pinyinReadings(engine, query);
    engine.askShards(readings.flatMap(([, , terms]) => terms));
    // A reading stands for the longest stretch read that contains it (xiancun in xiancunbuzu, which it covers in
    // part); a stretch that is exactly one typed word stands for that word, the same piece of the query.
    const wordAt = new Map(query.words.map(w => [`${w.start} ${w.start + w.text.length}`, w.unit]));
    const outer = new Map(nested(readings.map(([, span]) => span)).map(([span, wide]) => [span.join(" "), wide]));
    return readings.flatMap(([key, span, terms]) => {
      const wide = outer.get(span.join(" "));
      const unit = wordAt.get(wide.join(" ")) || readings.find(([, s]) => s[0] === wide[0] && s[1] === wide[1])[0];
      return terms.map(term => [term, { units: [unit], span, within: wide, surface: term, ...engine.reading("pinyin") }]);
    });
  }

  /* A synonym group whose phrase is wholly in the query (typed or read) adds its other phrases' terms, weighed
   * by what matched and costing one more than it in the typo rule. */
  function readSynonyms(engine, query) {
    const found = [];
    for (const group of engine.manifest.synonyms) {
      const hit = group.find(phrase => phrase.length && phrase.every(t => query.terms.has(t)));
      if (!hit) continue;
      const matched = hit.map(t => query.terms.get(t));
      const span = [Math.min(...matched.map(m => m.span[0])), Math.max(...matched.map(m => m.span[1]))];
      const reading = engine.reading("synonym", Math.min(...matched.map(m => m.weight)), Math.max(...matched.map(m => m.penalty)));
      const units = [...new Set(matched.flatMap(m => m.units))];
      // the words of a phrase each stand for their share of what matched, in each unit matched: `gradient` alone is not
      // `gradient checkpointing`, typed as one word (梯度检查点) or as two (gradient checkpoint, for 梯度 检查点)
      const slice = ([a, b], i, of) => [a + i * (b - a) / of, a + (i + 1) * (b - a) / of];
      const inUnit = unit => { const [a, b] = query.spans.get(unit); return [Math.max(a, span[0]), Math.min(b, span[1])]; };
      for (const phrase of group)
        phrase.forEach((term, i) => {
          if (query.terms.has(term) || engine.absentTerms.has(term)) return;
          const unitSpans = new Map(units.map(unit => [unit, slice(inUnit(unit), i, phrase.length)]));
          found.push([term, { units, span: slice(span, i, phrase.length), within: span, unitSpans, ...reading,
            phraseWord: phrase.length > 1 }]);
        });
    }
    return found;
  }

  return { STAGES, STAGE_NAMES, likelySynonyms, wordLists, correctedEdits };
});
