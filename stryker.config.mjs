// StrykerJS over the search engine the browser runs (`make mutation-js`; docs/TESTING.md, "Mutation testing"):
// each mutant of static/assets/search/*.js is switched on in turn and the engine's node tests (tests/js/, node's
// own test runner, well under a second) decide whether it is killed. StrykerJS 9.5: version 10 needs Node.js 22,
// Debian ships 20.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // options.js is data: every weight and threshold, each stated as a literal by the tests that depend on it
  mutate: ["static/assets/search/*.js", "!static/assets/search/options.js"],
  testRunner: "command",
  commandRunner: {
    // every test file in one process (tests/js/run.js): a mutant takes one node start, not one per file
    command: "node tests/js/run.js",
  },
  coverageAnalysis: "off", // the command runner cannot tell which tests cover a mutant: every mutant runs them all
  // Instrumented in place: every mutant is in the files at once, switched on by an environment variable, so two
  // can run side by side (the files are restored afterwards).
  inPlace: true,
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: "mutants/stryker/report.json" },
  htmlReporter: { fileName: "mutants/stryker/report.html" },
};
