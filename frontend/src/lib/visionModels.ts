// Models known to read images, by name (the way Cherry Studio tags
// models): matched on the model id without its provider prefix, case
// insensitive. A model not listed may still read images; the window then
// asks once.

const VISION: readonly RegExp[] = [
  /^gpt-4o/, // gpt-4o, gpt-4o-mini, chatgpt-4o-latest via the prefix rule below
  /^chatgpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-4-vision/,
  /^gpt-5/,
  /^o[134](-|$)/,
  /^claude-3/,
  /^claude-(opus|sonnet|haiku)-4/,
  /^claude-[a-z]+-4/,
  /^claude-4/,
  /^gemini/,
  /^gemma-?3/,
  /^llava/,
  /^bakllava/,
  /^qwen[\d.]*-?vl/,
  /^qwen2\.5-?vl/,
  /^qwen3-?vl/,
  /^qvq/,
  /^llama-?3\.2-?(\d+b-)?vision/,
  /^llama-3\.2-\d+b-vision/,
  /^llama-?4/,
  /^pixtral/,
  /^mistral-(small|medium)-3/,
  /^minicpm-?v/,
  /^moondream/,
  /^internvl/,
  /^granite3\.2-vision/,
  /^phi-?3\.5-vision/,
  /^phi-?4-multimodal/,
  /^grok-.*vision/,
];

/** The model id as matched: lower case, without "provider/" and ":tag"-free prefixes kept ("llava:13b" matches /^llava/). */
function bare(model: string): string {
  const m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  return slash >= 0 ? m.slice(slash + 1) : m;
}

/** Whether a model is known, by its name, to read images. */
export function knownVisionModel(model: string): boolean {
  const m = bare(model);
  return m !== '' && VISION.some((re) => re.test(m));
}
