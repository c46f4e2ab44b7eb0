// A real MCP client against `nb2lite mcp`: the official TypeScript SDK (@modelcontextprotocol/sdk,
// pinned in package.json / package-lock.json) spawns `nb2lite mcp --demo --session TMP` over
// stdio and does what an agent does: lists the tools and checks their schemas, then
// generate -> edit (by the returned id) -> a fork that must fail -> edit_local on a test PNG ->
// style edit -> get_help -> list_frames -> branch_from, reads a frame resource, cancels a slow
// call, and checks the texts, structured content (the SDK validates it against each tool's
// outputSchema), image blocks, progress, logging and the session on disk. The environment holds
// a distinctive API key that must appear nowhere: not in any message, stderr, file or image.
//
//   node sdk_client.mjs --cli BIN --fixture FILE.png --style FILE.jpg

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { imageSize } from '../conformance/imagesize.mjs';

const KEY = 'nb2-sdk-secret-Zq81Lw4Yt6Mn'; // in the environment of the server; must never come back
const failures = [];
let checks = 0;

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    process.stderr.write(`usage: node sdk_client.mjs --cli BIN --fixture FILE.png --style FILE.jpg (missing ${name})\n`);
    process.exit(2);
  }
  return process.argv[i + 1];
}

function check(condition, what, detail = '') {
  checks += 1;
  if (!condition) {
    failures.push(`${what}${detail ? `: ${detail}` : ''}`);
    process.stderr.write(`mcp-sdk: FAIL: ${what}${detail ? `: ${detail}` : ''}\n`);
  }
  return condition;
}

const cli = resolve(arg('--cli'));
const fixture = resolve(arg('--fixture'));
const styleImage = resolve(arg('--style'));
const root = mkdtempSync(join(tmpdir(), 'nb2-mcp-sdk-'));
const session = join(root, 'session');
const outDir = join(root, 'out');
const home = join(root, 'home');
mkdirSync(home);

const env = { ...process.env };
for (const name of ['GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_MODEL_NAME', 'NB2LITE_SESSION']) delete env[name];
Object.assign(env, {
  GEMINI_API_KEY: KEY,
  IMAGE_OUTPUT_DIR: outDir,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
});

const stderrChunks = [];
const rawMessages = [];
const logs = [];
let resourceChanges = 0;

async function connect(extraArgs = []) {
  const transport = new StdioClientTransport({
    command: cli,
    args: ['mcp', '--demo', ...extraArgs, '--session', session],
    env,
    cwd: root,
    stderr: 'pipe',
  });
  transport.stderr.on('data', (chunk) => stderrChunks.push(Buffer.from(chunk)));
  const client = new Client({ name: 'nb2lite-sdk-test', version: '1.0.0' });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { resourceChanges += 1; });
  await client.connect(transport);
  // Every message the server sends from here on, as the client received it.
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => { rawMessages.push(JSON.stringify(message)); received(message, extra); };
  return { client, transport };
}

const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const imageBlocks = (result) => result.content.filter((c) => c.type === 'image');

function checkImageResult(result, what, { prefix, ratio }) {
  if (!check(!result.isError, `${what}: no error`, text(result))) return null;
  const s = result.structuredContent;
  check(s && typeof s.path === 'string', `${what}: structuredContent.path`);
  check(existsSync(s.path), `${what}: the saved file exists`, s.path);
  check(dirname(s.path) === join(session, 'images'), `${what}: saved in the session's images folder`, s.path);
  check(new RegExp(`^${prefix}_\\d{10}_[0-9a-f]{8}\\.jpg$`).test(basename(s.path)), `${what}: seed-style file name`, basename(s.path));
  for (const field of [s.path, s.interaction_id, s.frame_id]) check(text(result).includes(field), `${what}: the text names ${field}`);
  if (ratio) check(s.aspect_ratio === ratio, `${what}: aspect ratio ${ratio}`, s.aspect_ratio);
  const images = imageBlocks(result);
  if (check(images.length === 1, `${what}: one image block`)) {
    const bytes = Buffer.from(images[0].data, 'base64');
    const size = imageSize(bytes);
    check(images[0].mimeType === `image/${size.type}`, `${what}: image block MIME type`, images[0].mimeType);
    check(Math.max(size.width, size.height) <= 512, `${what}: preview is bounded`, `${size.width}x${size.height}`);
    check(!bytes.includes(Buffer.from(KEY)), `${what}: no key in the image block`);
  }
  check(result.content.some((c) => c.type === 'resource_link' && c.uri === `nb2lite://frame/${s.frame_id}`), `${what}: resource link`);
  const copy = s.copy_path;
  check(copy && existsSync(copy) && readFileSync(copy).equals(readFileSync(s.path)), `${what}: IMAGE_OUTPUT_DIR copy`, copy);
  return s;
}

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

