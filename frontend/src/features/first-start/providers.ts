/** The providers the first start offers (the local servers come from the app's own probe: ListEndpoints). */
export interface Provider {
  id: string;
  name: string;
  baseUrl: string;
  /** Where the person gets a key. */
  keyHint: string;
}

export const PROVIDERS: readonly Provider[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', keyHint: 'A key from platform.openai.com (starts with sk-).' },
  { id: 'openrouter', name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', keyHint: 'A key from openrouter.ai/keys.' },
  { id: 'groq', name: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', keyHint: 'A key from console.groq.com/keys.' },
  { id: 'custom', name: 'Custom URL', baseUrl: '', keyHint: 'Any OpenAI-compatible server; local ones need no key.' },
];
