// Mocha's spec reporter plus one closing line in the form CI reads ("unit: N passed, N failed, N skipped").
// Used by the unit run and by the in-host integration run (which sets READGATE_TEST_LABEL).
'use strict';
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const label = process.env.READGATE_TEST_LABEL || 'unit';
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      Mocha.reporters.Base.consoleLog(`${label}: ${passes} passed, ${failures} failed, ${pending} skipped`);
    });
  }
}

module.exports = SummaryReporter;
