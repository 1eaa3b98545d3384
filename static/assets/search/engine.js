/* The site search engine (docs/SEARCH.md): query analysis, scoring and result building over
 * the index files written by pitfalls/pages/search_index.py. One file for the browser (worker.js) and for
 * `python -m pitfalls search` (node), so both rank alike.
 *
 * normalize, keepWord, nameParts, stem and messageKey repeat pitfalls/text.py exactly, and shardOf
 * pitfalls/pages/search_index.py; the tests compare them. What both sides must agree on (shard
 * counts, score scale, sections, longest term, pinyin syllables) comes from the manifest. Chinese
 * queries are cut without jieba: every substring of a Chinese run that is an index term, a synonym
 * or a traditional/regional form of a term counts, minus filler words; characters no word covers
 * count alone. Words the index does not know are also read as pinyin, as a typo, or by their parts.
 */
(function (root) {
  "use strict";

  const HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  const UUID = "[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}";
  const PIECES = new RegExp(`([${HAN}]+)|(${UUID}|[a-z0-9]+)`, "g");
  const NOISE = new RegExp(`^(?:${UUID}|0x[0-9a-f]+|(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,})$`);
  const NOT_WORD = new RegExp(`[^a-z0-9${HAN}]+`, "g");
  const IS_HAN = new RegExp(`^[${HAN}]`);
  const DISPLAY_PIECES = new RegExp(`[${HAN}]+|[A-Za-z0-9]+`, "g");
  const VOWELS = "aeiouy";

  const SYNONYM_WEIGHT = 0.5;      // a synonym's match counts half a typed word's
  const PINYIN_WEIGHT = 0.6;       // a Chinese term read from pinyin: below an English word typed as such
  const TYPO_WEIGHTS = [1, 0.4, 0.2];  // by edit distance: a corrected word always below the exact one
  const TYPO_MIN_CHARS = [0, 5, 9];    // the shortest word corrected at that edit distance
  const MAX_CORRECTIONS = 3;       // index terms taken per misspelt word (the nearest ones)
  const MAX_CORRECTED_WORDS = 8;   // a long paste has only its first unknown words corrected
  const CLOSEST_EDITS = 3;         // how far the terms offered when nothing matched may be from a typed word
  const MAX_QUERY_CHARS = 200;     // longer pastes are analysed by their start (the exact-message match reads all)
  const MAX_RESULTS = 10;          // entries listed (and fetched) per query: what Material shows at once
  const EXACT_BONUS = 1e6;         // an error message found whole in the query ranks first
  const MIN_MESSAGE_CHARS = 8;     // shorter messages are too generic for that
  const MIN_PARTIAL_CHARS = 16;    // a query this long found inside a message counts too
  const SECTIONS_SHOWN = 2;        // matching sections shown under an entry; more fold away
  const LINES_SHOWN = 3;           // matching lines shown per section
  const STAGES = ["synonyms", "coverage", "exact", "variants", "pinyin", "typos", "parts"];  // what `off` can switch off
  const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

  /* --- text analysis, as in pitfalls/text.py --- */

  function normalize(text) {
    return text.normalize("NFKC").toLowerCase();
  }

  function keepWord(word) {
    if (word.length < 2 || word.length > 30) return false;
    if (/^[0-9]+$/.test(word)) return word.length <= 4;
    return !NOISE.test(word);
  }

  function nameParts(word) {
    const parts = word.match(/[a-z]+|[0-9]+/g) || [];
    return parts.length > 1 ? parts.filter(keepWord).map(stem) : [];
  }

  function hasVowel(text) {
    return [...text].some(c => VOWELS.includes(c));
  }
  function stem(word) {
    if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
    if (word.endsWith("ies") && word.length > 4) word = word.slice(0, -3) + "y";
    else if (word.endsWith("sses")) word = word.slice(0, -2);
    else if (["ches", "shes", "xes", "zes"].some(s => word.endsWith(s))) word = word.slice(0, -2);
    else if (word.endsWith("s") && !["ss", "us", "is"].some(s => word.endsWith(s))) word = word.slice(0, -1);
    for (const suffix of ["ation", "ing", "ed"]) {
      const rest = word.slice(0, -suffix.length);
      if (word.endsWith(suffix) && rest.length >= 3 && hasVowel(rest) && !(suffix === "ed" && rest.endsWith("e"))) {
        word = rest;
        const last = word[word.length - 1];
        if (word.length >= 4 && last === word[word.length - 2] && !"lsz".includes(last) && !VOWELS.includes(last))
          word = word.slice(0, -1);
        break;
      }
    }
    if (word.endsWith("e") && word.length >= 4) word = word.slice(0, -1);
    if (word.endsWith("y") && word.length >= 4) word = word.slice(0, -1) + "i";
    return word;
  }

  function wordTerms(word) {
    return keepWord(word) ? [stem(word), ...nameParts(word)] : [];
  }

  function englishTerms(text) {
    const terms = [];
    for (const m of text.matchAll(PIECES))
      if (m[2]) terms.push(...wordTerms(m[2]));
    return terms;
  }

  /* Optimal string alignment distance (a transposition is one edit), or limit + 1 once it exceeds `limit`. */
  function editDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let before = null, previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      let best = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
        row.push(d);
        best = Math.min(best, d);
      }
      if (best > limit) return limit + 1;
      before = previous;
      previous = row;
    }
    return Math.min(previous[b.length], limit + 1);
  }

  /* Where pinyin syllables can start and end in a word read wholly as pinyin: Map start → [ends]
   * (every reading: xian is xian or xi an), or null when the word is not pinyin. */
  function syllableEdges(word, syllables, longest) {
    const reach = new Array(word.length + 1).fill(false);
    reach[0] = true;
    const edges = new Map();
    for (let i = 0; i < word.length; i++) {
      if (!reach[i]) continue;
      for (let n = 1; n <= Math.min(longest, word.length - i); n++)
        if (syllables.has(word.substr(i, n))) {
          reach[i + n] = true;
          if (!edges.has(i)) edges.set(i, []);
          edges.get(i).push(i + n);
        }
    }
    if (!reach[word.length]) return null;
    const useful = new Array(word.length + 1).fill(false);  // positions from which the word's end is reached
    useful[word.length] = true;
    for (let i = word.length - 1; i >= 0; i--)
      if (edges.has(i)) {
        edges.set(i, edges.get(i).filter(j => useful[j]));
        useful[i] = edges.get(i).length > 0;
      }
    for (const i of [...edges.keys()]) if (!useful[i] || !reach[i]) edges.delete(i);
    return edges;
  }

  function messageKey(text) {
    return normalize(text).replace(NOT_WORD, "");
  }

  function shardOf(term, shards) {
    const key = IS_HAN.test(term) ? term[0] : term;
    let h = 0x811c9dc5;
    for (const char of key) h = Math.imul(h ^ char.codePointAt(0), 0x01000193) >>> 0;
    return h % shards;
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
  }

  /* --- the engine --- */

  class Engine {
    /* fetchJson(path) → Promise of the parsed file at `path` inside the index folder;
     * off: names of STAGES to switch off (the tests and the benchmark measure what each one does) */
    constructor(fetchJson, { off = [] } = {}) {
      for (const stage of off) if (!STAGES.includes(stage)) throw new Error(`unknown search stage ${stage}`);
      this.fetchJson = fetchJson;
      this.off = new Set(off);
      this.files = new Map();   // path → Promise of its content
      this.loaded = new Map();  // shard number → the t/ shard, once fetched
      this.manifest = null;
    }

    async ready() {
      if (!this.manifest) {
        const manifest = await this.fetchJson("manifest.json");
        this.stopwords = new Set(manifest.stopwords);
        this.longestStopword = Math.max(0, ...manifest.stopwords.map(w => w.length));
        this.synonymTerms = new Set(manifest.synonyms.flat(2));
        this.syllables = new Set(manifest.syllables.split(" "));
        this.longestSyllable = Math.max(...[...this.syllables].map(s => s.length));
        this.sectionBit = Object.fromEntries(manifest.sections.map(([anchor], bit) => [anchor, bit]));
        this.manifest = manifest;
      }
      return this.manifest;
    }

    file(path) {
      if (!this.files.has(path))
        this.files.set(path, this.fetchJson(`${path}?v=${this.manifest.version}`).catch(err => {
          this.files.delete(path);  // a failed fetch is retried by the next query
          throw err;
        }));
      return this.files.get(path);
    }

    /* Fetches the t/ shards that hold `terms` (and their traditional forms); afterwards `entry` is synchronous. */
    async loadShards(terms) {
      const numbers = new Set(terms.map(t => shardOf(t, this.manifest.shards)));
      await Promise.all([...numbers].filter(n => !this.loaded.has(n))
        .map(async n => this.loaded.set(n, await this.file(`t/${n}.json`))));
    }

    shard(term) {
      return this.loaded.get(shardOf(term, this.manifest.shards)) || { terms: {}, variants: {} };
    }

    postings(term) {
      const { terms } = this.shard(term);
      return has(terms, term) ? terms[term] : null;
    }

    /* The index terms a piece of the query stands for: itself when it is a term or a synonym,
     * else the simplified terms of a traditional or regional form; [] when none. */
    meanings(piece) {
      if (this.synonymTerms.has(piece) || this.postings(piece)) return [piece];
      const { variants } = this.shard(piece);
      return !this.off.has("variants") && has(variants, piece) ? variants[piece] : [];
    }

    /* The query's terms: Map term → {weight, unit, surface}. `unit` is the piece of the query the term
     * stands for (coverage counts units); `surface` what to highlight on the entry's page. */
    async analyze(query) {
      await this.ready();
      const text = normalize(query).slice(0, MAX_QUERY_CHARS);
      const runs = [], words = [];
      for (const m of text.matchAll(PIECES)) {
        if (m[1]) runs.push(m[1]);
        else if (keepWord(m[2])) words.push(m[2]);
      }
      // what a word the index may lack needs is fetched with the shards, not a round trip after them
      const pinyin = this.off.has("pinyin") ? [] : this.pinyinSpans(words.filter(w => /^[a-z]+$/.test(w)));
      const pinyinShards = this.pinyinShards(pinyin);
      const lists = words.filter(w => /^[a-z]+$/.test(w) && w.length >= TYPO_MIN_CHARS[1]).map(w => this.typoLists(w));
      await Promise.all([this.loadShards([...runs.flatMap(run => [...run]), ...words.map(stem)]), pinyinShards, ...lists]);
      const known = new Map();  // piece of a Chinese run → the terms it stands for
      for (const run of runs)
        for (let i = 0; i < run.length; i++)
          for (let n = 1; n <= Math.min(this.manifest.maxTermChars, run.length - i); n++) {
            const piece = run.substr(i, n);
            if (!known.has(piece)) known.set(piece, this.meanings(piece));
          }

      let terms = this.directTerms(runs, words, known, true);
      if (!terms.size) terms = this.directTerms(runs, words, known, false);  // only filler: search it as typed
      await this.readUnknownWords(words, terms, pinyin, await pinyinShards);

      const direct = new Map(terms);
      if (!this.off.has("synonyms"))
        for (const group of this.manifest.synonyms) {
          const hit = group.find(phrase => phrase.length && phrase.every(t => direct.has(t)));
          if (!hit) continue;
          const weight = SYNONYM_WEIGHT * Math.min(...hit.map(t => direct.get(t).weight));
          for (const phrase of group)
            for (const term of phrase)
              if (!terms.has(term)) terms.set(term, { weight, unit: direct.get(hit[0]).unit, surface: null });
        }
      await this.loadShards([...terms.keys()]);
      return terms;
    }

    directTerms(runs, words, known, dropFiller) {
      const terms = new Map();
      for (const word of words)
        if (!(dropFiller && this.stopwords.has(word))) terms.set(stem(word), { weight: 1, unit: stem(word), surface: word });
      for (const run of runs) {
        const covered = new Array(run.length).fill(false);
        const filler = [];
        if (dropFiller)
          for (let i = 0; i < run.length; i++)
            for (let n = 1; n <= Math.min(this.longestStopword, run.length - i); n++)
              if (this.stopwords.has(run.substr(i, n))) {
                filler.push([i, i + n]);
                covered.fill(true, i, i + n);
              }
        const inFiller = (a, b) => filler.some(([x, y]) => x <= a && b <= y);
        for (let i = 0; i < run.length; i++)
          for (let n = 2; n <= Math.min(this.manifest.maxTermChars, run.length - i); n++) {
            const piece = run.substr(i, n);
            if (known.get(piece).length && !inFiller(i, i + n)) {
              for (const term of known.get(piece)) terms.set(term, { weight: 1, unit: piece, surface: piece });
              covered.fill(true, i, i + n);
            }
          }
        for (let i = 0; i < run.length; i++)
          for (const term of covered[i] ? [] : known.get(run[i])) terms.set(term, { weight: 1, unit: run[i], surface: run[i] });
      }
      return terms;
    }

    /* Words the index does not know: a name with digits by its parts, letters as pinyin of Chinese
     * terms, a misspelt word as the nearest index terms. Adds what they stand for to `terms`. */
    async readUnknownWords(words, terms, pinyin, pinyinShards) {
      const unknown = [...new Set(words)].filter(w => !this.stopwords.has(w) && !this.meanings(stem(w)).length);
      const add = (term, weight, unit, surface) => {
        if (!terms.has(term) || terms.get(term).weight < weight) terms.set(term, { weight, unit, surface });
      };
      const parts = this.off.has("parts") ? [] : unknown.flatMap(w => nameParts(w).map(part => [w, part]));
      const misspelt = this.off.has("typos") ? []
        : unknown.filter(w => /^[a-z]+$/.test(w) && w.length >= TYPO_MIN_CHARS[1]).slice(0, MAX_CORRECTED_WORDS);
      const [, corrections, readings] = await Promise.all([
        this.loadShards(parts.map(([, part]) => part)),
        Promise.all(misspelt.map(w => this.corrections(w))),
        this.pinyinReadings(pinyin, pinyinShards),
      ]);
      for (const [word, part] of parts) if (this.postings(part)) add(part, 1, stem(word), word);
      misspelt.forEach((word, k) => {
        for (const [term, distance] of corrections[k]) add(term, TYPO_WEIGHTS[distance], stem(word), null);
      });
      for (const [key, found] of readings) for (const term of found) add(term, PINYIN_WEIGHT, key, term);
    }

    /* The w/ lists of the terms a misspelt `word` may stand for: those of about its stem's length. */
    typoLists(word, limit = TYPO_MIN_CHARS.findLastIndex(n => word.length >= n)) {
      const length = stem(word).length;
      const lengths = this.manifest.wordLengths.filter(n => Math.abs(n - length) <= limit);
      return Promise.all(lengths.map(n => this.file(`w/${n}.json`)));
    }

    /* The nearest index terms to a misspelt word (stemmed, as the index is): [[term, distance]]. */
    async corrections(word, limit = TYPO_MIN_CHARS.findLastIndex(n => word.length >= n)) {
      const target = stem(word);
      const candidates = (await this.typoLists(word, limit)).flat();
      const found = candidates.map(term => [term, editDistance(target, term, limit)]).filter(([, d]) => d <= limit);
      const nearest = Math.min(...found.map(([, d]) => d));
      return found.filter(([, d]) => d === nearest).slice(0, MAX_CORRECTIONS);
    }

    /* Every stretch of the query's letter words that reads as whole pinyin syllables: [[key, first syllable]].
     * A stretch may cross the spaces between words (xiancun buzu, xian cun bu zu) but not split a word. */
    pinyinSpans(words) {
      const spans = new Map();
      let text = "";
      const edges = new Map();  // position in `text` → ends of the syllables starting there
      const flush = () => {
        for (const start of edges.keys()) {
          let frontier = [[start, null]];
          for (let depth = 0; depth < this.manifest.maxTermChars && frontier.length; depth++) {
            const next = new Map();
            for (const [at, first] of frontier)
              for (const end of edges.get(at) || []) {
                const syllable = first || text.slice(start, end);
                spans.set(`${text.slice(start, end)} ${syllable}`, [text.slice(start, end), syllable]);
                next.set(`${end} ${syllable}`, [end, syllable]);
              }
            frontier = [...next.values()];
          }
        }
        text = "";
        edges.clear();
      };
      for (const word of words) {
        const wordEdges = syllableEdges(word, this.syllables, this.longestSyllable);
        if (!wordEdges) {
          flush();
          continue;
        }
        for (const [at, ends] of wordEdges) edges.set(text.length + at, ends.map(end => text.length + end));
        text += word;
      }
      flush();
      return [...spans.values()];
    }

    /* Map shard number → p/ shard, for the first syllables of `spans`. */
    async pinyinShards(spans) {
      const numbers = [...new Set(spans.map(([, first]) => shardOf(first, this.manifest.pinyinShards)))];
      return new Map(await Promise.all(numbers.map(async n => [n, await this.file(`p/${n}.json`)])));
    }

    /* [[key, Chinese terms]] for the pinyin spans the index has a reading for; fetches those terms' shards. */
    async pinyinReadings(spans, shards) {
      const readings = [];
      for (const [key, first] of spans) {
        const shard = shards.get(shardOf(first, this.manifest.pinyinShards));
        if (has(shard, key)) readings.push([key, shard[key]]);
      }
      await this.loadShards(readings.flatMap(([, found]) => found));
      return readings;
    }

    /* Ranked entries: [{doc, score, exact, mask, matched: Set of terms}] */
    async rank(query) {
      const terms = await this.analyze(query);
      const hits = new Map();
      const units = new Set([...terms.values()].map(t => t.unit));
      for (const [term, info] of terms) {
        const list = this.postings(term);
        if (!list) continue;
        for (let k = 0; k < list.length; k += 3) {
          let hit = hits.get(list[k]);
          if (!hit) hits.set(list[k], hit = { doc: list[k], score: 0, mask: 0, units: new Set(), matched: new Set() });
          hit.score += info.weight * list[k + 1] / this.manifest.scoreScale;
          hit.mask |= list[k + 2];
          hit.units.add(info.unit);
          hit.matched.add(term);
        }
      }
      const order = (a, b) => b.score - a.score || a.doc - b.doc;
      if (!this.off.has("coverage"))
        for (const hit of hits.values())
          hit.score *= 0.25 + hit.units.size / units.size;  // entries that match more of the query first
      const top = [...hits.values()].sort(order).slice(0, MAX_RESULTS);
      const key = messageKey(query);
      await Promise.all(top.map(async hit => {
        hit.data = await this.file(`d/${hit.doc}.json`);
        const whole = hit.data.messages.some(m => m.length >= MIN_MESSAGE_CHARS && key.includes(m));
        const part = key.length >= MIN_PARTIAL_CHARS && hit.data.messages.some(m => m.includes(key));
        hit.exact = !this.off.has("exact") && (whole || part);
        if (hit.exact) hit.score += whole ? EXACT_BONUS : part ? EXACT_BONUS / 2 : 0;  // a whole message before a piece of one
      }));
      return { terms, hits: top.sort(order) };
    }

    /* Material's result shape: items = [[entry, ...its sections], ...] with escaped, highlighted HTML */
    async search(query) {
      if (!query.trim()) return { items: [], ranked: [] };
      const { terms, hits } = await this.rank(query);
      const items = hits.length ? hits.map(hit => this.item(hit, terms)) : [await this.noResults(terms)];
      const ranked = hits.map(hit => ({
        id: hit.data.location.replace(/\/$/, ""), title: hit.data.title,
        score: Math.round(hit.score * 100) / 100, exact: hit.exact,
      }));
      return { items, ranked };
    }

    /* What the result list shows when nothing matched: says so in the site's language, offers the
     * index terms nearest to the words typed and the tag index. Material lists it like a result. */
    async noResults(terms) {
      const { title, closest, browse, location } = this.manifest.noResults;
      const typed = [...terms.keys()].filter(t => /^[a-z]+$/.test(t)).slice(0, MAX_CORRECTIONS);
      const nearest = new Set();
      for (const found of await Promise.all(typed.map(word => this.corrections(word, CLOSEST_EDITS))))
        for (const [term] of found) nearest.add(term);
      const listed = [...nearest].slice(0, MAX_CORRECTIONS * 2).map(escapeHtml).join(", ");
      const text = (nearest.size ? `<p>${escapeHtml(closest).replace("{terms}", listed)}</p>` : "") + `<p>${escapeHtml(browse)}</p>`;
      return [{ location, title: escapeHtml(title), text, tags: [], score: 0, terms: {} }];
    }

    item(hit, terms) {
      const doc = hit.data;
      const mark = highlighter(hit.matched);
      const matchedTerms = {};
      for (const term of hit.matched) {
        const surface = terms.get(term).surface;
        if (surface) matchedTerms[surface] = true;
      }
      const sections = [];
      const { "": titleBit, "quick-fix": quickFixBit } = this.sectionBit;
      for (const [bit, lines] of doc.sections) {
        if (bit === titleBit || bit === quickFixBit || !(hit.mask & (1 << bit))) continue;
        const shown = lines.map(mark).filter(html => html.includes("<mark>")).slice(0, LINES_SHOWN);
        const [anchor, heading] = this.manifest.sections[bit];
        sections.push({
          location: `${doc.location}#${anchor}`, title: escapeHtml(heading),
          text: (shown.length ? shown : [mark(lines[0])]).map(html => `<p>${html}</p>`).join(""),
          terms: matchedTerms,
        });
      }
      const quickFix = doc.sections.find(([bit]) => bit === quickFixBit);
      const score = hit.score;
      return [
        { location: doc.location, title: mark(doc.title), text: quickFix ? `<p>${mark(quickFix[1][0])}</p>` : "",
          tags: doc.tags.map(escapeHtml), score, terms: matchedTerms },
        ...sections.map((section, i) => ({ ...section, score: i < SECTIONS_SHOWN ? score : score / 2 })),
      ];
    }
  }

  /* Escapes `text` and marks the words that matched: Chinese terms longest first, English by stem. */
  function highlighter(matched) {
    const han = [...matched].filter(t => IS_HAN.test(t)).sort((a, b) => b.length - a.length);
    return text => {
      let out = "", last = 0;
      for (const m of text.matchAll(DISPLAY_PIECES)) {
        out += escapeHtml(text.slice(last, m.index));
        last = m.index + m[0].length;
        const piece = m[0];
        if (IS_HAN.test(piece)) {
          for (let i = 0; i < piece.length;) {
            const term = han.find(t => piece.startsWith(t, i));
            out += term ? `<mark>${term}</mark>` : piece[i];
            i += term ? term.length : 1;
          }
        } else {
          const word = piece.toLowerCase();
          out += keepWord(word) && matched.has(stem(word)) ? `<mark>${piece}</mark>` : piece;
        }
      }
      return out + escapeHtml(text.slice(last));
    };
  }

  const api = { Engine, STAGES, normalize, keepWord, nameParts, stem, wordTerms, englishTerms, messageKey, shardOf,
    escapeHtml, editDistance, syllableEdges };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.PitfallSearch = api;
})(typeof self !== "undefined" ? self : this);
