/* The site search engine (docs/SEARCH.md): reads a query, fetches the index files it needs (written by
 * pitfalls/pages/search_index.py), ranks the entries by the rules of ranking.js and builds Material's
 * result items. The same files run in the browser (worker.js) and under node (`pitfalls search`), so both
 * rank alike. The work is done by its modules; this one orchestrates:
 *   options.js   every weight and threshold       analysis.js  text analysis, as pitfalls/text.py
 *   query.js     what a query is made of          pinyin.js    letters read as pinyin
 *   typos.js     corrections of misspelt words    readings.js  the reading stages, one table
 *   matching.js  what a query matches, weighed    ranking.js   the ranking rules
 *   results.js   Material's result items
 * Chinese queries are cut without jieba: every substring of a Chinese run that is an index term, a synonym
 * or a traditional/regional form of a term counts, minus filler words; characters no word covers count alone.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./options.js"), require("./analysis.js"), require("./query.js"), require("./pinyin.js"),
      require("./typos.js"), require("./readings.js"), require("./ranking.js"), require("./matching.js"), require("./results.js"));
  } else {
    const search = root.PitfallSearch;
    Object.assign(search, factory(search.options, search.analysis, search.query, search.pinyin, search.typos, search.readings,
      search.ranking, search.matching, search.results));
  }
})(typeof self !== "undefined" ? self : this, function (optionsModule, analysis, queryModule, pinyin, typos, readings, ranking, matching, results) {
  "use strict";

  const { defaultSearchOptions } = optionsModule;
  const { PIECES, normalize, keepWord, stem, compounds, messageKey, shardOf, shardHomes, shardProbes } = analysis;
  const { Query, excerpt, fillerSpans, stretches } = queryModule;
  const { STAGES, STAGE_NAMES } = readings;
  const FORMAT_VERSION = 16;  // the index layout this engine reads: pitfalls/pages/search_index.py FORMAT_VERSION
  const entryId = hit => hit.data.location.replace(/\/$/, "");  // an entry's id: its page's folder
  const NO_SHARD = Object.freeze({ terms: {}, entries: {}, variants: {}, compounds: new Set(), messages: {} });  // one not fetched

  class Engine {
    /* fetchJson(path, priority) → Promise of the parsed file at `path` inside the index folder (`priority`: as file's);
     * off: names of STAGES or ranking RULES to switch off (the tests and the benchmark measure each);
     * options: overrides of options.js defaultSearchOptions. */
    constructor(fetchJson, { off = [], options = {} } = {}) {
      for (const name of off)
        if (!STAGE_NAMES.includes(name) && !ranking.RULE_NAMES.includes(name)) throw new Error(`unknown search stage or rule ${name}`);
      this.fetchJson = fetchJson;
      this.options = { ...defaultSearchOptions, ...options };
      this.stages = new Map(STAGES.filter(([name]) => !off.includes(name)));
      this.rules = ranking.rulesInForce(new Set(off));
      this.files = new Map();   // path → Promise of its content
      this.loaded = new Map();  // shard number → the t/ shard, once fetched
      this.manifest = null;
      this.outdated = false;
    }

    /* Fetches the manifest once. A manifest of another format is not read: the engine answers "out of date". */
    async ready() {
      if (!this.manifest) {
        const manifest = await this.fetchJson("manifest.json");
        this.lang = manifest.lang;
        if (manifest.formatVersion !== FORMAT_VERSION) {
          if (!this.outdated) console.error(`search: the index is format ${manifest.formatVersion}, this engine reads ${FORMAT_VERSION}: reload the page`);
          this.outdated = true;
          return manifest;
        }
        this.stopwords = new Set(manifest.stopwords);
        this.longestStopword = Math.max(0, ...manifest.stopwords.map(w => w.length));
        this.synonymTerms = new Set(manifest.synonyms.flat(2));
        this.homes = shardHomes(manifest.synonyms);  // a group's English terms in its first word's shard
        this.absentTerms = new Set(manifest.absentSynonymTerms);  // synonym terms no entry has: never fetched nor added
        this.syllables = new Set(manifest.syllables.split(" "));
        this.tables = matching.entryTables(manifest, this.options);
        this.manifest = manifest;
      }
      return this.manifest;
    }

    /* A file of the index's folder, fetched once. One that is gone (`err.gone`: the site was built again and its
     * folder has another version's name) makes the engine outdated: the page is of an earlier build. `priority`: the
     * browser's fetch priority ("low": after the files asked for at the default), for the first fetch of the file. */
    file(path, priority) {
      if (!this.files.has(path))
        this.files.set(path, this.fetchJson(`${this.manifest.version}/${path}`, priority).catch(err => {
          this.files.delete(path);  // a failed fetch is retried by the next query
          this.outdated ||= err.gone === true;
          throw err;
        }));
      return this.files.get(path);
    }

    /* Fetches the t/ shards that hold `terms` (and their traditional forms); afterwards `postings` is synchronous. */
    async loadShards(terms) {
      const numbers = new Set(terms.map(t => this.shardNumber(t)));
      await Promise.all([...numbers].filter(n => !this.loaded.has(n))
        .map(async n => {
          const shard = await this.file(`t/${n}.json`);
          this.loaded.set(n, { ...shard, compounds: new Set(shard.compounds) });
        }));
    }

    /* Asks for the t/ shards of `terms` now, without waiting: the query's last fetch (analyze) waits for them, with the
     * shards it needs besides, instead of a round trip after them; a failed one is asked for again then. */
    askShards(terms) {
      this.loadShards(terms).catch(() => {});
    }

    /* The number of the t/ shard that holds `term` (search_index.py: shard_of of its home). */
    shardNumber(term) {
      return shardOf(this.homes.get(term) ?? term, this.manifest.shards, this.manifest.splitCharacters);
    }

    shard(term) {
      return this.loaded.get(this.shardNumber(term)) || NO_SHARD;
    }

    postings(term) {
      const { terms } = this.shard(term);
      return Object.hasOwn(terms, term) ? terms[term] : null;
    }

    /* Whether `term` is an index term or a synonym's (its shard, `shard`, loaded). */
    knows(term, shard = this.shard(term)) {
      return this.synonymTerms.has(term) || Object.hasOwn(shard.terms, term);
    }

    /* How many entries have `term` (its postings `list`): the index lists at most 400 and says how many more. */
    entriesWith(term, list) {
      const { entries } = this.shard(term);
      return Object.hasOwn(entries, term) ? entries[term] : list.length / 3;
    }

    reading(name, factor = 1, extraPenalty = 0) {
      const { weight, penalty } = this.options.readings[name];
      return { reading: name, weight: weight * factor, penalty: penalty + extraPenalty };
    }

    /* --- reading the query --- */

    async analyze(text) {
      await this.ready();
      const query = new Query(excerpt(normalize(text), this.options.maxQueryChars));
      // the shards of what is not filler: a character of a filler span that ends its run (怎么办 in 显存不足怎么办) can
      // start no word that reaches past the filler, and its shards would be a tenth of the first search's bytes
      const split = this.manifest.splitCharacters;
      const typed = [...query.runs.flatMap(run => shardProbes(run.text, split, this.beforeTrailingFiller(run.text))),
        ...query.words.filter(w => !this.stopwords.has(w.text)).map(w => stem(w.text)),
        ...query.compounds.map(c => c.term), ...readings.likelySynonyms(this, query)];
      const stages = [...this.stages.values()];
      const fetched = Promise.all([this.loadShards(typed), ...stages.filter(stage => stage.prefetch).map(stage => stage.prefetch(this, query))]);
      for (const stage of stages) if (stage.ask) stage.ask(this, query);  // asked for after the files waited for
      await fetched;
      this.readTyped(query, true);
      if (!query.terms.size) {  // only filler: search it as typed
        await this.loadShards([...query.runs.flatMap(run => shardProbes(run.text, split)), ...query.words.map(w => stem(w.text))]);
        this.readTyped(query, false);
      }
      for (const phase of [1, 2]) {
        const reading = stages.filter(stage => stage.phase === phase && stage.read);
        // the stages of a phase fetch what they need at once; their terms are added in table order
        for (const found of await Promise.all(reading.map(stage => stage.read(this, query))))
          for (const [term, info] of found) query.add(term, info);
      }
      await this.loadShards([...query.terms.keys()]);
      return query;
    }

    /* The index terms a piece of Chinese stands for, with how each was read: itself when it is a term, a synonym
     * or a word the entries say only in parts (驱动程序: it finds nothing itself, but makes 驱动 and 程序 one piece of
     * the query), and what the stages read into it (its simplified form): a Taiwan form can be a mainland word too
     * (核心 is Taiwan's 内核 and the mainland's "core"), and is read both ways; [] when none. */
    meanings(piece) {
      const shard = this.shard(piece);
      const known = this.knows(piece, shard) || shard.compounds.has(piece);
      const own = known ? [[piece, "typed"]] : [];
      for (const stage of this.stages.values()) {
        const found = stage.piece ? stage.piece(this, piece) : [];
        if (found.length) return [...own, ...found];
      }
      return own;
    }

    /* [start, end) of each filler word in a run of Chinese (query.js fillerSpans). */
    filler(text) {
      return fillerSpans(text, this.stopwords, this.longestStopword);
    }

    /* Where the filler that ends a run of Chinese starts (the run's length when none ends it). */
    beforeTrailingFiller(text) {
      return Math.min(text.length, ...this.filler(text).filter(([, end]) => end === text.length).map(([start]) => start));
    }

    /* The typed words and the Chinese words of the runs (without filler when dropFiller). */
    readTyped(query, dropFiller) {
      for (const word of query.words)
        if (!(dropFiller && this.stopwords.has(word.text)))
          query.add(stem(word.text), { units: [word.unit], span: [word.start, word.start + word.text.length], surface: word.text,
            ...this.reading("typed") });
      for (const { term, unit, start, end } of query.compounds)
        if (this.postings(term)) query.add(term, { units: [unit], span: [start, end], surface: null, ...this.reading("typed") });
      const longest = this.manifest.maxTermChars;
      for (const run of query.runs) {
        const known = new Map();  // piece → its meanings
        const meanings = piece => known.get(piece) || known.set(piece, this.meanings(piece)).get(piece);
        const covered = new Array(run.text.length).fill(false);
        const filler = dropFiller ? this.filler(run.text) : [];
        for (const [a, b] of filler) covered.fill(true, a, b);
        if (covered.includes(false)) query.typedHan = true;
        const inFiller = (a, b) => filler.some(([x, y]) => x <= a && b <= y);
        const pieces = [];  // [start, end) of each word found in the run
        for (let i = 0; i < run.text.length; i++)
          for (let n = 2; n <= Math.min(longest, run.text.length - i); n++)
            if (!inFiller(i, i + n) && meanings(run.text.substr(i, n)).length) {
              pieces.push([i, i + n]);
              covered.fill(true, i, i + n);
            }
        for (const [[a, b], [outerA, outerB]] of stretches(pieces)) {
          const unit = run.text.slice(outerA, outerB), piece = run.text.slice(a, b);
          for (const [term, reading] of meanings(piece))
            query.add(term, { units: [unit], span: [run.start + a, run.start + b], within: [run.start + outerA, run.start + outerB],
              surface: piece, ...this.reading(reading) });
        }
        for (let i = 0; i < run.text.length; i++)
          if (!covered[i]) {
            for (const [term, reading] of meanings(run.text[i]))
              query.add(term, { units: [run.text[i]], span: [run.start + i, run.start + i + 1], surface: run.text[i], ...this.reading(reading) });
            query.characters.add(run.text[i]);
          }
      }
    }

    /* The first maxResults entries by the rules. The message rule: a message found whole in the query through the
     * index (any entry the query's words found), then on the first entries' d/ files (the query in a message; a
     * message the index does not list under an English word: all Chinese). `found`: every entry the query matches. */
    async rank(text) {
      const [query, pasted] = await Promise.all([this.analyze(text), this.pastedWords(text)]);
      const key = messageKey(text);
      const found = matching.collect(this, query);
      matching.indexedMessages(this, [...query.terms.keys(), ...pasted], key, found);
      const hits = [...found.values()];
      const order = ranking.compare(this.rules);
      ranking.evaluate(hits, this.rules, this.options);
      const top = ranking.best(hits, order, this.options.maxResults);
      this.markMatched(query, top);
      const phrases = matching.phrases(this, query), edits = readings.correctedEdits(this, query);
      await Promise.all(top.map(async hit => {
        hit.data = await this.file(`d/${hit.doc}.json`);
        matching.readEntryFile(this, hit, key, phrases, edits);
      }));
      ranking.evaluate(top, this.rules, this.options);
      return { query, hits: top.sort(order), found: hits };
    }

    /* The English words and identifiers of a paste longer than maxQueryChars, all of it (the rules read its first and
     * last part only), their shards fetched beside the query's: a message in its middle is listed under one of them.
     * None for a shorter query, whose words are the query's terms. */
    async pastedWords(text) {
      await this.ready();
      const normalized = normalize(text);
      if (normalized.length <= this.options.maxQueryChars) return [];
      const words = [...normalized.matchAll(PIECES)].filter(m => m[2] && keepWord(m[2]) && !this.stopwords.has(m[2]))
        .map(m => stem(m[2]));
      const terms = [...new Set([...words, ...compounds(normalized).map(c => c.term)])];
      await this.loadShards(terms);
      return terms;
    }

    /* hit.matched for each of `hits`: the query's terms the entry has (what its result marks). */
    markMatched(query, hits) {
      const byDoc = new Map(hits.map(hit => [hit.doc, hit]));
      for (const hit of hits) hit.matched = new Set();
      for (const term of query.terms.keys()) {
        const list = this.postings(term);
        if (!list) continue;
        for (let k = 0; k < list.length; k += 3) {
          const hit = byDoc.get(list[k]);
          if (hit) hit.matched.add(term);
        }
      }
    }

    /* Material's result shape, and `ranked`: [{id, title, score, exact, explain}] for the CLI and the tests. */
    async search(text) {
      if (!text.trim()) return { items: [], ranked: [] };
      await this.ready();
      const found = this.outdated ? null : await this.rank(text).catch(err => {
        if (this.outdated) return null;  // a file gone: another build's index is there
        throw err;
      });
      if (!found) return { items: [results.outdatedItem(this.lang)], ranked: [], outdated: true };
      const { query, hits } = found;
      const stems = new Map();
      const items = hits.length ? hits.map(hit => results.entryItem(hit, query.terms, this.manifest, this.options, stems))
        : [results.noResultsItem(this.manifest.messages, await this.nearestTerms(query))];
      return { items, ranked: hits.map((hit, i) => this.rankedEntry(hit, i ? hits[i - 1] : null, query)) };
    }

    /* Where the entry `id` ranks for `text`, and why (the CLI's --entry): {matched, rank, result}, its place among the
     * `matched` entries the query finds and its entry as `ranked` has it; rank and result null when the query does not find it.
     * Past the first maxResults the order is the rules' before the d/ files are read, as the engine chose those by:
     * an entry below them is never looked at again. Reads the d/ files of the entries above it. */
    async standing(text, id) {
      await this.ready();
      const { query, hits, found } = await this.rank(text);
      const rest = found.filter(hit => !hits.includes(hit)).sort(ranking.compare(this.rules));
      const order = [...hits, ...rest];
      for (const [i, hit] of order.entries()) {
        hit.data ||= await this.file(`d/${hit.doc}.json`);
        if (entryId(hit) !== id) continue;
        this.markMatched(query, [hit]);  // the terms it has (the first maxResults have them already: the same)
        return { matched: order.length, rank: i + 1, result: this.rankedEntry(hit, i ? order[i - 1] : null, query) };
      }
      return { matched: order.length, rank: null, result: null };
    }

    /* An entry of `ranked`: {id, title, score, exact, explain}; `before` is the entry ranked above it. */
    rankedEntry(hit, before, query) {
      const engine = this;
      return { id: entryId(hit), title: hit.data.title, score: Math.round(hit.score * 100) / 100, exact: hit.message > 0,
        get explain() { return engine.explain(hit, before, query); } };  // when read (the CLI, tests)
    }

    /* Why an entry ranks where it does: each rule's value, the share of the query it matches, how far its title is
     * the query, how many entries name it as related and its length over the average's (the words rule's factors; the
     * length is in the share: its body matches were measured against it), the rule that put it below the one before,
     * each matched piece of the query with its weight, the entries its rarity counted (`entries`, before the floor),
     * its match and the terms that matched it, how they were read and where they are, and the error message the
     * message rule found (its key), or null. */
    explain(hit, before, query) {
      const fields = this.manifest.fields;
      const round = v => Math.round(v * 1000) / 1000;
      const units = [...query.weights.keys()].filter(unit => hit.units.has(unit)).map(unit => ({
        unit, weight: round(query.weights.get(unit)), entries: round(query.entries.get(unit)), match: round(hit.units.get(unit).match),
        terms: [...hit.matched].filter(term => query.terms.get(term).units.includes(unit)).map(term => {
          const list = this.postings(term);
          let flags = 0;
          for (let k = 0; k < list.length; k += 3) if (list[k] === hit.doc) flags = list[k + 2];
          return { term, reading: query.terms.get(term).reading,
            fields: fields.filter((_, bit) => flags & (1 << bit)).map(([name]) => name) };
        }),
      }));
      const values = Object.fromEntries(Object.entries(hit.values).map(([name, v]) => [name, round(v)]));
      return { rules: values, share: round(hit.words), title: round(ranking.titleAgreement(hit, this.options)),
        phrases: round(hit.phrases),
        linkedFrom: this.manifest.linkedFrom[hit.doc], length: round(this.tables.lengthShare[hit.doc]), decidedBy: ranking.decidingRule(before, hit, this.rules), units,
        queryUnits: [...query.weights.keys()], common: query.common, commonCharacters: query.commonCharacters,
        message: hit.foundMessage || null };
    }

    /* The index terms within closestEdits of the English words typed, for the "no results" item. */
    async nearestTerms(query) {
      const typed = [...query.terms.keys()].filter(t => /^[a-z]+$/.test(t)).slice(0, this.options.maxCorrections);
      const nearest = new Set();
      for (const word of typed) {
        const limit = this.options.closestEdits;
        const found = typos.withinEdits(word, await readings.wordLists(this, word, limit), limit);
        const best = found.length ? found[0][1] : 0;
        for (const [term] of found.filter(([, d]) => d === best).slice(0, this.options.maxCorrections)) nearest.add(term);
      }
      return [...nearest].slice(0, this.options.maxCorrections * 2);
    }

  }

  return { Engine, STAGE_NAMES, FORMAT_VERSION, analysis, query: queryModule, pinyin, typos, readings, ranking, matching, results };
});
