/* `python -m pitfalls search` runs the site's engine here: node search_node.js ENGINE_JS SEARCH_DIR [OFF [OPTIONS [ENTRY]]]
 * reads a JSON list of queries on stdin and prints the ranked entries of each as a JSON list; the engine's stages
 * and rules named in OFF (comma-separated) are switched off, and OPTIONS (JSON) overrides options.js (tests,
 * benchmarks). With ENTRY (an entry's id), each answer is {ranked, standing}: where that entry ranks, and why. */
"use strict";
const fs = require("fs");
const path = require("path");

const [enginePath, searchDir, off = "", options = "{}", entry = ""] = process.argv.slice(2);
const { Engine } = require(path.resolve(enginePath));

async function main() {
  const queries = JSON.parse(fs.readFileSync(0, "utf-8"));
  const engine = new Engine(async file =>
    JSON.parse(await fs.promises.readFile(path.join(searchDir, file), "utf-8")),
    { off: off.split(",").filter(Boolean), options: JSON.parse(options) });
  const answers = [];
  for (const query of queries) {
    const { ranked } = await engine.search(query);
    answers.push(entry ? { ranked, standing: await engine.standing(query, entry) } : ranked);
  }
  process.stdout.write(JSON.stringify(answers));
}

main().catch(err => {
  console.error(err.stack || String(err));
  process.exit(1);
});
