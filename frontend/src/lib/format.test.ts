import { describe, expect, it } from 'vitest';
import { describeEndpointError, modelsAvailable } from './format';

describe('modelsAvailable', () => {
  it('says 1 model, 3 models', () => {
    expect(modelsAvailable(1)).toBe('1 model available');
    expect(modelsAvailable(3)).toBe('3 models available');
    expect(modelsAvailable(0)).toBe('0 models available');
  });
});

describe('describeEndpointError', () => {
  it('tells an unreachable endpoint (with its host) from one that answered', () => {
    const down = describeEndpointError(
      'cannot reach the endpoint (connection refused): Post "http://127.0.0.1:38629/v1/chat/completions": dial tcp 127.0.0.1:38629: connect: connection refused',
    );
    expect(down.kind).toBe('unreachable');
    expect(down.title).toBe('Juncture could not reach the model endpoint at 127.0.0.1:38629.');
    expect(down.title).not.toMatch(/returned an error/);
    expect(down.hint).toMatch(/running/);

    const refused = describeEndpointError('endpoint answered 401: Incorrect API key provided: e2e');
    expect(refused).toMatchObject({
      kind: 'answered',
      status: 401,
      title: 'The model endpoint answered with an error (HTTP 401).',
      detail: 'Incorrect API key provided: e2e',
      hint: 'Check the API key in Settings.',
    });
    expect(describeEndpointError('endpoint answered 404: model "x" not found').hint).toMatch(/model name/);
    expect(describeEndpointError('endpoint answered 429: slow down').hint).toMatch(/rate-limiting/);
    expect(describeEndpointError('endpoint answered 503: overloaded').hint).toMatch(/try again/);
  });

  it('names a cut stream, a missing setup, and anything else plainly', () => {
    expect(describeEndpointError('the endpoint closed the stream before the answer was complete').kind).toBe('cut');
    expect(describeEndpointError('dial tcp: lookup nowhere.invalid: no such host').kind).toBe('unreachable');
    expect(describeEndpointError('the model is not configured').kind).toBe('not-configured');
    expect(describeEndpointError('something odd')).toMatchObject({ kind: 'other', title: 'The answer failed.', detail: 'something odd' });
    expect(describeEndpointError(undefined)).toMatchObject({ kind: 'other', detail: 'No details were given.' });
    expect(describeEndpointError('The model endpoint returned an error.')).toMatchObject({ detail: '' });
  });
});
