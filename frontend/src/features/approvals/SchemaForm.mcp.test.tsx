import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { SchemaForm, fromLocalInput, toLocalInput } from './SchemaForm';
import { isDate, isDateTime, validate, type Schema } from '../../lib/schema';
import { change } from '../../test/change';

// The MCP elicitation schema subset (spec 2025-11-25): titled single-select
// as oneOf const/title, titled multi-select as items.anyOf const/title,
// string formats date and date-time.
const schema: Schema = {
  type: 'object',
  properties: {
    lang: {
      type: 'string',
      title: 'Language',
      oneOf: [
        { const: 'fr', title: 'French' },
        { const: 'de', title: 'German' },
      ],
    },
    toppings: {
      type: 'array',
      title: 'Toppings',
      items: {
        anyOf: [
          { const: 'ch', title: 'Cheese' },
          { const: 'mu', title: 'Mushrooms' },
          { const: 'ol', title: 'Olives' },
        ],
      },
    },
    day: { type: 'string', title: 'Day', format: 'date' },
    at: { type: 'string', title: 'At', format: 'date-time' },
  },
  required: ['lang', 'day'],
};

describe('SchemaForm: MCP titled choices and dates', () => {
  it('TestTitledOneOfIsRadiosWithTitles: oneOf const/title is a choice showing the titles and sends the const', () => {
    const onSubmit = vi.fn();
    render(<SchemaForm schema={schema} onSubmit={onSubmit} />);
    const lang = screen.getByRole('group', { name: /Language/ });
    const radios = within(lang).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    expect(within(lang).getByLabelText('French')).toBeTruthy();
    expect(within(lang).queryByText('fr')).toBeNull();
    fireEvent.click(within(lang).getByLabelText('German'));
    change(screen.getByLabelText(/Day/), { target: { value: '2026-12-24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ lang: 'de', day: '2026-12-24' }));
  });

  it('TestTitledMultiSelectIsCheckboxes: items.anyOf const/title are checkboxes with titles, not a JSON box', () => {
    const onSubmit = vi.fn();
    render(<SchemaForm schema={schema} onSubmit={onSubmit} initial={{ lang: 'fr', day: '2026-01-02' }} />);
    const group = screen.getByRole('group', { name: /Toppings/ });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.queryByLabelText(/JSON/)).toBeNull();
    fireEvent.click(within(group).getByLabelText('Olives'));
    fireEvent.click(within(group).getByLabelText('Cheese'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ toppings: ['ch', 'ol'] }));
  });

  it('many titled options become a select showing titles', () => {
    const many: Schema = {
      type: 'string',
      oneOf: ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => ({ const: c, title: `Option ${c.toUpperCase()}` })),
    };
    render(<SchemaForm schema={many} onSubmit={vi.fn()} />);
    const select = screen.getByRole('combobox');
    expect(within(select).getByText('Option F')).toBeTruthy();
  });

  it('TestDateFieldsArePickersAndValidated: date and date-time render pickers; "yesterday" is refused', () => {
    render(<SchemaForm schema={schema} onSubmit={vi.fn()} />);
    expect(screen.getByLabelText(/Day/)).toHaveProperty('type', 'date');
    expect(screen.getByLabelText(/^At/)).toHaveProperty('type', 'datetime-local');
    const errs = validate(schema, { lang: 'fr', day: 'yesterday', at: 'tomorrow noon' });
    expect(errs.day).toMatch(/date/);
    expect(errs.at).toMatch(/date and time/);
    expect(validate(schema, { lang: 'fr', day: '2026-12-02', at: '2026-12-02T10:30:00Z' })).toEqual({});
  });

  it('a default that is not a date shows an error on submit rather than being sent', () => {
    const onSubmit = vi.fn();
    render(<SchemaForm schema={schema} onSubmit={onSubmit} initial={{ lang: 'fr', day: 'yesterday' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Enter a date (YYYY-MM-DD)')).toBeTruthy();
  });

  it('date checks: calendar and RFC 3339', () => {
    for (const [v, ok] of [
      ['2024-02-29', true],
      ['2026-02-29', false],
      ['2026-13-01', false],
      ['yesterday', false],
      ['2026-12-02T10:30', false],
    ] as const)
      expect(isDate(v), v).toBe(ok);
    for (const [v, ok] of [
      ['2026-12-02T10:30:00Z', true],
      ['2026-12-02T10:30:00.5+01:00', true],
      ['2026-12-02T10:30+01:00', true],
      ['2026-12-02T24:00:00Z', false],
      ['2026-12-02T10:30:00', false],
    ] as const)
      expect(isDateTime(v), v).toBe(ok);
  });

  it('datetime-local round-trips through RFC 3339 with the local offset', () => {
    const rfc = fromLocalInput('2026-12-02T10:30');
    expect(rfc && isDateTime(rfc)).toBe(true);
    expect(toLocalInput(rfc)).toBe('2026-12-02T10:30');
    expect(fromLocalInput('')).toBeUndefined();
    expect(toLocalInput('soon')).toBe('');
  });
});
