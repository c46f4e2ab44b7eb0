// nb2lite-bench's SDK side of the turn-overhead case: what a user of the official
// @google/genai SDK writes to make one image and keep it — create, decode the image, write the
// file — timed from the call to the file on disk. Prints one JSON line: {"ms": [per run]}.
//
//   node sdk_turn.mjs --base-url URL --out FILE [--runs N] [--fsync]   (the key comes from GEMINI_API_KEY)
//
// --fsync also makes the file durable (fsync before close), as the floor and our client do; without
// it the script writes the way most SDK users do, and that figure is the one the target is set on.

import { closeSync, fsyncSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { GoogleGenAI } from '@google/genai';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    if (fallback !== undefined) return fallback;
    throw new Error(`missing ${name}`);
  }
  return process.argv[i + 1];
}

async function main() {
  const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY, httpOptions: { baseUrl: arg('--base-url') } });
  const out = arg('--out');
  const runs = Number(arg('--runs', '1'));
  const durable = process.argv.includes('--fsync');
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const interaction = await ai.interactions.create({
      model: 'gemini-3.1-flash-lite-image',
      input: `bench turn ${i}: a harbour at dusk`,
      response_format: { type: 'image', aspect_ratio: '1:1' },
      generation_config: { thinking_level: 'low' },
      store: true,
    });
    const image = interaction.output_image;
    if (!image || !image.data) throw new Error('no output_image');
    const bytes = Buffer.from(image.data, 'base64');
    if (durable) {
      const fd = openSync(out, 'w');
      writeSync(fd, bytes);
      fsyncSync(fd);
      closeSync(fd);
    } else {
      writeFileSync(out, bytes);
    }
    ms.push(performance.now() - t0);
  }
  console.log(JSON.stringify({ ms }));
}

main().catch((e) => {
  console.error(`sdk_turn: ${e.message}`);
  process.exit(1);
});
