import { describe, expect, it } from 'vitest';
import { editedArgsProblems, plainValidation, pointerPath } from './validationText';

describe('plainValidation', () => {
  // The registry's lines (agent/tools/registry.go describeValidation): the
  // validator's own words at a JSON Pointer.
  it.each([
    ['- at /command: got number, want string', 'command must be text'],
    ['at /command: got number, want string', 'command must be text'],
    ['- at /timeoutSeconds: got string, want integer', 'timeoutSeconds must be a whole number'],
    ['- at /force: got string, want boolean', 'force must be true or false'],
    ['- at /paths: got string, want array', 'paths must be a list ([ … ])'],
    ['- at /name: got number, want string or null', 'name must be text or empty (null)'],
    ['- at (root): got array, want object', 'The arguments must be an object ({ … })'],
    ["- at (root): missing property 'command'", 'command is required'],
    ["- at /options: missing properties 'a', 'b'", 'options.a is required\noptions.b is required'],
    ["- at (root): additional properties 'extra' not allowed", 'extra is not allowed'],
    ['- at /command: minLength: got 0, want 1', 'command must not be empty'],
    ['- at /command: minLength: got 1, want 3', 'command must be at least 3 characters long'],
    ['- at /text: maxLength: got 9, want 1', 'text must be at most 1 character long'],
    ['- at /timeoutSeconds: minimum: got 0, want 1', 'timeoutSeconds must be at least 1'],
    ['- at /timeoutSeconds: maximum: got 9000, want 3600', 'timeoutSeconds must be at most 3600'],
    ['- at /ratio: exclusiveMinimum: got 0, want 0', 'ratio must be greater than 0'],
    ['- at /steps: minItems: got 0, want 2', 'steps must have at least 2 items'],
    ['- at /steps/0/name: got number, want string', 'steps[0].name must be text'],
    ['- at /a~1b: got number, want string', 'a/b must be text'],
    ["- at /mode: value must be one of 'fast', 'safe'", 'mode must be one of “fast”, “safe”'],
    ["- at /mode: value must be 'fast'", 'mode must be “fast”'],
    ["- at /url: 'ftp://x' does not match pattern '^[hH][tT][tT][pP][sS]?://'", 'url is not in the expected form'],
    ["- at /email: 'x' is not valid email: missing @", 'email must be a valid email'],
    ["- at /v: 'oneOf' failed, none matched", 'v does not match any of the allowed forms'],
    ['- at /tags: items at 0 and 2 are equal', 'tags must not contain the same item twice'],
    ['- at /x: something new', 'x: something new'],
  ])('%s → %s', (line, want) => {
    expect(plainValidation(line)).toBe(want);
  });

  // The interrupt validator's issues (agent/interrupt/schema_issues.go).
  it.each([
    ['command must be a string', 'command must be text'],
    ['timeoutSeconds must be an integer', 'timeoutSeconds must be a whole number'],
    ['name must be a string or null', 'name must be text or empty (null)'],
    ['value must be an object', 'The arguments must be an object ({ … })'],
    ['command must be at least 1 character long', 'command must not be empty'],
    ['url must match the pattern "^[hH][tT][tT][pP][sS]?://"', 'url is not in the expected form'],
    ['command is required', 'command is required'],
    ['extra is not allowed', 'extra is not allowed'],
    ['timeoutSeconds must be at most 3600', 'timeoutSeconds must be at most 3600'],
  ])('%s → %s', (line, want) => {
    expect(plainValidation(line)).toBe(want);
  });
});

describe('editedArgsProblems', () => {
  it.each([
    [
      'the registry refusal (pending.go editError)',
      'Edited arguments are invalid: Invalid arguments for run_command:\n- at /command: got number, want string',
      ['command must be text'],
    ],
    [
      'the registry refusal with several problems',
      "Edited arguments are invalid: Invalid arguments for run_command:\n- at (root): additional properties 'cwd' not allowed\n- at /command: got number, want string",
      ['cwd is not allowed', 'command must be text'],
    ],
    [
      'a registry refusal that is not a list',
      'Edited arguments are invalid: Arguments for run_command must be a JSON object, not an array.',
      ['Arguments for run_command must be a JSON object, not an array.'],
    ],
    [
      'the Answer call refusal, without the interrupt id',
      'the answers were refused: Approval approval_call_demo0001 edited arguments are invalid: command must be a string One or more interrupt resolutions are invalid.',
      ['command must be text'],
    ],
    [
      'several issues of one item (RUN_ERROR item errors joined)',
      'Approval approval_x edited arguments are invalid: command must be a string Approval approval_x edited arguments are invalid: extra is not allowed',
      ['command must be text', 'extra is not allowed'],
    ],
  ])('%s', (_name, message, want) => {
    expect(editedArgsProblems(message)).toEqual(want);
  });

  it.each([
    ['Too late: this no longer waits for an answer (it was answered, you sent a message, or Stop came first).'],
    ['the answers were refused: Interrupt approval_tc-r has expired.'],
    [''],
  ])('is null for other errors: %s', (message) => {
    expect(editedArgsProblems(message)).toBeNull();
  });

  it('never shows the interrupt id', () => {
    const out = editedArgsProblems(
      'the answers were refused: Approval approval_call_demo0001 edited arguments are invalid: command is required One or more interrupt resolutions are invalid.',
    );
    expect(out?.join(' ')).not.toMatch(/approval_call|Approval|interrupt/);
  });
});

describe('pointerPath', () => {
  it.each([
    ['', ''],
    ['(root)', ''],
    ['/command', 'command'],
    ['/steps/2/name', 'steps[2].name'],
    ['/a~0b/c~1d', 'a~b.c/d'],
  ])('%s → %s', (p, want) => {
    expect(pointerPath(p)).toBe(want);
  });
});
