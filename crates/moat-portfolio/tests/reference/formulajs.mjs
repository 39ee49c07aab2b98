// Reference XIRR and TWR for crates/moat-portfolio/tests/reference.rs.
// Reads {"xirr": [{"values": [...], "dates": [excel serials]}], "twr": [[{"value", "flow"}]]}
// on stdin; prints {"xirr": [number|null], "twr": [number]}.
// XIRR is @formulajs/formulajs's (spreadsheet-compatible), resolved from web/node_modules.
// TWR is implemented here independently: sub-periods between flow days, chain-linked,
// flows at the end of their day (at the start when the portfolio was empty before).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(new URL('../../../../web/package.json', import.meta.url));
const formulajs = require('@formulajs/formulajs');

function twr(points) {
  let growth = 1;
  let startValue = points[0].value;
  for (let i = 1; i < points.length; i++) {
    const { value, flow } = points[i];
    const last = i === points.length - 1;
    if (flow === 0 && !last) continue;
    // The sub-period ends at the close of day i, before its flow.
    if (startValue > 0) {
      growth *= (value - flow) / startValue;
    } else if (flow > 0) {
      growth *= value / flow;
    }
    startValue = value;
  }
  return growth - 1;
}

const input = JSON.parse(readFileSync(0, 'utf8'));
const xirr = input.xirr.map(({ values, dates }) => {
  const r = formulajs.XIRR(values, dates);
  return typeof r === 'number' && Number.isFinite(r) ? r : null;
});
process.stdout.write(JSON.stringify({ xirr, twr: input.twr.map(twr) }));
