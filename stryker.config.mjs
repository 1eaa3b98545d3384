// StrykerJS over the search engine the browser runs (`make mutation-js`; docs/TESTING.md, "Mutation testing"):
// each mutant of static/assets/search/*.js is switched on in turn and the quick-layer tests that run the engine
// under node decide whether it is killed. StrykerJS 9.5: version 10 needs Node.js 22, Debian ships 20.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ["static/assets/search/*.js"],
  testRunner: "command",
  commandRunner: {
    // the tests in tests/test_search*.py that run engine.js under node (no site build, no browser)
    command: '.venv/bin/python -m pytest -x -q -n 0 -p no:cacheprovider -m "not site and not browser" tests/test_search*.py tests/test_analyzer_agreement.py',
  },
  coverageAnalysis: "off", // the command runner cannot tell which tests cover a mutant: every mutant runs the command
  inPlace: true, // pitfalls.settings.ENGINE_JS is the file in this checkout: mutate it there (it is restored afterwards)
  concurrency: 1, // in place, one mutant at a time
  timeoutMS: 120000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "mutants/stryker/report.json" },
};
