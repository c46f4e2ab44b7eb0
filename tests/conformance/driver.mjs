// CTest driver of the SDK conformance test:
//   1. starts nb2lite-fakeapi on an ephemeral port and reads its "listening on" line;
//   2. runs sdk_flow.mjs (the official @google/genai SDK) against it;
//   3. runs the same calls with `nb2lite --base-url URL --json ...` (key via GEMINI_API_KEY);
//   4. compares, call by call, the requests both clients sent (from GET /_fake/requests):
//      method, path, query, key header, content type, and the JSON bodies after
//      normalising interaction ids, first by value, then by key order.
// The streamed generate (SSE) is compared too. Any mismatch prints a readable diff and the test fails.
//
//   node driver.mjs --fakeapi BIN --cli BIN --fixture FILE.png --style STYLE.jpg

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareRequests } from './compare.mjs';
import { FLOW } from './flow.mjs';
import { imageSize, matchesAspect } from './imagesize.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const KEY = 'conformance-key';
const failures = [];

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) fatal(`usage: node driver.mjs --fakeapi BIN --cli BIN --fixture FILE.png --style FILE.jpg (missing ${name})`);
  return process.argv[i + 1];
}

let fakeChild = null; // killed on every way out, so no server outlives the test

function fatal(message) {
  process.stderr.write(`conformance: FAIL: ${message}\n`);
  if (fakeChild) fakeChild.kill('SIGTERM');
  process.exit(1);
}