async function main() {
  const { client } = await connect();
  check(client.getServerVersion()?.name === 'nb2lite', 'server name');
  const caps = client.getServerCapabilities() ?? {};
  check(caps.tools && caps.resources && caps.logging, 'tools, resources and logging capabilities', JSON.stringify(caps));
  check((client.getInstructions() ?? '').includes('edit_image'), 'instructions');

  // ---- tools and their schemas ----
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const expected = ['generate_image', 'edit_image', 'edit_local_image', 'edit_local_image_with_style', 'branch_from', 'list_frames', 'get_help'];
  check(JSON.stringify(tools.map((t) => t.name).sort()) === JSON.stringify([...expected].sort()), 'the seven tools', tools.map((t) => t.name).join(','));
  const gen = byName.generate_image?.inputSchema;
  check(JSON.stringify(gen?.required) === '["prompt"]', 'generate_image requires prompt');
  check(gen?.properties?.aspect_ratio?.default === '1:1' && gen.properties.aspect_ratio.enum.includes('16:9'), 'generate_image aspect_ratio');
  check(gen?.properties?.thinking_level?.default === 'low' && JSON.stringify(gen.properties.thinking_level.enum) === '["low","high"]',
    'thinking_level from the learned set', JSON.stringify(gen?.properties?.thinking_level));
  check(JSON.stringify(byName.edit_image?.inputSchema?.required) === '["previous_interaction_id","edit_prompt"]', 'edit_image arguments');
  check(byName.edit_local_image?.inputSchema?.properties?.aspect_ratio?.default === undefined, 'edit_local_image aspect_ratio follows the input');
  check(JSON.stringify(byName.edit_local_image_with_style?.inputSchema?.required) === '["image_path","style_image_path","edit_prompt"]', 'style arguments');
  check(JSON.stringify(byName.branch_from?.inputSchema?.required) === '["frame_or_interaction_id","edit_prompt"]', 'branch_from arguments');
  for (const t of tools) check(t.outputSchema?.type === 'object', `${t.name} has an outputSchema`);

  await client.setLoggingLevel('info');

  // ---- generate -> edit -> (fork refused) -> edit_local -> style ----
  let progress = 0;
  const generated = checkImageResult(
    await client.callTool({ name: 'generate_image', arguments: { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9' } }, undefined,
      { onprogress: () => { progress += 1; } }),
    'generate', { prefix: 'gen', ratio: '16:9' });
  check(progress >= 1, 'progress notifications while generating', String(progress));
  if (!generated) throw new Error('generate failed; nothing else can be checked');

  const edited = checkImageResult(
    await client.callTool({ name: 'edit_image', arguments: { previous_interaction_id: generated.interaction_id, edit_prompt: 'add a lantern' } }),
    'edit', { prefix: 'edit', ratio: '16:9' });
  check(edited?.parent_frame_id === generated.frame_id, 'edit continues the generated frame');
  check(edited?.continued_interaction_id === generated.interaction_id, 'edit sent the returned id');

  const fork = await client.callTool({ name: 'edit_image', arguments: { previous_interaction_id: generated.interaction_id, edit_prompt: 'add birds' } });
  check(fork.isError === true, 'editing an already continued image is refused');
  check(text(fork).includes('branch_from'), 'the refusal names branch_from', text(fork));

  const local = checkImageResult(
    await client.callTool({ name: 'edit_local_image', arguments: { image_path: fixture, edit_prompt: 'make it autumn' } }),
    'edit_local', { prefix: 'edit_local', ratio: '4:3' });
  check(local?.parent_frame_id === '', 'edit_local starts a new root');

  const styled = checkImageResult(
    await client.callTool({ name: 'edit_local_image_with_style', arguments: { image_path: fixture, style_image_path: styleImage, edit_prompt: 'as a woodblock print' } }),
    'style edit', { prefix: 'style_edit' });
  check(styled?.kind === 'style_edit', 'style edit kind');

  // ---- get_help, list_frames, branch_from ----
  const help = await client.callTool({ name: 'get_help', arguments: {} });
  check(!help.isError && help.structuredContent?.key_status === 'demo', 'get_help reports the demo backend', JSON.stringify(help.structuredContent));
  check(text(help).includes('branch_from') && text(help).includes('IMAGE_OUTPUT_DIR'), 'get_help explains');

  let listed = await client.callTool({ name: 'list_frames', arguments: {} });
  check(listed.structuredContent?.frames?.length === 4, 'list_frames: four frames', String(listed.structuredContent?.frames?.length));
  check(listed.structuredContent?.frames?.every((f) => f.origin === 'mcp' && f.status === 'done'), 'list_frames: the agent\'s, all done');

  const branched = checkImageResult(
    await client.callTool({ name: 'branch_from', arguments: { frame_or_interaction_id: generated.frame_id, edit_prompt: 'add a full moon' } }),
    'branch_from', { prefix: 'edit', ratio: '16:9' });
  check(branched?.parent_frame_id === generated.frame_id, 'branch_from forks from the chosen frame');
  listed = await client.callTool({ name: 'list_frames', arguments: {} });
  check(listed.structuredContent?.heads?.length === 4, 'two branches from the first frame plus two roots: four heads', JSON.stringify(listed.structuredContent?.heads));
  const oneBranch = await client.callTool({ name: 'list_frames', arguments: { branch: branched?.frame_id ?? '' } });
  check(JSON.stringify(oneBranch.structuredContent?.frames?.map((f) => f.id)) === JSON.stringify([generated.frame_id, branched?.frame_id]),
    'list_frames(branch) is that branch');

  // ---- resources ----
  const { resources } = await client.listResources();
  check(resources.length === 5, 'five frame resources', String(resources.length));
  const read = await client.readResource({ uri: `nb2lite://frame/${generated.frame_id}` });
  const blob = Buffer.from(read.contents[0].blob, 'base64');
  check(blob.equals(readFileSync(generated.path)) && read.contents[0].mimeType === 'image/jpeg', 'resources/read gives the full image');
  check(!blob.includes(Buffer.from(KEY)), 'no key in the resource');
  try {
    await client.readResource({ uri: 'nb2lite://frame/00000000' });
    check(false, 'an unknown resource is an error');
  } catch (e) {
    check(String(e.message).includes('Resource not found'), 'an unknown resource is an error', e.message);
  }
  check(logs.some((l) => l.level === 'info' && String(l.data).includes('frame')), 'log messages after setLoggingLevel', JSON.stringify(logs.slice(0, 3)));
  // The server batches resource-list changes (a short throttle); on the demo backend all five
  // turns can finish before it first fires, so wait for it (a bounded wait) instead of racing it.
  for (let waited = 0; resourceChanges === 0 && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  check(resourceChanges >= 1, 'resources/list_changed was sent after frames finished', String(resourceChanges));
  await client.close();

  // ---- a slow call, cancelled ----
  const slow = await connect(['--demo-latency', '6000']);
  const controller = new AbortController();
  let slowProgress = 0;
  const pending = slow.client.callTool({ name: 'generate_image', arguments: { prompt: 'too slow to wait for' } }, undefined, {
    signal: controller.signal,
    onprogress: () => { slowProgress += 1; if (slowProgress === 2) controller.abort('the user changed their mind'); },
  });
  let aborted = false;
  try { await pending; } catch { aborted = true; }
  check(aborted, 'the cancelled call rejects on the client');
  let cancelledFrame = null;
  for (let i = 0; i < 50 && !cancelledFrame; i += 1) {
    const frames = (await slow.client.callTool({ name: 'list_frames', arguments: {} })).structuredContent.frames;
    cancelledFrame = frames.find((f) => f.prompt === 'too slow to wait for' && f.status === 'cancelled') ?? null;
    if (!cancelledFrame) await new Promise((r) => setTimeout(r, 100));
  }
  check(cancelledFrame !== null, 'the cancelled call\'s frame is marked cancelled');
  check(cancelledFrame?.file === '', 'a cancelled frame has no image file');
  await slow.client.ping();
  await slow.client.close();

  // ---- the session on disk ----
  const manifest = JSON.parse(readFileSync(join(session, 'manifest.json'), 'utf8'));
  check(manifest.frames.length === 6, 'six frames in the manifest', String(manifest.frames.length));
  check(manifest.frames.every((f) => f.origin === 'mcp'), 'every frame is marked as the agent\'s');
  check(manifest.frames.filter((f) => f.status === 'done').length === 5, 'five done, one cancelled');
  const images = readdirSync(join(session, 'images'));
  for (const prefix of ['gen_', 'edit_', 'edit_local_', 'style_edit_', 'input_']) check(images.some((n) => n.startsWith(prefix)), `an ${prefix}* file`);

  // ---- never the key ----
  const key = Buffer.from(KEY);
  check(!rawMessages.some((m) => m.includes(KEY)), 'no key in any message', '');
  check(!Buffer.concat(stderrChunks).includes(key), 'no key on stderr');
  for (const file of [...filesUnder(session), ...filesUnder(outDir)]) check(!readFileSync(file).includes(key), `no key in ${file}`);
  check(rawMessages.length > 10 && resourceChanges >= 1, 'messages were recorded', `${rawMessages.length} messages, ${resourceChanges} resource changes`);
}

const watchdog = setTimeout(() => { check(false, 'timed out after 150 s'); finish(); }, 150000);
function finish() {
  clearTimeout(watchdog);
  if (failures.length) {
    process.stderr.write(`mcp-sdk: ${failures.length} of ${checks} checks FAILED\n`);
    process.stderr.write(`server stderr (tail):\n${Buffer.concat(stderrChunks).toString('utf8').slice(-3000)}\n`);
    process.exit(1);
  }
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(`mcp-sdk: all ${checks} checks passed\n`);
  process.exit(0);
}
main().then(finish, (e) => { check(false, 'unexpected exception', e.stack ?? String(e)); finish(); });
