// Refused edited arguments, in words a person reads.
//
// Go refuses edited arguments in one of two shapes (both reach the card as
// the Answer call's error message, or as a RUN_ERROR item error):
//
//  - the interrupt validator (agent/interrupt/schema_issues.go), one issue
//    per problem, each with the item id in front:
//      "the answers were refused: Approval approval_x edited arguments are
//       invalid: command must be a string One or more interrupt
//       resolutions are invalid."
//  - the tool registry (agent/pending.go editError + agent/tools/registry.go
//    describeValidation), the validator's own words, one line per problem:
//      "Edited arguments are invalid: Invalid arguments for run_command:
//       - at /command: got number, want string"
//
// editedArgsProblems turns either into plain lines ("command must be text"),
// without the interrupt id or the validator's jargon.

const APPROVAL_PREFIX = /Approval \S+ edited arguments are invalid: /g;
const REGISTRY_PREFIX = 'Edited arguments are invalid: ';
const BATCH_SUFFIX = /\s*One or more interrupt resolutions are invalid\.\s*$/;
const REFUSED_PREFIX = /^(?:[A-Za-z]+: )?(?:invalid-argument )?the answers were refused: /;

/** A JSON type as a person says it. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list ([ … ])',
  object: 'an object ({ … })',
  null: 'empty (null)',
};

/** "string or null" / "a string or null" (Go's two spellings) → "text or empty (null)". */
function typeWords(list: string): string {
  return list
    .split(/\s+or\s+/)
    .map((t) => t.replace(/^an? /, '').trim())
    .map((t) => TYPE_WORDS[t] ?? t)
    .join(' or ');
}

/** The subject of a problem: "The arguments" for the whole object, else the field's path. */
function subjectOf(where: string): string {
  return where === '' || where === 'value' || where === '(root)' ? 'The arguments' : where;
}

/** A JSON Pointer ("/steps/0/name") as the path people read ("steps[0].name"). */
export function pointerPath(pointer: string): string {
  if (pointer === '' || pointer === '(root)' || pointer === '/') return '';
  let out = '';
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** 'a', 'b\'c' → ["a", "b'c"] (the validator's quoting). */
function quotedList(s: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1]!.replace(/\\(.)/g, '$1'));
  return out;
}

/** Values as the card quotes them: 'a', 'b' → “a”, “b”; numbers and the like stay. */
function valueWords(s: string): string {
  return s.replace(/'((?:[^'\\]|\\.)*)'/g, (_, v: string) => `“${v.replace(/\\(.)/g, '$1')}”`);
}

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;
}

/**
 * One problem from the validator, in plain words. Takes the registry's
 * "at /command: got number, want string" (or "- at …") and the interrupt
 * validator's "command must be a string"; anything else comes back as it is.
 */
export function plainValidation(line: string): string {
  const text = line.trim().replace(/^- /, '');
  const at = /^at (\S*): ([\s\S]*)$/.exec(text);
  if (at) return plainRaw(pointerPath(at[1]!), at[2]!.trim());
  return plainIssue(text);
}

