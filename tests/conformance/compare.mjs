// Compares what two clients sent for the same calls: parsed-JSON equality after
// normalising interaction ids (which differ between the two runs), then key order.
// Returns a list of readable differences (empty when equal).

const ID = '<interaction-id>';

function normaliseValue(value, key) {
  if (Array.isArray(value)) return value.map((v) => normaliseValue(v));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = normaliseValue(v, k);
    return out;
  }
  if (key === 'previous_interaction_id' && typeof value === 'string') return ID;
  return value;
}

// "/v1/interactions/v1_abc" -> "/v1/interactions/<interaction-id>" (keeps "/cancel" etc.)
export function normalisePath(path) {
  return path.replace(/(\/interactions\/)[^/?]+/, `$1${ID}`);
}

// A log entry's body: parsed JSON (the fake logs it parsed, keys in the order sent), or
// body_text when it was not JSON.
export function parseBody(body, bodyText) {
  if ((body === undefined || body === null || body === '') && bodyText) return { kind: 'text', value: bodyText };
  if (body === undefined || body === null || body === '') return { kind: 'empty' };
  if (typeof body === 'object') return { kind: 'json', value: normaliseValue(body) };
  try {
    return { kind: 'json', value: normaliseValue(JSON.parse(body)) };
  } catch (e) {
    return { kind: 'text', value: String(body) };
  }
}

function shorten(value) {
  const s = JSON.stringify(value);
  if (s === undefined) return 'undefined';
  return s.length > 120 ? `${s.slice(0, 80)}…(${s.length} chars)…${s.slice(-20)}` : s;
}

function typeOf(v) {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

// Value differences, ignoring key order.
export function valueDiffs(expected, actual, path = '$') {
  const diffs = [];
  const te = typeOf(expected);
  const ta = typeOf(actual);
  if (te !== ta) {
    diffs.push(`${path}: SDK has ${te} ${shorten(expected)}, nb2lite has ${ta} ${shorten(actual)}`);
    return diffs;
  }
  if (te === 'array') {
    if (expected.length !== actual.length)
      diffs.push(`${path}: SDK array has ${expected.length} items, nb2lite has ${actual.length}`);
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) diffs.push(...valueDiffs(expected[i], actual[i], `${path}[${i}]`));
    return diffs;
  }
  if (te === 'object') {
    for (const k of Object.keys(expected)) {
      if (!(k in actual)) diffs.push(`${path}.${k}: missing in nb2lite (SDK sends ${shorten(expected[k])})`);
      else diffs.push(...valueDiffs(expected[k], actual[k], `${path}.${k}`));
    }
    for (const k of Object.keys(actual)) {
      if (!(k in expected)) diffs.push(`${path}.${k}: extra in nb2lite (${shorten(actual[k])}); the SDK does not send it`);
    }
    return diffs;
  }
  if (expected !== actual) diffs.push(`${path}: SDK ${shorten(expected)} != nb2lite ${shorten(actual)}`);
  return diffs;
}

// Key-order differences of objects present in both (only meaningful once values agree).
export function orderDiffs(expected, actual, path = '$') {
  const diffs = [];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) diffs.push(...orderDiffs(expected[i], actual[i], `${path}[${i}]`));
  } else if (typeOf(expected) === 'object' && typeOf(actual) === 'object') {
    const ke = Object.keys(expected);
    const ka = Object.keys(actual);
    if (ke.join(',') !== ka.join(','))
      diffs.push(`${path}: key order differs: SDK [${ke.join(', ')}] vs nb2lite [${ka.join(', ')}]`);
    for (const k of ke) if (k in actual) diffs.push(...orderDiffs(expected[k], actual[k], `${path}.${k}`));
  }
  return diffs;
}

// Compares two requests from the fake's log; `label` names the call in messages.
export function compareRequests(label, sdk, ours) {
  const diffs = [];
  if (sdk.method !== ours.method) diffs.push(`method: SDK ${sdk.method} vs nb2lite ${ours.method}`);
  const ps = normalisePath(sdk.path);
  const po = normalisePath(ours.path);
  if (ps !== po) diffs.push(`path: SDK ${ps} vs nb2lite ${po}`);
  if ((sdk.query || '') !== (ours.query || ''))
    diffs.push(`query: SDK "${sdk.query || ''}" vs nb2lite "${ours.query || ''}"`);
  const hs = sdk.headers || {};
  const ho = ours.headers || {};
  if (hs['x-goog-api-key'] !== ho['x-goog-api-key'])
    diffs.push(`header x-goog-api-key: ${ho['x-goog-api-key'] === undefined ? 'missing in nb2lite' : 'differs'}`);
  const bs = parseBody(sdk.body, sdk.body_text);
  const bo = parseBody(ours.body, ours.body_text);
  if (bs.kind !== 'empty' || bo.kind !== 'empty') {
    const ct = (h) => (h['content-type'] || '').split(';')[0].trim().toLowerCase();
    if (ct(hs) !== ct(ho)) diffs.push(`header content-type: SDK "${ct(hs)}" vs nb2lite "${ct(ho)}"`);
  }
  if (bs.kind !== bo.kind) {
    diffs.push(`body: SDK ${bs.kind} vs nb2lite ${bo.kind}`);
  } else if (bs.kind === 'json') {
    const vd = valueDiffs(bs.value, bo.value, 'body');
    diffs.push(...vd);
    if (vd.length === 0) diffs.push(...orderDiffs(bs.value, bo.value, 'body'));
  } else if (bs.kind === 'text' && bs.value !== bo.value) {
    diffs.push('body: non-JSON bodies differ');
  }
  return diffs.map((d) => `[${label}] ${d}`);
}
