// Reference XIRR and TWR for crates/moat-portfolio/tests/reference.rs.
// Reads {"xirr": [{"values": [...], "dates": [excel serials]}], "twr": [[{"value", "flow"}]]}
// on stdin; prints {"xirr": [number|null], "twr": [number]}.
// XIRR is @formulajs/formulajs's (spreadsheet-compatible), resolved from web/node_modules.
// TWR is implemented here independently: sub-periods that each start at the start of a
// flow day (the flow counted in the money at work) and end at the close before the next
// flow day, chain-linked; a sub-period with no money at work is skipped.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(new URL('../../../../web/package.json', import.meta.url));
const formulajs = require('@formulajs/formulajs');

function twr(points) {
  let growth = 1;
  let atWork = null; // money at work at the start of the current sub-period
  for (let i = 1; i < points.length; i++) {
    const { value, flow } = points[i];
    if (flow !== 0 || atWork === null) {
      // A new sub-period starts this morning: close the last one at yesterday's close.
      if (atWork !== null && atWork > 0) growth *= points[i - 1].value / atWork;
      atWork = points[i - 1].value + flow;
    }
    if (i === points.length - 1 && atWork > 0) growth *= value / atWork;
  }
  return growth - 1;
}

const input = JSON.parse(readFileSync(0, 'utf8'));
const xirr = input.xirr.map(({ values, dates }) => {
  const r = formulajs.XIRR(values, dates);
  return typeof r === 'number' && Number.isFinite(r) ? r : null;
});
process.stdout.write(JSON.stringify({ xirr, twr: input.twr.map(twr) }));
