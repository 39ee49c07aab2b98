// The web app's API types must be generated from the server's current OpenAPI
// document. The server's own test (crates/moat-server/tests/api.rs) checks that
// openapi.json matches the server; this one checks that schema.d.ts matches
// openapi.json. Together they fail whenever the two drift.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

describe('generated API types', () => {
  it('schema.d.ts is what openapi-typescript makes of openapi.json (run scripts/gen-api.sh)', async () => {
    const doc = JSON.parse(readFileSync(here('./openapi.json'), 'utf8'));
    const generated = astToString(await openapiTS(doc));
    const committed = readFileSync(here('./schema.d.ts'), 'utf8');
    const body = (s: string) => s.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
    expect(body(committed)).toBe(body(generated));
  });
});
