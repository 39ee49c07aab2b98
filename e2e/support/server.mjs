/**
 * Starts one `moat` server for a test file: a fresh data directory, the built web app
 * (`web/dist`), an OS-chosen port (read from the "Moat is running at …" line), and waits for
 * `/readyz`. `stop()` sends SIGTERM, waits for the exit and removes the data directory.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (e2e/support → ../..). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `moat` binary: `MOAT_BIN`, else `$CARGO_TARGET_DIR/debug/moat`, else `target/debug/moat`. */
export function moatBinary() {
  if (process.env.MOAT_BIN) return process.env.MOAT_BIN;
  const targetDir = process.env.CARGO_TARGET_DIR || path.join(REPO_ROOT, 'target');
  return path.join(targetDir, 'debug', 'moat');
}

/**
 * The built web app. By default the server serves the app built into the binary (a
 * debug build reads `web/dist` at run time, a release build has it embedded), which is
 * the path users take; `MOAT_E2E_WEB_DIR` serves another build with `MOAT_WEB_DIR`.
 */
export function webDist() {
  return process.env.MOAT_E2E_WEB_DIR || path.join(REPO_ROOT, 'web', 'dist');
}

const STARTUP_TIMEOUT_MS = 20_000;
const RUNNING_LINE = /Moat is running at (http:\/\/\S+)/;

/**
 * @param {{ env?: Record<string, string>, args?: string[] }} [options] extra `MOAT_…` settings
 *   and command-line arguments
 * @returns {Promise<{ url: string, dataDir: string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startServer({ env = {}, args = [] } = {}) {
  const bin = moatBinary();
  const web = webDist();
  if (!existsSync(bin)) {
    throw new Error(`moat binary not found at ${bin}: run \`cargo build -p moat\` (or set MOAT_BIN)`);
  }
  if (!existsSync(path.join(web, 'index.html')) || !existsSync(path.join(web, 'webview-host.html'))) {
    throw new Error(`web app not built in ${web}: run \`cd web && npx vite build\` (or \`npm run build:app\` here)`);
  }

  const dataDir = await mkdtemp(path.join(tmpdir(), 'moat-e2e-'));
  const child = spawn(bin, args, {
    // The data dir is also the working directory, so no stray moat.toml is read.
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      MOAT_HOST: '127.0.0.1',
      MOAT_PORT: '0',
      MOAT_DATA_DIR: dataDir,
      ...(process.env.MOAT_E2E_WEB_DIR ? { MOAT_WEB_DIR: web } : {}),
      MOAT_WEBVIEW_HOST: 'true',
      MOAT_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killTimer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`moat did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output}`)),
        STARTUP_TIMEOUT_MS,
      );
      let buffer = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        buffer += chunk;
        const match = RUNNING_LINE.exec(buffer);
        if (match) {
          clearTimeout(timer);
          resolve(match[1].replace(/\/$/, ''));
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`moat exited during startup (code ${code}, signal ${signal}):\n${output}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    await waitForReady(url);
    return { url, dataDir, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForReady(url) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url}/readyz did not answer 200 (${last})`);
}
