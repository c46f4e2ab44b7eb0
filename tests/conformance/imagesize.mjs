// Pixel size of a PNG or JPEG from its header bytes (no decoder dependency), so the
// conformance test can check the aspect ratio of what the SDK hands back.

export function imageSize(bytes) {
  const b = Buffer.from(bytes);
  // PNG: 8-byte signature, then the IHDR chunk: length(4) "IHDR"(4) width(4) height(4).
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return { type: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  // JPEG: walk the marker segments to the first start-of-frame (SOF0..SOF15 except DHT/JPG/DAC).
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 4 <= b.length) {
      if (b[i] !== 0xff) throw new Error(`JPEG: no marker at byte ${i}`);
      let marker = b[i + 1];
      while (marker === 0xff && i + 2 < b.length) { i += 1; marker = b[i + 1]; } // fill bytes
      i += 2;
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
      if (marker === 0xd9 || marker === 0xda) break; // EOI / SOS before any SOF
      const length = b.readUInt16BE(i);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) {
        if (i + 7 > b.length) break;
        return { type: 'jpeg', height: b.readUInt16BE(i + 3), width: b.readUInt16BE(i + 5) };
      }
      i += length;
    }
    throw new Error('JPEG: no start-of-frame marker found');
  }
  throw new Error(`not a PNG or JPEG (first bytes ${b.subarray(0, 8).toString('hex')})`);
}

// Aspect ratios of gemini-3.1-flash-lite-image (spec §2.2).
export const SUPPORTED_RATIOS = ['1:1', '3:2', '2:3', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

const value = (ratio) => { const [w, h] = ratio.split(':').map(Number); return w / h; };

// The supported ratio closest to the size (log distance). The service renders sizes such as
// 1344x768 for 16:9 or 1184x864 for 4:3 (multiples of 16/32 px), a few percent off the exact
// ratio, so "nearest supported ratio" is the meaningful check, with a 5% sanity bound.
export function nearestRatio(size) {
  const got = Math.log(size.width / size.height);
  let best = SUPPORTED_RATIOS[0];
  for (const r of SUPPORTED_RATIOS) if (Math.abs(Math.log(value(r)) - got) < Math.abs(Math.log(value(best)) - got)) best = r;
  return best;
}

export function matchesAspect(size, ratio) {
  const got = size.width / size.height;
  return nearestRatio(size) === ratio && Math.abs(got - value(ratio)) / value(ratio) <= 0.05;
}
