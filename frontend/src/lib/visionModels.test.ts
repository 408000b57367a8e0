import { describe, expect, it } from 'vitest';
import { knownVisionModel } from './visionModels';

describe('knownVisionModel', () => {
  it('TestKnownVisionModels: common vision models by name; text models not', () => {
    for (const m of [
      'gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-5', 'gpt-5-mini', 'openai/gpt-4o',
      'claude-3-5-sonnet-20241022', 'claude-3-haiku', 'claude-sonnet-4-20250514', 'claude-opus-4-1', 'anthropic/claude-3.7-sonnet',
      'gemini-2.0-flash', 'google/gemini-2.5-pro', 'llava:13b', 'llava-llama3', 'qwen-vl-max', 'qwen2.5-vl:7b', 'Qwen2.5-VL-72B-Instruct',
      'llama3.2-vision:11b', 'meta-llama/Llama-3.2-11B-Vision-Instruct', 'pixtral-12b', 'gemma3:4b', 'minicpm-v', 'moondream:1.8b',
    ])
      expect(knownVisionModel(m), m).toBe(true);
    for (const m of ['', 'fake-model', 'gpt-3.5-turbo', 'llama3.1:8b', 'qwen2.5:7b', 'mistral-7b', 'deepseek-r1', 'gemma2:9b', 'phi3'])
      expect(knownVisionModel(m), m).toBe(false);
  });
});
