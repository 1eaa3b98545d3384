/* Every weight and threshold of the search engine, in one place (docs/SEARCH.md). An Engine takes
 * these, or some of them overridden: new Engine(fetchJson, {options: {...}}). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else (root.PitfallSearch = root.PitfallSearch || {}).options = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const defaultSearchOptions = Object.freeze({
    // How a query term was read from what was typed. `weight`: what its match counts for in the words rule,
    // against a typed word's 1 (a reading is a guess: it counts less than the word typed would in the same
    // place); `penalty`: its cost in the typo rule.
    readings: Object.freeze({
      typed: Object.freeze({ weight: 1, penalty: 0 }),
      variant: Object.freeze({ weight: 1, penalty: 1 }),    // traditional or Taiwan/Hong Kong wording of a simplified term
      reorder: Object.freeze({ weight: 1, penalty: 1 }),    // two words typed next to each other, read in the other order
      parts: Object.freeze({ weight: 0.6, penalty: 1 }),    // a part of a name with digits the index lacks (opset14 → opset, 14)
      pinyin: Object.freeze({ weight: 0.6, penalty: 1 }),   // a Chinese term read from letters
      synonym: Object.freeze({ weight: 0.5, penalty: 1 }),  // another phrase of a synonym group (times what the phrase counted)
      typo1: Object.freeze({ weight: 0.5, penalty: 1 }),    // a misspelt word corrected by one edit
      typo2: Object.freeze({ weight: 0.3, penalty: 2 }),    // ... by two
      completion: Object.freeze({ weight: 0.5, penalty: 1 }),  // the last word, still being typed, read as a term it begins
    }),
    titleWeight: 2,               // the words rule counts an entry's match × (1 + this × how far its title is the query)
    linkWeight: 0.1,              // ... and × (1 + this × how many entries name it in `related`, 0 … 1 on a log scale):
                                  // the general entry its specific neighbours point to, before them
    bodyLength: 0.75,             // ... a match only in the body (fields counting bodyMatch or less) × 1 / (1 − this + this ×
                                  // the entry's length over the average): a short entry's body says more of the query
    phraseWeight: 0.25,           // ... and × (1 + this × the share of the query (its weighed pieces) in phrases whose words the
                                  // index has only apart, where the entry says one as typed in its title, a tag, a keyword,
                                  // the quick fix or a symptom: a Chinese word typed alone that the segmenter split (端口占用
                                  // of 分布式 端口占用), an English stretch of two words or more (connection timed out), and
                                  // the stretch with its symbols, once more (bad interpreter ^M); known for the first
                                  // maxResults entries (their d/ files)
    maxPhraseChars: 6,            // ... a Chinese word typed alone: a run of at most this many characters, no filler in it
    bodyMatch: 0.4,               // the body: the steps, cause, verification, environment and the other language
    minLengthShare: 0.25,         // an entry shorter than this share of the average counts as this long
    echoLetters: 2,               // a title with fewer English letters a Chinese character is Chinese with English names in
                                  // it (容器内看不到 GPU): an English query is measured against all of it, not its English only
    rarityFloor: 0.05,            // a word in fewer entries than this share counts as rare as one in this share
    characterWeight: 0.5,         // a lone Chinese character no word of the query covers counts half a word
    maxCharacterShare: 0.25,      // ... and nothing when it is in more of the entries (了, 不)
    maxPhraseWordShare: 0.25,     // a word of a synonym phrase of several stands for nothing when in more of the entries
                                  // (train of resume training: it is there for other reasons)
    insideWordMatch: 0.5,         // a Chinese term in an entry only inside its words (a lone character: 爆 in 梯度爆炸;
                                  // a word overlapping them: 定性 in 稳定性) counts this share of a match there
    typoMinChars: Object.freeze([0, 5, 9]),   // the shortest word corrected at that edit distance
    maxCorrections: 3,            // index terms taken per misspelt word
    maxCandidates: 12,            // terms within the edit limit weighed for agreement with the rest of the query
    maxCorrectedWords: 8,         // a long paste has only its first unknown words corrected
    minCompletionChars: 3,        // the last word is completed from this many letters (the index's c/ files are keyed by 3)
    closestEdits: 3,              // how far the terms offered when nothing matched may be from a typed word
    maxQueryChars: 200,           // longer pastes are analysed by their first and last 100 (the message rule reads all)
    maxResults: 10,               // entries listed (and fetched) per query: what Material shows at once
    minMessageChars: 8,           // shorter error messages are too generic for the message rule
    minPartialChars: 16,          // a query this long found inside an error message counts for it too
    partialMessageSteps: 4,       // ... by how much of the message the query is, in this many steps (ranking.js
                                  // partialMessage): a line the query is more of before one it is a small part of
    sectionsShown: 2,             // matching sections shown under an entry; more fold away
    linesShown: 3,                // matching lines shown per section
  });

  return { defaultSearchOptions };
});