/** The validator's own words (santhosh-tekuri/jsonschema) at a path. */
function plainRaw(path: string, msg: string): string {
  const sub = subjectOf(path);
  let m: RegExpExecArray | null;
  if ((m = /^got (\S+), want (.+)$/.exec(msg))) return `${sub} must be ${typeWords(m[2]!)}`;
  if ((m = /^missing propert(?:y|ies) (.+)$/.exec(msg))) {
    return quotedList(m[1]!)
      .map((k) => `${join(path, k)} is required`)
      .join('\n');
  }
  if ((m = /^additional properties (.+) not allowed$/.exec(msg))) {
    return quotedList(m[1]!)
      .map((k) => `${join(path, k)} is not allowed`)
      .join('\n');
  }
  if ((m = /^(minLength|maxLength|minItems|maxItems|minProperties|maxProperties): got \S+, want (\d+)$/.exec(msg))) {
    const n = Number(m[2]);
    switch (m[1]) {
      case 'minLength':
        return n === 1 ? `${sub} must not be empty` : `${sub} must be at least ${plural(n, 'character')} long`;
      case 'maxLength':
        return `${sub} must be at most ${plural(n, 'character')} long`;
      case 'minItems':
        return n === 1 ? `${sub} must not be empty` : `${sub} must have at least ${plural(n, 'item')}`;
      case 'maxItems':
        return `${sub} must have at most ${plural(n, 'item')}`;
      case 'minProperties':
        return `${sub} must have at least ${plural(n, 'property')}`;
      default:
        return `${sub} must have at most ${plural(n, 'property')}`;
    }
  }
  if ((m = /^(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): got \S+, want (\S+)$/.exec(msg))) {
    const words: Record<string, string> = {
      minimum: 'at least',
      maximum: 'at most',
      exclusiveMinimum: 'greater than',
      exclusiveMaximum: 'less than',
      multipleOf: 'a multiple of',
    };
    return `${sub} must be ${words[m[1]!]} ${m[2]}`;
  }
  if ((m = /^value must be one of (.+)$/.exec(msg))) return `${sub} must be one of ${valueWords(m[1]!)}`;
  if ((m = /^value must be (.+)$/.exec(msg))) return `${sub} must be ${valueWords(m[1]!)}`;
  if (/ does not match pattern /.test(msg)) return `${sub} is not in the expected form`;
  if ((m = / is not valid (\S+?):/.exec(msg))) return `${sub} must be a valid ${m[1]}`;
  if (/^'(?:oneOf|anyOf)' failed/.test(msg)) return `${sub} does not match any of the allowed forms`;
  if (/^items at \d+ and \d+ are equal$/.test(msg)) return `${sub} must not contain the same item twice`;
  if (/^(?:false schema|'not' failed)$/.test(msg)) return `${sub} is not allowed`;
  return path ? `${path}: ${msg}` : msg;
}

/** The interrupt validator's issue ("command must be a string"), with its types in plain words. */
function plainIssue(msg: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^(\S+) must be ((?:an? )?(?:string|number|integer|boolean|array|object|null)(?: or (?:an? )?(?:string|number|integer|boolean|array|object|null))*)$/.exec(msg))) {
    return `${subjectOf(m[1]!)} must be ${typeWords(m[2]!)}`;
  }
  if ((m = /^(\S+) must be at least 1 character long$/.exec(msg))) return `${subjectOf(m[1]!)} must not be empty`;
  if ((m = /^(\S+) must match the pattern /.exec(msg))) return `${subjectOf(m[1]!)} is not in the expected form`;
  if ((m = /^(\S+) does not match any of the allowed shapes$/.exec(msg))) return `${subjectOf(m[1]!)} does not match any of the allowed forms`;
  if ((m = /^value (.+)$/.exec(msg))) return `The arguments ${m[1]!.replace(/^is /, 'are ')}`;
  return msg;
}

/**
 * The problems of a refusal of edited arguments, one plain line each, or
 * null when the message is not about edited arguments.
 */
export function editedArgsProblems(message: string): string[] | null {
  const text = message.trim();
  const reg = text.indexOf(REGISTRY_PREFIX);
  if (reg >= 0) {
    const body = text.slice(reg + REGISTRY_PREFIX.length).replace(BATCH_SUFFIX, '');
    const lines = body.split('\n').map((l) => l.trim()).filter(Boolean);
    const problems = lines.filter((l) => l.startsWith('- '));
    if (!problems.length) return [plainIssue(body.replace(/\s+/g, ' ').trim())];
    return problems.flatMap((l) => plainValidation(l).split('\n'));
  }
  if (!new RegExp(APPROVAL_PREFIX.source).test(text)) return null;
  const body = text.replace(REFUSED_PREFIX, '').replace(BATCH_SUFFIX, '');
  // What precedes the first issue is about something else.
  return body
    .split(APPROVAL_PREFIX)
    .slice(1)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => plainIssue(p));
}
