/* The site search engine (docs/SEARCH.md): query analysis, scoring and result building over
 * the index files written by pitfalls/pages/search_index.py. One file for the browser (worker.js) and for
 * `python -m pitfalls search` (node), so both rank alike.
 *
 * normalize, keepWord, stem and messageKey repeat pitfalls/text.py exactly, and shardOf
 * pitfalls/pages/search_index.py; the tests compare them. What both sides must agree on (shard
 * count, score scale, sections, longest term) comes from the manifest. Chinese queries are cut without jieba: every substring of a Chinese run that is
 * an index term (or a synonym) counts, minus filler words; characters no word covers count alone.
 */
(function (root) {
  "use strict";

  const HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  const PIECES = new RegExp(`([${HAN}]+)|([a-z0-9]+)`, "g");
  const NOT_WORD = new RegExp(`[^a-z0-9${HAN}]+`, "g");
  const IS_HAN = new RegExp(`^[${HAN}]`);
  const DISPLAY_PIECES = new RegExp(`[${HAN}]+|[A-Za-z0-9]+`, "g");
  const VOWELS = "aeiouy";

  const SYNONYM_WEIGHT = 0.5;      // a synonym's match counts half a typed word's
  const MAX_RESULTS = 10;          // entries listed (and fetched) per query: what Material shows at once
  const EXACT_BONUS = 1e6;         // an error message found whole in the query ranks first
  const MIN_MESSAGE_CHARS = 8;     // shorter messages are too generic for that
  const MIN_PARTIAL_CHARS = 16;    // a query this long found inside a message counts too
  const SECTIONS_SHOWN = 2;        // matching sections shown under an entry; more fold away
  const LINES_SHOWN = 3;           // matching lines shown per section

  /* --- text analysis, as in pitfalls/text.py --- */

  function normalize(text) {
    return text.normalize("NFKC").toLowerCase();
  }

  function keepWord(word) {
    if (word.length < 2 || word.length > 30) return false;
    if (/^[0-9]+$/.test(word)) return word.length <= 4;
    return !(word.length >= 8 && /[0-9]/.test(word));
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

  function englishTerms(text) {
    const terms = [];
    for (const m of text.matchAll(PIECES))
      if (m[2] && keepWord(m[2])) terms.push(stem(m[2]));
    return terms;
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
    /* fetchJson(path) → Promise of the parsed file at `path` inside the index folder */
    constructor(fetchJson) {
      this.fetchJson = fetchJson;
      this.shards = new Map();
      this.docs = new Map();
      this.manifest = null;
    }

    async ready() {
      if (!this.manifest) {
        const manifest = await this.fetchJson("manifest.json");
        this.stopwords = new Set(manifest.stopwords);
        this.synonymTerms = new Set(manifest.synonyms.flat(2));
        this.sectionBit = Object.fromEntries(manifest.sections.map(([anchor], bit) => [anchor, bit]));
        this.manifest = manifest;
      }
      return this.manifest;
    }

    file(path, cache) {
      if (!cache.has(path))
        cache.set(path, this.fetchJson(`${path}?v=${this.manifest.version}`).catch(err => {
          cache.delete(path);  // a failed fetch is retried by the next query
          throw err;
        }));
      return cache.get(path);
    }

    async loadShards(terms) {
      const numbers = new Set(terms.map(t => shardOf(t, this.manifest.shards)));
      await Promise.all([...numbers].map(n => this.file(`t/${n}.json`, this.shards)));
    }

    async postings(term) {
      const shard = await this.file(`t/${shardOf(term, this.manifest.shards)}.json`, this.shards);
      return Object.prototype.hasOwnProperty.call(shard, term) ? shard[term] : null;
    }

    /* The query's terms: Map term → {weight, unit, surface}. Needs the shards of its characters. */
    async analyze(query) {
      await this.ready();
      const text = normalize(query);
      const runs = [], words = [];
      for (const m of text.matchAll(PIECES)) {
        if (m[1]) runs.push(m[1]);
        else if (keepWord(m[2])) words.push(m[2]);
      }
      await this.loadShards([...runs.flatMap(run => [...run]), ...words.map(stem)]);
      const shards = this.shards;
      const known = new Set();
      for (const run of runs)
        for (let i = 0; i < run.length; i++)
          for (let n = 1; n <= Math.min(this.manifest.maxTermChars, run.length - i); n++) {
            const s = run.substr(i, n);
            if (this.synonymTerms.has(s) || Object.prototype.hasOwnProperty.call(
              await shards.get(`t/${shardOf(s, this.manifest.shards)}.json`), s)) known.add(s);
          }

      let terms = this.directTerms(runs, words, known, true);
      if (!terms.size) terms = this.directTerms(runs, words, known, false);  // only filler: search it as typed

      const direct = new Set(terms.keys());
      for (const group of this.manifest.synonyms) {
        const hit = group.find(phrase => phrase.length && phrase.every(t => direct.has(t)));
        if (!hit) continue;
        for (const phrase of group)
          for (const term of phrase)
            if (!terms.has(term)) terms.set(term, { weight: SYNONYM_WEIGHT, unit: hit[0], surface: null });
      }
      await this.loadShards([...terms.keys()]);
      return terms;
    }

    directTerms(runs, words, known, dropFiller) {
      const terms = new Map();
      const add = (term, surface) => terms.set(term, { weight: 1, unit: term, surface });
      for (const word of words)
        if (!(dropFiller && this.stopwords.has(word))) add(stem(word), word);
      for (const run of runs) {
        const covered = new Array(run.length).fill(false);
        const filler = [];
        if (dropFiller)
          for (let i = 0; i < run.length; i++)
            for (let n = 1; n <= run.length - i; n++)
              if (this.stopwords.has(run.substr(i, n))) {
                filler.push([i, i + n]);
                covered.fill(true, i, i + n);
              }
        const inFiller = (a, b) => filler.some(([x, y]) => x <= a && b <= y);
        for (let i = 0; i < run.length; i++)
          for (let n = 2; n <= Math.min(this.manifest.maxTermChars, run.length - i); n++) {
            const s = run.substr(i, n);
            if (known.has(s) && !inFiller(i, i + n)) {
              add(s, s);
              covered.fill(true, i, i + n);
            }
          }
        for (let i = 0; i < run.length; i++)
          if (!covered[i] && known.has(run[i])) add(run[i], run[i]);
      }
      return terms;
    }

    /* Ranked entries: [{doc, score, exact, mask, matched: Set of terms}] */
    async rank(query) {
      const terms = await this.analyze(query);
      const hits = new Map();
      const units = new Set([...terms.values()].map(t => t.unit));
      for (const [term, info] of terms) {
        const list = await this.postings(term);
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
      for (const hit of hits.values())
        hit.score *= 0.25 + hit.units.size / units.size;  // entries that match more of the query first
      const top = [...hits.values()].sort(order).slice(0, MAX_RESULTS);
      const key = messageKey(query);
      await Promise.all(top.map(async hit => {
        hit.data = await this.file(`d/${hit.doc}.json`, this.docs);
        const whole = hit.data.messages.some(m => m.length >= MIN_MESSAGE_CHARS && key.includes(m));
        const part = key.length >= MIN_PARTIAL_CHARS && hit.data.messages.some(m => m.includes(key));
        hit.exact = whole || part;
        hit.score += whole ? EXACT_BONUS : part ? EXACT_BONUS / 2 : 0;  // a whole message before a piece of one
      }));
      return { terms, hits: top.sort(order) };
    }

    /* Material's result shape: items = [[entry, ...its sections], ...] with escaped, highlighted HTML */
    async search(query) {
      if (!query.trim()) return { items: [], ranked: [] };
      const { terms, hits } = await this.rank(query);
      const items = hits.map(hit => this.item(hit, terms));
      const ranked = hits.map(hit => ({
        id: hit.data.location.replace(/\/$/, ""), title: hit.data.title,
        score: Math.round(hit.score * 100) / 100, exact: hit.exact,
      }));
      return { items, ranked };
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

  const api = { Engine, normalize, keepWord, stem, englishTerms, messageKey, shardOf, escapeHtml };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.PitfallSearch = api;
})(typeof self !== "undefined" ? self : this);
