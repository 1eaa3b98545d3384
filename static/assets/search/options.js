/* Every weight and threshold of the search engine, in one place (docs/SEARCH.md). An Engine takes
 * these, or some of them overridden: new Engine(fetchJson, {options: {...}}). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).options = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const defaultSearchOptions = Object.freeze({
    // What reading a query term costs in the typo rule, by how it was read from what was typed: what was typed
    // beats what was converted, split, corrected, read as pinyin or brought in by a synonym.
    penalties: Object.freeze({
      typed: 0,
      variant: 1,   // traditional or Taiwan/Hong Kong wording of a simplified term
      parts: 1,     // a part of a name with digits the index lacks (opset14 → opset, 14)
      pinyin: 1,    // a Chinese term read from letters
      synonym: 1,   // another phrase of a synonym group of content/synonyms.yml (plus what the phrase cost)
      typo1: 1,     // a misspelt word corrected by one edit
      typo2: 2,     // ... by two
    }),
    typoMinChars: Object.freeze([0, 5, 9]),   // the shortest word corrected at that edit distance
    maxCorrections: 3,            // index terms taken per misspelt word
    maxCandidates: 12,            // terms within the edit limit weighed for agreement with the rest of the query
    maxCorrectedWords: 8,         // a long paste has only its first unknown words corrected
    closestEdits: 3,              // how far the terms offered when nothing matched may be from a typed word
    maxCharacterShare: 0.25,      // a lone Chinese character in more of the entries counts for the score only
    maxQueryChars: 200,           // longer pastes are analysed by their start (the message rule reads all)
    maxResults: 10,               // entries listed (and fetched) per query: what Material shows at once
    minMessageChars: 8,           // shorter error messages are too generic for the message rule
    minPartialChars: 16,          // a query this long found inside an error message counts for it too
    sectionsShown: 2,             // matching sections shown under an entry; more fold away
    linesShown: 3,                // matching lines shown per section
  });

  return { defaultSearchOptions };
});
