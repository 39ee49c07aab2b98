/**
 * Runs e2e/screenshots.mjs: every PNG is written (a real, non-trivial image of the right
 * size) and no page reported an error while being captured.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { assertNoErrors, launch } from '../support/fixtures.mjs';
import { NARROW, VIEWPORTS, takeScreenshots } from '../screenshots.mjs';

let env;
before(async () => {
  env = await launch();
});
after(() => env?.close());

test('screenshots of every screen (phone and desktop, Korean and English; 320 px) are written without page errors or sideways overflow', async () => {
  const startedAt = Date.now();
  const results = await takeScreenshots(env);
  const names = results.map((r) => r.name);
  for (const page of ['home', 'settings']) {
    for (const size of Object.keys(VIEWPORTS)) {
      for (const locale of ['ko', 'en']) assert.ok(names.includes(`${page}-${size}-${locale}`), `${page}-${size}-${locale}`);
    }
  }
  for (const page of ['home-member', 'portfolio', 'stock-held', 'settings']) assert.ok(names.includes(`${page}-narrow-ko`), `${page}-narrow-ko`);
  for (const { name, file, errors, overflowX } of results) {
    const info = await stat(file);
    assert.ok(info.mtimeMs >= startedAt - 1000, `${name} was written by this run`);
    const png = await readFile(file);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', `${name} is a PNG`);
    const width = png.readUInt32BE(16);
    const expected = name.includes('desktop') ? VIEWPORTS.desktop.width : name.includes('narrow') ? NARROW.width : VIEWPORTS.phone.width;
    assert.equal(width, expected, `${name} is ${expected} px wide`);
    assert.ok(png.length > 5000, `${name} is not blank`);
    // Nothing scrolls sideways, down to a 320 px phone.
    assert.ok(overflowX <= 0, `${name} overflows sideways by ${overflowX} px`);
    assertNoErrors(errors, { ignore: name.startsWith('not-found') ? [/status of 404/] : [] });
  }
});
