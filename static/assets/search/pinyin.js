/* Pinyin typed without an input method (xiancun buzu, xiancunbuzu): where the query's letter words read
 * as whole syllables, and the stretches of syllables to look up in the index's p/ files. Pure functions. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).pinyin = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // the letters of the longest syllable (zhuang: 6), the farthest a syllable can reach
  const longestOf = syllables => Math.max(...[...syllables].map(s => s.length));

  /* Where syllables can start and end in a word read wholly as pinyin: Map start → [ends]
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

  /* Every stretch of 1 … maxSyllables syllables of the query's letter words: [{key, first, span}], where `key`
   * is the letters without spaces, `first` its first syllable (the p/ shard), `span` [start, end) in the query.
   * A stretch may cross the spaces between words (xiancun buzu, xian cun bu zu), and then starts where a word starts
   * and ends where one ends: the spaces typed are word breaks, and li xian of tuili xiancun (推理 显存) is none.
   * Inside one word a stretch may start and end at any syllable (wenben in changwenben).
   * words: the query's words of letters only, [{text, start}] in query order. */
  function pinyinSpans(words, syllables, maxSyllables) {
    const longest = longestOf(syllables);
    const spans = new Map();
    let text = "";
    const at = [];            // position in `text` → position in the query
    const wordOf = [];        // position in `text` → which word it is in (a word starts where this changes)
    const edges = new Map();  // position in `text` → ends of the syllables starting there
    const flush = () => {
      for (const start of edges.keys()) {
        let frontier = [[start, null]];
        for (let depth = 0; depth < maxSyllables && frontier.length; depth++) {
          const next = new Map();
          for (const [from, first] of frontier)
            for (const end of edges.get(from) || []) {
              const across = wordOf[start] !== wordOf[end - 1];
              if (across && wordOf[start - 1] === wordOf[start]) continue;  // begun inside a word
              const key = text.slice(start, end), syllable = first || key;
              if (!across || wordOf[end] !== wordOf[end - 1]) spans.set(`${key} ${syllable}`, { key, first: syllable, span: [at[start], at[end - 1] + 1] });
              next.set(`${end} ${syllable}`, [end, syllable]);
            }
          frontier = [...next.values()];
        }
      }
      text = "";
      at.length = wordOf.length = 0;
      edges.clear();
    };
    for (const [n, word] of words.entries()) {
      const wordEdges = syllableEdges(word.text, syllables, longest);
      if (!wordEdges) {
        flush();
        continue;
      }
      for (const [from, ends] of wordEdges) edges.set(text.length + from, ends.map(end => text.length + end));
      for (let k = 0; k < word.text.length; k++) {
        at.push(word.start + k);
        wordOf.push(n);
      }
      text += word.text;
    }
    flush();
    return [...spans.values()];
  }

  /* The first syllables of `word` read as pinyin whose last syllable may be half typed (xianc: xian or xi an, then c…
   * of cun, chang …): the syllables it can start with where whole syllables lead to a rest that begins a syllable, and
   * every syllable that begins with the word itself (dia: dia, dian, diao). [] when it reads so nowhere. */
  function halfTypedFirsts(word, syllables) {
    const longest = longestOf(syllables);
    const begins = rest => [...syllables].some(s => s.startsWith(rest));
    const firsts = new Set([...syllables].filter(s => s.startsWith(word)));
    const reached = new Map([[0, new Set()]]);  // position → the first syllables of the whole syllables that reach it
    for (let i = 0; i < word.length; i++) {
      if (!reached.has(i)) continue;
      for (let n = 1; n <= Math.min(longest, word.length - i); n++) {
        const syllable = word.substr(i, n);
        if (!syllables.has(syllable)) continue;
        const from = i ? reached.get(i) : new Set([syllable]);
        if (!reached.has(i + n)) reached.set(i + n, new Set());
        for (const first of from) reached.get(i + n).add(first);
      }
    }
    // (position 0 has no first syllable yet; at the word's end the rest, empty, begins any: the word read whole)
    for (const [i, from] of reached) if (begins(word.slice(i))) for (const first of from) firsts.add(first);
    return [...firsts];
  }

  /* Whether `word` reads wholly as syllables (xian, xiancun; not t, ssh). */
  function readsWhole(word, syllables) {
    return syllableEdges(word, syllables, longestOf(syllables)) !== null;
  }

  return { syllableEdges, readsWhole, pinyinSpans, halfTypedFirsts };
});
