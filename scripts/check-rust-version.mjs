#!/usr/bin/env node
// Fails when a locked package needs a newer Rust than the workspace declares
// (`[workspace.package] rust-version` in Cargo.toml), or when a member crate does not
// inherit that declaration. cargo's resolver keeps *new* dependencies within the
// declared version (`.cargo/config.toml`: incompatible-rust-versions = "fallback"), but
// nothing else checks what is already in Cargo.lock: this does, in CI.
import { execFileSync } from 'node:child_process';

const metadata = JSON.parse(
  execFileSync('cargo', ['metadata', '--locked', '--format-version', '1'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }),
);

/** `1.89` or `1.89.0` as comparable numbers. */
const parse = (v) => v.split('.').map((n) => Number.parseInt(n, 10) || 0).concat([0, 0, 0]).slice(0, 3);
const newer = (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

const members = new Set(metadata.workspace_members);
const ours = metadata.packages.filter((p) => members.has(p.id));
const declared = [...new Set(ours.map((p) => p.rust_version))];
const problems = [];
if (declared.length !== 1 || !declared[0]) {
  problems.push(
    `every member crate must inherit the workspace's rust-version (rust-version.workspace = true); found: ${ours
      .map((p) => `${p.name}=${p.rust_version ?? 'none'}`)
      .join(', ')}`,
  );
}
const workspaceVersion = declared[0] ?? '0';
const tooNew = metadata.packages
  .filter((p) => !members.has(p.id) && p.rust_version && newer(p.rust_version, workspaceVersion))
  .map((p) => `${p.name} ${p.version} needs Rust ${p.rust_version}`);
if (tooNew.length > 0) {
  problems.push(`locked packages need a newer Rust than the declared ${workspaceVersion}:\n  ${tooNew.join('\n  ')}`);
}
if (problems.length > 0) {
  console.error(`moat: ${problems.join('\n')}`);
  process.exit(1);
}
const highest = metadata.packages
  .filter((p) => !members.has(p.id) && p.rust_version)
  .reduce((a, p) => (newer(p.rust_version, a.rust_version) ? p : a), { rust_version: '0' });
console.log(
  `rust-version ${workspaceVersion}: every locked package fits (the highest need is ${highest.name} ${highest.version}, Rust ${highest.rust_version}).`,
);
