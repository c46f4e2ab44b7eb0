// The official SDK's side of the conformance test. Starts nothing: it is given the base URL
// of a running fake server, runs generate -> edit -> edit-local -> get -> delete -> get(404)
// -> streaming generate -> style edit -> generate on v1beta
// with @google/genai, checks what the SDK hands back, and prints one JSON summary line
// (the ids it used) on stdout. Exit status 1 with a readable message on any failure.
//
//   node sdk_flow.mjs --base-url http://127.0.0.1:PORT --key KEY --fixture FILE.png --style STYLE.jpg

import { readFileSync } from 'node:fs';
import { GoogleGenAI } from '@google/genai';

import { imageSize, matchesAspect } from './imagesize.mjs';
import { FLOW, MODEL } from './flow.mjs';

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`missing ${name}`);
  return process.argv[i + 1];
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function checkImage(label, interaction, ratio) {
  const image = interaction.output_image;
  check(image, `${label}: the SDK's output_image is missing (steps: ${JSON.stringify((interaction.steps || []).map((s) => s.type))})`);
  check(typeof image.data === 'string' && image.data.length > 0, `${label}: output_image has no inline data`);
  const size = imageSize(Buffer.from(image.data, 'base64'));
  check(matchesAspect(size, ratio),
    `${label}: output_image is ${size.width}x${size.height} (${size.type}), not aspect ${ratio}`);
  check(size.width * size.height > 100_000, `${label}: output_image is only ${size.width}x${size.height}`);
  return size;
}

async function main() {
  const baseUrl = arg('--base-url');
  const apiKey = arg('--key');
  const fixture = readFileSync(arg('--fixture'));
  const styleFixture = readFileSync(arg('--style'));
  const ai = new GoogleGenAI({ apiKey, httpOptions: { baseUrl } });
  const summary = { sizes: {} };

  // 1. generate
  const gen = await ai.interactions.create(FLOW.generate.sdkParams());
  check(gen.id, 'generate: no interaction id');
  check(gen.status === 'completed', `generate: status ${gen.status}`);
  summary.sizes.generate = checkImage('generate', gen, FLOW.generate.aspect);
  summary.generateId = gen.id;

  // 2. edit, continuing from the generated interaction
  const edit = await ai.interactions.create(FLOW.edit.sdkParams(gen.id));
  check(edit.id && edit.id !== gen.id, `edit: expected a new interaction id, got ${edit.id}`);
  summary.sizes.edit = checkImage('edit', edit, FLOW.edit.aspect);
  summary.editId = edit.id;

  // 3. edit-local: the fixture image inline, then the prompt
  const local = await ai.interactions.create(FLOW.editLocal.sdkParams(fixture));
  check(local.id, 'edit-local: no interaction id');
  summary.sizes.editLocal = checkImage('edit-local', local, FLOW.editLocal.aspect);
  summary.editLocalId = local.id;

  // 4. get the generated interaction back
  const got = await ai.interactions.get(gen.id);
  check(got.id === gen.id, `get: asked for ${gen.id}, got ${got.id}`);
  check(got.model === undefined || got.model === MODEL, `get: model ${got.model}`);
  checkImage('get', got, FLOW.generate.aspect);

  // 5. delete it; 6. get must now fail with 404
  await ai.interactions.delete(gen.id);
  let status = 0;
  try {
    await ai.interactions.get(gen.id);
  } catch (e) {
    status = e.status ?? -1;
  }
  check(status === 404, `get after delete: expected a 404 error, got ${status === 0 ? 'success' : status}`);

  // 7. streaming generate (SSE): collect the model_output image from the step deltas
  const stream = await ai.interactions.create(FLOW.streamGenerate.sdkParams());
  const steps = new Map();
  let streamId = null;
  let completed = false;
  for await (const event of stream) {
    if (event.event_type === 'interaction.created') streamId = event.interaction?.id;
    if (event.event_type === 'step.start') steps.set(event.index, { type: event.step?.type, image: '' });
    if (event.event_type === 'step.delta' && event.delta?.type === 'image') {
      const step = steps.get(event.index);
      check(step, `stream: image delta for unknown step ${event.index}`);
      step.image += event.delta.data || '';
    }
    if (event.event_type === 'interaction.completed') completed = event.interaction?.status === 'completed';
    if (event.event_type === 'error') throw new Error(`stream: error event ${JSON.stringify(event.error)}`);
  }
  check(streamId, 'stream: no interaction.created event with an id');
  check(completed, 'stream: no interaction.completed event with status completed');
  const outputs = [...steps.values()].filter((s) => s.type === 'model_output' && s.image);
  check(outputs.length > 0, 'stream: no image in a model_output step');
  const streamed = imageSize(Buffer.from(outputs[outputs.length - 1].image, 'base64'));
  check(matchesAspect(streamed, FLOW.streamGenerate.aspect),
    `stream: image is ${streamed.width}x${streamed.height}, not ${FLOW.streamGenerate.aspect}`);
  summary.sizes.stream = streamed;

  // 8. style edit: style image first, then the target, then the prompt (the seed's order)
  const styled = await ai.interactions.create(FLOW.styleEdit.sdkParams(fixture, styleFixture));
  summary.sizes.styleEdit = checkImage('style edit', styled, FLOW.styleEdit.aspect);

  // 9. the API version override: every path becomes /v1beta/...
  const beta = new GoogleGenAI({ apiKey, apiVersion: 'v1beta', httpOptions: { baseUrl } });
  const betaGen = await beta.interactions.create(FLOW.generateV1beta.sdkParams());
  summary.sizes.v1beta = checkImage('v1beta generate', betaGen, FLOW.generateV1beta.aspect);

  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((e) => {
  process.stderr.write(`SDK flow failed: ${e.message}\n`);
  process.exit(1);
});
