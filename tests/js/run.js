/* Every test file of tests/js/ in one node process: what StrykerJS runs for each mutant (stryker.config.mjs), a
 * process start instead of one per file as `node --test tests/js/` does. Exits 1 when a test fails. */
"use strict";
const fs = require("fs");
const path = require("path");

for (const name of fs.readdirSync(__dirname).filter(n => n.endsWith(".test.js")).sort()) require(path.join(__dirname, name));