// CTest has its own timeout; this one still stops the fake server and says where it hung.
setTimeout(() => fatal('timed out after 150 s'), 150_000).unref();

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (e) => resolve({ code: -1, stdout, stderr: `${stderr}${e.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function startFake(binary) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--port', '0', '--key', KEY], { stdio: ['ignore', 'pipe', 'pipe'] });
    fakeChild = child;
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" line from ${binary} within 20 s; stderr: ${err}`)), 20_000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening on (http:\/\/127\.0\.0\.1:\d+)\s*$/m);
      if (m) {
        clearTimeout(timer);
        resolve({ child, baseUrl: m[1] });
      }
    });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${binary} exited (${code}) before listening; stderr: ${err}`)); });
  });
}

async function requestLog(baseUrl) {
  const response = await fetch(`${baseUrl}/_fake/requests`);
  if (!response.ok) throw new Error(`GET /_fake/requests answered ${response.status}`);
  const data = await response.json();
  const list = Array.isArray(data) ? data : data.requests;
  if (!Array.isArray(list)) throw new Error('GET /_fake/requests: expected a JSON array (or {requests: [...]})');
  return list.filter((r) => !String(r.path).startsWith('/_fake'));
}

async function cli(binary, baseUrl, outDir, home, args) {
  const env = { ...process.env };
  for (const k of ['GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_MODEL_NAME', 'IMAGE_OUTPUT_DIR']) delete env[k];
  Object.assign(env, { GEMINI_API_KEY: KEY, HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  const argv = ['--base-url', baseUrl, '--json', '--out', outDir, ...args];
  if (argv.includes(KEY)) fatal('the key must never be on the command line');
  const result = await run(binary, argv, { env });
  let json = null;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    failures.push(`nb2lite ${args[0]}: stdout is not one JSON object: ${JSON.stringify(result.stdout)} (stderr: ${result.stderr.trim()})`);
  }
  if (result.stdout.includes(KEY) || result.stderr.includes(KEY)) failures.push(`nb2lite ${args[0]}: the key appeared in its output`);
  return { ...result, json };
}

function expectCliImage(label, result, ratio) {
  if (!result.json) return null;
  if (result.code !== 0 || !result.json.ok) {
    failures.push(`nb2lite ${label}: exit ${result.code}, error ${JSON.stringify(result.json.error)}; stderr: ${result.stderr.trim()}`);
    return null;
  }
  try {
    const size = imageSize(readFileSync(result.json.path));
    if (!matchesAspect(size, ratio)) failures.push(`nb2lite ${label}: saved image is ${size.width}x${size.height}, not ${ratio}`);
  } catch (e) {
    failures.push(`nb2lite ${label}: saved image ${result.json.path}: ${e.message}`);
  }
  return result.json.interaction_id;
}

async function main() {
  if (!existsSync(join(here, 'node_modules', '@google', 'genai', 'package.json')))
    fatal(`${join(here, 'node_modules')} is missing: run ./test.sh (it runs "npm ci" in tests/conformance) first`);
  const fakeapi = arg('--fakeapi');
  const cliBinary = arg('--cli');
  const fixture = arg('--fixture');
  const styleFixture = arg('--style');
  for (const [what, path] of [['nb2lite-fakeapi', fakeapi], ['nb2lite', cliBinary], ['fixture', fixture], ['style fixture', styleFixture]])
    if (!existsSync(path)) fatal(`${what} not found at ${path} (build first)`);

  const { child: fake, baseUrl } = await startFake(fakeapi);
  fakeChild = fake;
  const work = mkdtempSync(join(tmpdir(), 'nb2-conformance-'));
  try {
    // --- the SDK ---
    const sdk = await run(process.execPath, [join(here, 'sdk_flow.mjs'), '--base-url', baseUrl, '--key', KEY, '--fixture', fixture, '--style', styleFixture]);
    if (sdk.code !== 0) fatal(`the SDK flow against the fake server failed:\n${sdk.stderr}${sdk.stdout}`);
    process.stdout.write(`SDK flow ok: ${sdk.stdout}`);
    const sdkRequests = await requestLog(baseUrl);

    // --- nb2lite, the same calls ---
    const gen = await cli(cliBinary, baseUrl, work, work, FLOW.generate.cliArgs());
    const genId = expectCliImage('generate', gen, FLOW.generate.aspect);
    if (!genId) fatal(`nb2lite generate failed, cannot continue:\n  ${failures.join('\n  ')}`);
    const edit = await cli(cliBinary, baseUrl, work, work, FLOW.edit.cliArgs(genId));
    expectCliImage('edit', edit, FLOW.edit.aspect);
    const local = await cli(cliBinary, baseUrl, work, work, FLOW.editLocal.cliArgs(fixture));
    expectCliImage('edit-local', local, FLOW.editLocal.aspect);
    const got = await cli(cliBinary, baseUrl, work, work, ['get', genId]);
    if (got.code !== 0 || got.json?.interaction_id !== genId)
      failures.push(`nb2lite get: exit ${got.code}, ${got.stdout.trim()} ${got.stderr.trim()}`);
    const del = await cli(cliBinary, baseUrl, work, work, ['delete', genId]);
    if (del.code !== 0 || !del.json?.ok) failures.push(`nb2lite delete: exit ${del.code}, ${del.stdout.trim()} ${del.stderr.trim()}`);
    const gone = await cli(cliBinary, baseUrl, work, work, ['get', genId]);
    if (gone.code !== 6 || gone.json?.error?.kind !== 'not_found' || gone.json?.error?.http_status !== 404)
      failures.push(`nb2lite get after delete: expected exit 6 and error not_found/404, got exit ${gone.code}: ${gone.stdout.trim()}`);

    const streamed = await cli(cliBinary, baseUrl, work, work, FLOW.streamGenerate.cliArgs());
    expectCliImage('--stream generate', streamed, FLOW.streamGenerate.aspect);
    const styled = await cli(cliBinary, baseUrl, work, work, FLOW.styleEdit.cliArgs(fixture, styleFixture));
    expectCliImage('edit-local --style', styled, FLOW.styleEdit.aspect);
    const beta = await cli(cliBinary, baseUrl, work, work, FLOW.generateV1beta.cliArgs());
    expectCliImage('--api-version v1beta generate', beta, FLOW.generateV1beta.aspect);

    const all = await requestLog(baseUrl);
    const ours = all.slice(sdkRequests.length);

    // --- compare request by request ---
    const labels = ['generate', 'edit', 'edit-local', 'get', 'delete', 'get (after delete)', 'generate (stream)',
      'style edit', 'generate (v1beta)'];
    if (sdkRequests.length !== labels.length)
      failures.push(`the SDK made ${sdkRequests.length} requests, expected ${labels.length}: ${sdkRequests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    if (ours.length !== sdkRequests.length)
      failures.push(`nb2lite made ${ours.length} requests, the SDK ${sdkRequests.length}:\n    SDK:     ${sdkRequests.map((r) => `${r.method} ${r.path}`).join(', ')}\n    nb2lite: ${ours.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const betaIndex = labels.indexOf('generate (v1beta)');
    if (sdkRequests[betaIndex] && !String(sdkRequests[betaIndex].path).startsWith('/v1beta/'))
      failures.push(`the SDK's v1beta call went to ${sdkRequests[betaIndex].path}; the test no longer checks v1beta`);
    const n = Math.min(ours.length, sdkRequests.length);
    for (let i = 0; i < n; i++) failures.push(...compareRequests(labels[i] ?? `request ${i + 1}`, sdkRequests[i], ours[i]));

    if (failures.length) {
      process.stderr.write(`conformance: FAIL (${failures.length} difference(s)):\n  ${failures.join('\n  ')}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`conformance: OK: ${n} requests of nb2lite equal the SDK's (values and key order); SDK output images have the requested aspect ratios\n`);
    }
  } finally {
    fake.removeAllListeners('exit');
    fake.kill('SIGTERM');
    fakeChild = null;
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => fatal(e.stack || e.message));
