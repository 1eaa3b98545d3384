/* Typo correction: the index terms a misspelt word may stand for. Pure functions; the engine fetches the
 * w/ lists of terms by length and the postings that tell which candidates agree with the rest of the query. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).typos = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /* Optimal string alignment distance (a transposition is one edit) of `a` to `b`, or with `anywhere` to the stretch
   * of `b` nearest it (Sellers' search: a stretch may start and end anywhere, so the first row costs nothing and the
   * last row's least is the answer); limit + 1 once it exceeds `limit` (a row's least never falls). */
  function editDistance(a, b, limit, anywhere = false) {
    if (a.length - b.length > limit || (!anywhere && b.length - a.length > limit)) return limit + 1;
    let before = null, previous = Array.from({ length: b.length + 1 }, (_, j) => anywhere ? 0 : j);
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
    return Math.min(anywhere ? Math.min(...previous) : previous[b.length], limit + 1);
  }

  /* How many edits a word of this length may be corrected by: 0 below minChars[1] letters, 1, or 2 from minChars[2]. */
  function editLimit(word, minChars) {
    return minChars.findLastIndex(n => word.length >= n);
  }

  /* The terms within `limit` edits of `target`, nearest first (then alphabetical): [[term, distance]]. */
  function withinEdits(target, candidates, limit) {
    return candidates.map(term => [term, editDistance(target, term, limit)]).filter(([, d]) => d <= limit)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  }

  /* Which of the `found` terms ([[term, distance]]) a misspelt word stands for: those that occur in an entry
   * together with the rest of the query (agreement.get(term) > 0, the number of such entries), else all; of
   * those the nearest, the most agreeing first; at most `max`. So `nccl timout` is read as `timeout` where an
   * entry has both words, not as an equally near term of another topic. */
  function chooseCorrections(found, agreement, max) {
    const agreeing = found.filter(([term]) => agreement.get(term) > 0);
    const pool = agreeing.length ? agreeing : found;
    const nearest = Math.min(...pool.map(([, d]) => d));
    return pool.filter(([, d]) => d === nearest)
      .sort((a, b) => (agreement.get(b[0]) || 0) - (agreement.get(a[0]) || 0)).slice(0, max);
  }

  return { editDistance, editLimit, withinEdits, chooseCorrections };
});
