import { describe, expect, it } from 'vitest';
import { InvalidJson, fieldKind, initialValue, toPayload, validate, type Schema } from './schema';

const schema: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 10 },
    notes: { type: 'string', maxLength: 2000 },
    color: { type: 'string', enum: ['red', 'green', 'blue'] },
    city: { enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    agree: { type: 'boolean' },
    tags: { type: 'array', items: { enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['zip'],
    },
    extra: { type: 'array', items: { type: 'object' } },
  },
  required: ['name', 'color', 'count', 'tags', 'address'],
};

describe('fieldKind', () => {
  it('maps the supported subset', () => {
    const p = schema.properties as Record<string, Schema>;
    expect(fieldKind(schema)).toBe('object');
    expect(fieldKind(p.name!)).toBe('string');
    expect(fieldKind(p.notes!)).toBe('text');
    expect(fieldKind(p.color!)).toBe('enum');
    expect(fieldKind(p.city!)).toBe('enum');
    expect(fieldKind(p.count!)).toBe('integer');
    expect(fieldKind(p.ratio!)).toBe('number');
    expect(fieldKind(p.agree!)).toBe('boolean');
    expect(fieldKind(p.tags!)).toBe('multi-enum');
    expect(fieldKind(p.extra!)).toBe('json');
    expect(fieldKind({ type: ['string', 'null'] })).toBe('string');
  });
});

describe('validate', () => {
  it('reports required fields on the initial value', () => {
    const errs = validate(schema, initialValue(schema));
    expect(errs).toEqual({
      name: 'Required',
      color: 'Choose an option',
      count: 'Required',
      tags: 'Choose at least 1',
      'address.zip': 'Required',
    });
  });

  it('checks bounds, lengths, patterns, enums and array sizes', () => {
    const errs = validate(schema, {
      name: 'x',
      color: 'purple',
      count: 7,
      ratio: 0,
      agree: false,
      tags: ['x', 'y', 'z'],
      address: { zip: '12' },
    });
    expect(errs).toEqual({
      name: 'Enter at least 2 characters',
      color: 'Choose one of the options',
      count: 'Must be at most 5',
      ratio: 'Must be more than 0',
      tags: 'Choose at most 2',
      'address.zip': 'This does not have the expected format',
    });
    expect(validate(schema, { ...validValue(), count: 2.5 }).count).toBe('Enter a whole number');
    expect(validate(schema, { ...validValue(), count: 'abc' }).count).toBe('Enter a number');
    expect(validate(schema, { ...validValue(), extra: new InvalidJson('[', 'bad') }).extra).toMatch(/Not valid JSON/);
  });

  it('accepts a valid value and builds a payload without empty optional fields', () => {
    const v = { ...validValue(), notes: '', address: { street: '', zip: '12345' } };
    expect(validate(schema, v)).toEqual({});
    expect(toPayload(schema, v)).toEqual({
      name: 'Ada',
      color: 'green',
      count: 3,
      agree: true,
      tags: ['x'],
      address: { zip: '12345' },
    });
  });

  it('validates a non-object root', () => {
    expect(validate({ type: 'integer', minimum: 10 }, 3)).toEqual({ '': 'Must be at least 10' });
    expect(validate({ type: 'string', enum: ['a'] }, 'a')).toEqual({});
  });
});

function validValue() {
  return { name: 'Ada', color: 'green', count: 3, agree: true, tags: ['x'], address: { zip: '12345' } };
}

describe('properties order', () => {
  it('lists required properties in `required` order, then the rest alphabetically (Go sends keys sorted)', async () => {
    const { properties } = await import('./schema');
    const s: Schema = {
      type: 'object',
      properties: { age: { type: 'integer' }, city: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, bio: { type: 'string' } },
      required: ['name', 'email', 'unknown'],
    };
    expect(properties(s).map(([k]) => k)).toEqual(['name', 'email', 'age', 'bio', 'city']);
    expect(properties({ type: 'object', properties: { b: {}, a: {} } }).map(([k]) => k)).toEqual(['a', 'b']);
  });
});
