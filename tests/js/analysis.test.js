/* analysis.js: text analysis as docs/SEARCH.md ("Index", text analysis) describes it, the same as pitfalls/text.py. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./helpers.js");

const analysis = load("analysis");

test("normalize: NFKC (full-width to ASCII) and lower case", () => {
  assert.equal(analysis.normalize("ＣＵＤＡ　Ｅｒｒｏｒ：１２"), "cuda error:12");
  assert.equal(analysis.normalize("显存 OOM"), "显存 oom");
});

test("keepWord: one letter, words over 30 characters and numbers over 4 digits are noise", () => {
  assert.equal(analysis.keepWord("a"), false);
  assert.equal(analysis.keepWord("ab"), true);
  assert.equal(analysis.keepWord("x".repeat(30)), true);
  assert.equal(analysis.keepWord("x".repeat(31)), false);
  assert.equal(analysis.keepWord("1"), false);
  assert.equal(analysis.keepWord("12"), true);
  assert.equal(analysis.keepWord("1234"), true);
  assert.equal(analysis.keepWord("12345"), false);
});

test("keepWord: UUIDs, 0x addresses and hex hashes (7+ hex digits with a letter and a digit) are noise", () => {
  assert.equal(analysis.keepWord("123e4567-e89b-12d3-a456-426614174000"), false);
  assert.equal(analysis.keepWord("0x7f"), false);
  assert.equal(analysis.keepWord("0x"), true);  // no address after it
  assert.equal(analysis.keepWord("0xg1"), true);  // not hex after 0x
  assert.equal(analysis.keepWord("a1b2c3d"), false);  // a short git hash
  assert.equal(analysis.keepWord("1234567a"), false);
  assert.equal(analysis.keepWord("a1b2c3"), true);  // six hex digits: not a hash
  assert.equal(analysis.keepWord("deadbeef"), true);  // hex letters, no digit: a word
  assert.equal(analysis.keepWord("abcdefabcdef"), true);
  assert.equal(analysis.keepWord("libcudnn8"), true);  // letters beyond a-f: a name, not a hash
  assert.equal(analysis.keepWord("resnet101"), true);
  assert.equal(analysis.keepWord("xa1b2c3d4"), true);  // a hash must be hex from start to end
  assert.equal(analysis.keepWord("a1b2c3d4x"), true);
});

test("stem: short words and words with digits stay as they are", () => {
  for (const word of ["gas", "key", "ss", "cuda13s", "a1ing"]) assert.equal(analysis.stem(word), word);
});

test("stem: plurals", () => {
  const cases = { bodies: "bodi", abies: "aby", ties: "tie", flies: "fly", classes: "class", matches: "match",
    wishes: "wish", boxes: "box", buzzes: "buzz", errors: "error", states: "stat", gpus: "gpus", status: "status",
    analysis: "analysis", process: "process", loss: "loss", axis: "axis", eyes: "eye", sees: "see", abes: "abe",
    // -es after s, ch, sh, x goes whole, even where the final -e rule would not take the e (too short)
    axes: "ax", sses: "ss", ches: "ch", shes: "sh",
    // -zes only its s: the plural of a -ze word meets it, whatever the final -e rule does (size keeps its e, prize not)
    sizes: "size", size: "size", prizes: "priz", prize: "priz", freezes: "freez", azes: "aze" };
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("stem: -ied as -ies, so that a past and a plural meet (kernel died, worker dies; tried, tries, try)", () => {
  const cases = { died: "die", dies: "die", die: "die", lied: "lie", tied: "tie", tried: "try", tries: "try", try: "try",
    cried: "cry", applied: "appli", applies: "appli", copied: "copi", studied: "studi" };
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("stem: the irregular pasts of the field's verbs meet their verbs (training hung: hang)", () => {
  const cases = { hung: "hang", froze: "freez", frozen: "freez", broke: "break", broken: "break", ran: "run",
    wrote: "writ", written: "writ", threw: "throw", thrown: "throw", built: "build", sent: "send",
    constructor: "constructor" };  // an object's inherited member is no verb
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("stem: a four-letter word keeps its final e, and -ed or -ing that leave consonant-vowel-consonant give it back", () => {
  // pipe is not pip, note not not, mode not mod; timed meets time, piping pipe; hopping is hop, fixed fix, sawing saw
  const cases = { pipe: "pipe", pipes: "pipe", piped: "pipe", piping: "pipe", pip: "pip", note: "note", noted: "note",
    not: "not", mode: "mode", time: "time", timed: "time", typed: "type", rating: "rate", hoping: "hope", hopping: "hop",
    fixed: "fix", sawing: "saw", cache: "cach", cached: "cach", state: "stat", rotation: "rot",
    // not consonant-vowel-consonant: four letters (locking), a vowel first (aimed, eating)
    locking: "lock", aimed: "aim", eating: "eat" };
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("stem: -ly after the consonants Porter2 takes it after, and w, from six letters (answers wrongly: wrong)", () => {
  const cases = { wrongly: "wrong", correctly: "correct", silently: "silent", randomly: "random", quickly: "quick",
    properly: "proper", suddenly: "sudden", completely: "complet", monthly: "month", slowly: "slow", narrowly: "narrow",
    // kept: too short (early, only, ugly, newly), after another letter (apply, reply, anomaly, family, -ally)
    early: "earli", only: "onli", ugly: "ugli", newly: "newli", apply: "appli", reply: "repli", anomaly: "anomali",
    family: "famili", finally: "finalli" };
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("stem: -ed, -ing, -ation, doubled consonants, final -e and -y", () => {
  const cases = { installation: "install", configuration: "configur", fooation: "foo", running: "run", stopped: "stop",
    stepping: "step", wrapped: "wrap", killed: "kill", missing: "miss", buzzing: "buzz", called: "call", passed: "pass",
    dressed: "dress", added: "add", adding: "add", fixing: "fix", trying: "try", crying: "cry", seeing: "see",
    agreeing: "agre", agreed: "agreed", freed: "freed", used: "used", sing: "sing", string: "string", dying: "dying",
    feeding: "feed", fooed: "foo", rebuilding: "rebuild", bbbing: "bbbing", abbing: "abb", nation: "nation",
    station: "station", rating: "rate", cache: "cach", trees: "tree", memory: "memori", copy: "copi", timeout: "timeout" };
  for (const [word, stemmed] of Object.entries(cases)) assert.equal(analysis.stem(word), stemmed, word);
});

test("nameParts: a name with letters and digits by its kept, stemmed parts", () => {
  assert.deepEqual(analysis.nameParts("fail2ban"), ["fail", "ban"]);
  assert.deepEqual(analysis.nameParts("resnet101"), ["resnet", "101"]);
  assert.deepEqual(analysis.nameParts("files22"), ["file", "22"]);
  assert.deepEqual(analysis.nameParts("cuda"), []);
  assert.deepEqual(analysis.nameParts("2024"), []);
  assert.deepEqual(analysis.nameParts("_"), []);
});

test("wordTerms: the stemmed word and its parts, nothing for noise", () => {
  assert.deepEqual(analysis.wordTerms("fail2ban"), ["fail2ban", "fail", "ban"]);
  assert.deepEqual(analysis.wordTerms("running"), ["run"]);
  assert.deepEqual(analysis.wordTerms("a1b2c3d4"), []);
  assert.deepEqual(analysis.wordTerms("x"), []);
});

test("englishTerms: the terms of the English words, Chinese runs left out", () => {
  assert.deepEqual(analysis.englishTerms("cuda out of memory 显存 ubuntu22"),
    ["cuda", "out", "of", "memori", "ubuntu22", "ubuntu", "22"]);
  assert.deepEqual(analysis.englishTerms("显存不足"), []);
});

test("PIECES: Chinese runs and English words or UUIDs, in order", () => {
  const pieces = [..."显存 oom 123e4567-e89b-12d3-a456-426614174000 了".matchAll(analysis.PIECES)].map(m => [m[1] || null, m[2] || null]);
  assert.deepEqual(pieces, [["显存", null], [null, "oom"], [null, "123e4567-e89b-12d3-a456-426614174000"], ["了", null]]);
  assert.deepEqual([..."\u3400\u4dbf\u4e00\u9fff\uf900\ufaff".matchAll(analysis.PIECES)].map(m => m[1]),
    ["\u3400\u4dbf\u4e00\u9fff\uf900\ufaff"]);
  assert.equal(analysis.HAN, "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff");
});

test("compounds: identifiers joined by . _ or - with a letter, whole, their words joined by _", () => {
  assert.deepEqual(analysis.compounds("use torch.load, nvidia-smi or max_model_len"), [
    { term: "torch_load", unit: "torch_load", start: 4, end: 14 },
    { term: "nvidia_smi", unit: "nvidia_smi", start: 16, end: 26 }, { term: "nvidiasmi", unit: "nvidia_smi", start: 16, end: 26 },
    { term: "max_model_len", unit: "max_model_len", start: 30, end: 43 }]);
  assert.deepEqual(analysis.compounds("pip 2.3.0 and 1-2"), []);  // version numbers are not identifiers
  assert.deepEqual(analysis.compounds("v2.3.0"), [{ term: "v2_3_0", unit: "v2_3_0", start: 0, end: 6 }]);
  assert.deepEqual(analysis.compounds("1.2.a"), [{ term: "1_2_a", unit: "1_2_a", start: 0, end: 5 }]);
  assert.deepEqual(analysis.compounds("torch"), []);
  const forty = "a".repeat(19) + "." + "b".repeat(20);
  assert.deepEqual(analysis.compounds(forty), [{ term: "a".repeat(19) + "_" + "b".repeat(20), unit: "a".repeat(19) + "_" + "b".repeat(20), start: 0, end: 40 }]);
  assert.deepEqual(analysis.compounds(forty + "b"), []);  // over 40 characters: a path or a paste
});

test("compounds: a name of two words joined by - or _ also reads as one word, stemmed, for the identifier's unit", () => {
  assert.deepEqual(analysis.compounds("first all_reduce hangs"), [
    { term: "all_reduce", unit: "all_reduce", start: 6, end: 16 }, { term: "allreduc", unit: "all_reduce", start: 6, end: 16 }]);
  assert.deepEqual(analysis.compounds("time-out, 4-bit, cuda-12").map(c => c.term), ["time_out", "timeout", "4_bit", "4bit", "cuda_12", "cuda12"]);
  // three words or dots: nobody writes max_model_len or torch.load joined
  assert.deepEqual(analysis.compounds("max_model_len torch.load").map(c => c.term), ["max_model_len", "torch_load"]);
  // a joined word that is noise (a hash) is not a word
  assert.deepEqual(analysis.compounds("abc-1234567").map(c => c.term), ["abc_1234567"]);
});

test("compounds: a dotted identifier's parts that are identifiers themselves, after it (is_available)", () => {
  assert.deepEqual(analysis.compounds("torch.cuda.is_available() and nn.functional.cross_entropy"), [
    { term: "torch_cuda_is_available", unit: "torch_cuda_is_available", start: 0, end: 23 },
    { term: "is_available", unit: "is_available", start: 11, end: 23 }, { term: "isavailabl", unit: "is_available", start: 11, end: 23 },
    { term: "nn_functional_cross_entropy", unit: "nn_functional_cross_entropy", start: 30, end: 57 },
    { term: "cross_entropy", unit: "cross_entropy", start: 44, end: 57 }, { term: "crossentropi", unit: "cross_entropy", start: 44, end: 57 }]);
  // parts that are plain words (torch, load) or numbers are the words' own terms already
  assert.deepEqual(analysis.compounds("torch.load v2.3.0"), [{ term: "torch_load", unit: "torch_load", start: 0, end: 10 },
    { term: "v2_3_0", unit: "v2_3_0", start: 11, end: 17 }]);
  // a part keeps its place even when the whole is too long to be a name
  const long = "a".repeat(30) + ".max_model_len";
  assert.deepEqual(analysis.compounds(long), [{ term: "max_model_len", unit: "max_model_len", start: 31, end: 44 }]);
});

test("messageKey: normalized; letters, digits, Chinese and the symbols that are content", () => {
  assert.equal(analysis.messageKey("CUDA error: out of memory!"), "cudaerroroutofmemory");
  assert.equal(analysis.messageKey("显存 不足（OOM）"), "显存不足oom");
  assert.equal(analysis.messageKey("ＯＯＭ_killed-1"), "oomkilled1");
  // separators, quotes, brackets and markup go; < > + % # @ $ & stay: '<' and 'v' are two different messages
  assert.equal(analysis.messageKey("_pickle.UnpicklingError: invalid load key, '<'."), "pickleunpicklingerrorinvalidloadkey<");
  assert.equal(analysis.messageKey("`g++` at 100%: #include <x> @ $HOME && ~/a.*b=c|d^e;f?[g]{h}\"\\"), "g++at100%#include<x>@$home&&abcdefgh");
});

test("messageIn: an error message's runs (a space between) each found after the one before; messageChars without the spaces", () => {
  const key = analysis.messageKey("packet_write_wait: Connection to 10.0.0.5 port 22: Broken pipe");
  assert.equal(analysis.messageIn(key, "connectionto port brokenpipe"), true);
  assert.equal(analysis.messageIn(key, "brokenpipe connectionto"), false);  // in another order
  assert.equal(analysis.messageIn(key, "brokenpipe pipe"), false);  // a run does not overlap the one before it
  assert.equal(analysis.messageIn(key, "connectiontoport"), false);  // one run: whole, as typed
  assert.equal(analysis.messageIn(key, "packetwritewaitconnectionto"), true);
  assert.equal(analysis.messageChars("connectionto port brokenpipe"), 26);
  assert.equal(analysis.messageChars("oomkilled"), 9);
});

test("isHan: a term that starts with a Chinese character", () => {
  assert.equal(analysis.isHan("显存"), true);
  assert.equal(analysis.isHan("\u3400"), true);
  assert.equal(analysis.isHan("\uf900"), true);
  assert.equal(analysis.isHan("a显"), false);
  assert.equal(analysis.isHan("cuda"), false);
});

test("shardOf: FNV-1a over the code points of the term, a Chinese term by its first character, by two where that one is split", () => {
  // the values of pitfalls/pages/search_index.py shard_of
  assert.equal(analysis.shardOf("abc", 2 ** 32), 440920331);
  assert.equal(analysis.shardOf("cuda", 2 ** 32), 2340616438);
  assert.equal(analysis.shardOf("a😀", 2 ** 32), 769020484);
  assert.equal(analysis.shardOf("", 2 ** 32), 2166136261);
  assert.equal(analysis.shardOf("显存", 2 ** 32), 1000385569);
  assert.equal(analysis.shardOf("显", 2 ** 32), 1000385569);
  // 显 split: its words by their first two characters; itself, and the words of another character, as before
  assert.equal(analysis.shardOf("显存不足", 2 ** 32, "不显"), 1466274683);
  assert.equal(analysis.shardOf("显存", 2 ** 32, "不显"), 1466274683);
  assert.equal(analysis.shardOf("显", 2 ** 32, "不显"), 1000385569);
  assert.equal(analysis.shardOf("存储", 2 ** 32, "不显"), analysis.shardOf("存", 2 ** 32));
  assert.equal(analysis.shardOf("显𠀀", 2 ** 32, "显"), 34928627);  // the second character by code point
  assert.equal(analysis.shardOf("abc", 16), 11);
  assert.equal(analysis.shardOf("cuda", 16), 6);
});

test("shardHomes: a synonym group's English terms in its first word's shard, with their first group", () => {
  // the groups and homes of tests/test_search_index.py (search_index.py shard_homes)
  const groups = [[["显存不足"], ["oom"], ["out", "of", "memori"]], [["显存"], ["vram"], ["gpu", "memori"]],
    [["hang"], ["卡住"], ["freez"]], [["卡死"], ["hang"], ["stuck"]], [["freez"], ["假死"], ["frozen"]], [[]], [[], ["nan"]]];
  assert.deepEqual(Object.fromEntries(analysis.shardHomes(groups)), {
    oom: "显存不足", out: "显存不足", of: "显存不足", memori: "显存不足", vram: "显存", gpu: "显存",
    hang: "hang", freez: "hang", stuck: "卡死", frozen: "hang", nan: "nan" });
});

test("shardProbes: each character that may start a term, and a split one with the character after it", () => {
  assert.deepEqual(analysis.shardProbes("显存不足", ""), ["显", "存", "不", "足"]);
  assert.deepEqual(analysis.shardProbes("显存不足", "不显"), ["显", "显存", "存", "不", "不足", "足"]);
  // terms start only in the first two characters, but the second one's term may reach past them
  assert.deepEqual(analysis.shardProbes("显存怎么办", "存", 2), ["显", "存", "存怎"]);
  assert.deepEqual(analysis.shardProbes("显", "显"), ["显"]);
  assert.deepEqual(analysis.shardProbes("", "显"), []);
  assert.deepEqual(analysis.shardProbes("𠀀显", "𠀀"), ["𠀀", "𠀀显", "显"]);  // by code point
});
