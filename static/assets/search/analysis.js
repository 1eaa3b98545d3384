/* Text analysis, exactly as pitfalls/text.py does it (the tests compare both sides): normalisation,
 * which words are kept, stemming, names with digits, the error-message key, and the shard of a term
 * (pitfalls/pages/search_index.py). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).analysis = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  const UUID = "[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}";
  const PIECES = new RegExp(`([${HAN}]+)|(${UUID}|[a-z0-9]+)`, "g");
  const NOISE = new RegExp(`^(?:${UUID}|0x[0-9a-f]+|(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,})$`);
  // What a message key drops: separators, quotes, brackets and markup, which a copy of a message may have otherwise;
  // kept: the symbols that are content (invalid load key, '<' is an HTML page, 'v' a git-lfs pointer; c++; 100%)
  const NOT_MESSAGE = new RegExp(`[^a-z0-9${HAN}<>+%#@$&]+`, "g");
  const IS_HAN = new RegExp(`^[${HAN}]`);
  const VOWELS = "aeiouy";
  const IRREGULAR_PASTS = new Map(Object.entries({ hung: "hang", froze: "freeze", frozen: "freeze", broke: "break",
    broken: "break", ran: "run", wrote: "write", written: "write", threw: "throw", thrown: "throw", built: "build",
    sent: "send" }));  // pitfalls/text.py _IRREGULAR_PASTS
  const COMPOUND = /(?=[0-9._-]*[a-z])[a-z0-9]+(?:[._-][a-z0-9]+)+/g;
  const WHOLE_COMPOUND = new RegExp(`^(?:${COMPOUND.source})$`);
  const MAX_COMPOUND_CHARS = 40;

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

  /* Three letters, consonant-vowel-consonant (y a vowel, the last not w or x): what -ed or -ing left of a verb with
   * a final e (pitfalls/text.py _short_syllable). */
  function shortSyllable(word) {
    return word.length === 3 && !VOWELS.includes(word[0]) && VOWELS.includes(word[1]) && !VOWELS.includes(word[2])
      && !"wx".includes(word[2]);
  }

  function stem(word) {
    word = IRREGULAR_PASTS.get(word) || word;
    if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
    if (word.endsWith("ly") && word.length >= 6 && "cdeghkmnrtw".includes(word[word.length - 3])) word = word.slice(0, -2);
    if (word.endsWith("ies") || word.endsWith("ied")) word = word.slice(0, -3) + (word.length > 4 ? "y" : "ie");
    else if (word.endsWith("sses")) word = word.slice(0, -2);
    else if (["ches", "shes", "xes"].some(s => word.endsWith(s))) word = word.slice(0, -2);  // not -zes: size, sizes (buzzes loses its e by the final e rule)
    else if (word.endsWith("s") && !["ss", "us", "is"].some(s => word.endsWith(s))) word = word.slice(0, -1);
    for (const suffix of ["ation", "ing", "ed"]) {
      const rest = word.slice(0, -suffix.length);
      if (word.endsWith(suffix) && rest.length >= 3 && hasVowel(rest) && !(suffix === "ed" && rest.endsWith("e"))) {
        word = rest;
        const last = word[word.length - 1];
        if (word.length >= 4 && last === word[word.length - 2] && !"lsz".includes(last) && !VOWELS.includes(last))
          word = word.slice(0, -1);
        else if (suffix !== "ation" && shortSyllable(word)) word += "e";  // piping, piped: pipe, not pip
        break;
      }
    }
    if (word.endsWith("e") && word.length >= 5) word = word.slice(0, -1);
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

  /* The word an identifier of two words joined by - or _ also reads as (all_reduce, time-out, 4-bit: allreduc,
   * timeout, 4bit), stemmed; null for a name of more words or with dots (pitfalls/text.py joined_term). */
  function joinedTerm(name) {
    const parts = name.split(/[_-]/);
    if (name.includes(".") || parts.length !== 2) return null;
    const word = parts.join("");
    return keepWord(word) ? stem(word) : null;
  }

  /* The identifiers of normalized text (torch.load, nvidia-smi, max_model_len), each followed by the word it reads as
   * joined (joinedTerm), and by its dotted parts that are identifiers themselves (is_available of
   * torch.cuda.is_available), each with its joined word: [{term, unit, start, end}] in order, an identifier's term its
   * words joined by "_", its unit itself (a joined word's unit: the identifier it reads); too long ones (paths, pastes)
   * left out (pitfalls/text.py compound_terms). */
  function compounds(text) {
    const found = [];
    const add = (name, start) => {
      if (name.length > MAX_COMPOUND_CHARS) return;
      const term = name.replace(/[._-]/g, "_"), end = start + name.length, joined = joinedTerm(name);
      found.push({ term, unit: term, start, end });
      if (joined) found.push({ term: joined, unit: term, start, end });
    };
    for (const m of text.matchAll(COMPOUND)) {
      add(m[0], m.index);
      if (!m[0].includes(".")) continue;
      let start = m.index;
      for (const part of m[0].split(".")) {
        if (WHOLE_COMPOUND.test(part)) add(part, start);
        start += part.length + 1;
      }
    }
    return found;
  }

  function messageKey(text) {
    return normalize(text).replace(NOT_MESSAGE, "");
  }

  /* How many characters of a query's message key an entry's error message `message` needs, and whether `key` holds
   * them: a message is the keys of its literal runs with a space between (a signature's text around the parts that
   * vary; a symptom is one run), each run found after the one before. */
  function messageChars(message) {
    return message.replaceAll(" ", "").length;
  }

  function messageIn(key, message) {
    let at = 0;
    for (const run of message.split(" ")) {
      const found = key.indexOf(run, at);
      if (found < 0) return false;
      at = found + run.length;
    }
    return true;
  }

  function isHan(term) {
    return IS_HAN.test(term);
  }

  /* The shard of an index term (pitfalls/pages/search_index.py shard_of): FNV-1a over its key, a Chinese term's first
   * character, its first two when that character is one of `split` (the manifest's splitCharacters), any other term
   * whole. */
  function shardOf(term, shards, split = "") {
    // a Chinese term's first character is one code unit (HAN is in the BMP); the second is taken by code point
    const key = !isHan(term) ? term
      : split.includes(term[0]) && term.length > 1 ? term[0] + String.fromCodePoint(term.codePointAt(1)) : term[0];
    let h = 0x811c9dc5;
    for (const char of key) h = Math.imul(h ^ char.codePointAt(0), 0x01000193) >>> 0;
    return h % shards;
  }

  /* term → the word whose shard holds it (pitfalls/pages/search_index.py shard_homes): each English term of a synonym
   * group (`synonyms`, the manifest's) in the shard of the group's first word, or where an earlier group put that word;
   * with its first group when in several. A query that reads a group then fetches one file for its English words. */
  function shardHomes(synonyms) {
    const homes = new Map();
    for (const group of synonyms) {
      const words = group.flat();  // an empty group has no first word, and no word to place
      const home = homes.get(words[0]) ?? words[0];
      for (const term of words)
        if (!isHan(term) && !homes.has(term)) homes.set(term, home);
    }
    return homes;
  }

  /* What to fetch the shards of to find every term that starts within the first `starts` characters of a run of
   * Chinese: each of those characters, and a split one (shardOf) with the character after it. */
  function shardProbes(text, split, starts = text.length) {
    const chars = [...text];
    return chars.slice(0, starts).flatMap((char, i) => split.includes(char) && i + 1 < chars.length ? [char, char + chars[i + 1]] : [char]);
  }

  return { HAN, PIECES, normalize, keepWord, nameParts, stem, wordTerms, englishTerms, compounds, messageKey, messageChars,
    messageIn, isHan, shardOf, shardHomes, shardProbes };
});
