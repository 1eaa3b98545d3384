/* Material's result shape: items = [[entry, ...its sections], ...], each {location, title, text, tags, score,
 * terms}. Material inserts title, text and tags as HTML: all record text is escaped here, and only <mark> and
 * <p> are added. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./analysis.js"));
  else (root.PitfallSearch = root.PitfallSearch || {}).results = factory(root.PitfallSearch.analysis);
})(typeof self !== "undefined" ? self : this, function (analysis) {
  "use strict";

  const { HAN, isHan, keepWord, stem, compounds } = analysis;

  // a run of Chinese, or a word or an identifier of words joined by . _ or - (all_reduce, torch.load)
  const DISPLAY_PIECES = new RegExp(`[${HAN}]+|[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*`, "g");

  // Stryker disable next-line Regex: a shortcut (below), a piece read as an identifier is marked the same
  const SEPARATOR = /[._-]/;  // an identifier has one (analysis.js compounds)

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
  }

  /* Escapes `text` and marks the words that matched: Chinese terms longest first, English by stem, an identifier
   * whole when it matched as one (all_reduce, found as allreduce), else its words. `stems`: each word's term as it is
   * read (null when analysis drops it), shared by the result items of a search: their lines say the same words. */
  function highlighter(matched, stems = new Map()) {
    const han = [...matched].filter(isHan).sort((a, b) => b.length - a.length);
    const markWord = word => {
      let term = stems.get(word);
      if (term === undefined) stems.set(word, term = keepWord(word.toLowerCase()) ? stem(word.toLowerCase()) : null);
      return matched.has(term) ? `<mark>${word}</mark>` : word;
    };
    const markPiece = piece => {
      // Stryker disable next-line ConditionalExpression: a shortcut, as an identifier of one word is marked the same
      if (!SEPARATOR.test(piece)) return markWord(piece);
      if (compounds(piece.toLowerCase()).some(({ term }) => matched.has(term))) return `<mark>${piece}</mark>`;
      return piece.replace(/[A-Za-z0-9]+/g, markWord);
    };
    return text => {
      let out = "", last = 0;
      for (const m of text.matchAll(DISPLAY_PIECES)) {
        out += escapeHtml(text.slice(last, m.index));
        last = m.index + m[0].length;
        const piece = m[0];
        if (isHan(piece)) {
          for (let i = 0; i < piece.length;) {
            const term = han.find(t => piece.startsWith(t, i));
            out += term ? `<mark>${term}</mark>` : piece[i];
            i += term ? term.length : 1;
          }
        } else {
          out += markPiece(piece);
        }
      }
      return out + escapeHtml(text.slice(last));
    };
  }

  /* One entry: the entry, then the sections (symptoms, steps …) where its matched terms are, with the matching
   * lines highlighted; `sectionsShown` show, more fold under Material's "more results on this page". `stems`: as
   * highlighter's. */
  function entryItem(hit, terms, manifest, options, stems = new Map()) {
    const doc = hit.data;
    const mark = highlighter(hit.matched, stems);
    const matchedTerms = {};
    for (const term of hit.matched) {
      const surface = terms.get(term).surface;
      if (surface) matchedTerms[surface] = true;
    }
    const sections = [];
    for (const [bit, lines] of doc.sections) {
      const [name, anchor, heading] = manifest.fields[bit];
      if (name === "quick_fix" || !(hit.flags & (1 << bit))) continue;
      const shown = [];  // the first linesShown lines with a match (the rest are not marked: most of an entry's lines)
      for (let k = 0; k < lines.length && shown.length < options.linesShown; k++) {
        const html = mark(lines[k]);
        if (html.includes("<mark>")) shown.push(html);
      }
      sections.push({
        location: `${doc.location}#${anchor}`, title: escapeHtml(heading),
        text: (shown.length ? shown : [mark(lines[0])]).map(html => `<p>${html}</p>`).join(""),
        terms: matchedTerms,
      });
    }
    const quickFix = doc.sections.find(([bit]) => manifest.fields[bit][0] === "quick_fix");
    const score = hit.score;
    return [
      { location: doc.location, title: mark(doc.title), text: quickFix ? `<p>${mark(quickFix[1][0])}</p>` : "",
        tags: doc.tags.map(escapeHtml), score, terms: matchedTerms },
      ...sections.map((section, i) => ({ ...section, score: i < options.sectionsShown ? score : score / 2 })),
    ];
  }

  /* What the list shows when nothing matched: says so in the site's language, offers the index terms nearest to
   * the words typed (`nearest`) and the tag index. Material lists it like a result. */
  function noResultsItem(messages, nearest) {
    const listed = nearest.map(escapeHtml).join(", ");
    const text = (nearest.length ? `<p>${escapeHtml(messages.closest).replace("{terms}", listed)}</p>` : "")
      + `<p>${escapeHtml(messages.browse)}</p>`;
    return [{ location: messages.browseLocation, title: escapeHtml(messages.none), text, tags: [], score: 0, terms: {} }];
  }

  /* What the list shows when the site's index is of another format than this engine reads (a page of an older
   * build cached beside a newer index, or the other way round): reload. Written here, not read from the
   * manifest, because a manifest of another format is not read. */
  const OUTDATED = { zh: "搜索索引已过期，请刷新页面", en: "The search index is out of date: reload the page" };
  function outdatedItem(lang) {
    const title = OUTDATED[lang] || `${OUTDATED.zh} · ${OUTDATED.en}`;
    return [{ location: "./", title: escapeHtml(title), text: "", tags: [], score: 0, terms: {} }];
  }

  return { escapeHtml, highlighter, entryItem, noResultsItem, outdatedItem };
});
