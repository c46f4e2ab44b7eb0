// The calls of the conformance flow, once, for both clients: the SDK parameters and the
// equivalent nb2lite command line must describe the same request.

export const MODEL = 'gemini-3.1-flash-lite-image';

export const FLOW = {
  generate: {
    prompt: 'conformance: a lighthouse on a cliff at dusk',
    aspect: '16:9',
    sdkParams() {
      return {
        model: MODEL,
        input: this.prompt,
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'low' },
        store: true,
      };
    },
    cliArgs() {
      return ['generate', this.prompt, '--aspect', this.aspect, '--thinking', 'low'];
    },
  },
  edit: {
    prompt: 'make it night time with a bright beam',
    aspect: '16:9',
    sdkParams(previousId) {
      return {
        model: MODEL,
        previous_interaction_id: previousId,
        input: this.prompt,
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'low' },
        store: true,
      };
    },
    cliArgs(previousId) {
      return ['edit', previousId, this.prompt, '--aspect', this.aspect, '--thinking', 'low'];
    },
  },
  streamGenerate: {
    prompt: 'conformance: a streamed banana on a plate',
    aspect: '3:2',
    sdkParams() {
      return {
        model: MODEL,
        input: this.prompt,
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'low' },
        store: true,
        stream: true,
      };
    },
    cliArgs() {
      return ['--stream', 'generate', this.prompt, '--aspect', this.aspect];
    },
  },
  generateV1beta: {
    prompt: 'conformance: the same call on v1beta',
    aspect: '21:9',
    sdkParams() {
      return {
        model: MODEL,
        input: this.prompt,
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'high' },
        store: true,
      };
    },
    cliArgs() {
      return ['--api-version', 'v1beta', 'generate', this.prompt, '--aspect', this.aspect, '--thinking', 'high'];
    },
  },
  styleEdit: {
    prompt: 'paint it in the style of the first image',
    aspect: '4:3', // from the target (the fixture), not the square style image
    sdkParams(targetBytes, styleBytes) {
      return {
        model: MODEL,
        input: [
          { type: 'image', data: styleBytes.toString('base64'), mime_type: 'image/jpeg' },
          { type: 'image', data: targetBytes.toString('base64'), mime_type: 'image/png' },
          { type: 'text', text: this.prompt },
        ],
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'low' },
        store: true,
      };
    },
    cliArgs(targetPath, stylePath) {
      return ['edit-local', targetPath, this.prompt, '--style', stylePath];
    },
  },
  editLocal: {
    prompt: 'add a small red hat',
    aspect: '4:3', // the fixture is 320x240; nb2lite must pick 4:3 by itself
    sdkParams(fixtureBytes) {
      return {
        model: MODEL,
        input: [
          { type: 'image', data: fixtureBytes.toString('base64'), mime_type: 'image/png' },
          { type: 'text', text: this.prompt },
        ],
        response_format: { type: 'image', aspect_ratio: this.aspect },
        generation_config: { thinking_level: 'low' },
        store: true,
      };
    },
    cliArgs(fixturePath) {
      return ['edit-local', fixturePath, this.prompt]; // default aspect and thinking level
    },
  },
};
