import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { SchemaForm } from './SchemaForm';
import type { Schema } from '../../lib/schema';
import { change } from '../../test/change';

const schema: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, description: 'As on the invoice' },
    notes: { type: 'string', title: 'Notes', maxLength: 1000 },
    speed: { type: 'string', title: 'Speed', enum: ['slow', 'fast'] },
    city: { type: 'string', title: 'City', enum: ['Paris', 'Rome', 'Oslo', 'Lima', 'Quito', 'Accra'] },
    copies: { type: 'integer', title: 'Copies', minimum: 1, maximum: 3 },
    price: { type: 'number', title: 'Price' },
    gift: { type: 'boolean', title: 'Gift wrap' },
    extras: { type: 'array', title: 'Extras', items: { enum: ['card', 'ribbon', 'box'] } },
    address: {
      type: 'object',
      title: 'Address',
      properties: { zip: { type: 'string', title: 'ZIP', pattern: '^[0-9]{5}$' } },
      required: ['zip'],
    },
  },
  required: ['name', 'speed', 'copies', 'address'],
};

function setup(extra: Partial<Parameters<typeof SchemaForm>[0]> = {}) {
  const onSubmit = vi.fn();
  const onCancel = vi.fn();
  const r = render(<SchemaForm schema={schema} onSubmit={onSubmit} onCancel={onCancel} {...extra} />);
  return { ...r, onSubmit, onCancel };
}

describe('SchemaForm', () => {
  it('renders a control for every supported type with required markers', () => {
    const { container } = setup();
    expect(screen.getByLabelText(/Your name/)).toHaveProperty('tagName', 'INPUT');
    expect(screen.getByLabelText(/Notes/)).toHaveProperty('tagName', 'TEXTAREA');
    // ≤ 5 options: radios; more: a select
    const speed = screen.getByRole('group', { name: /Speed/ });
    expect(within(speed).getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByLabelText(/City/)).toHaveProperty('tagName', 'SELECT');
    expect(screen.getByLabelText(/Copies/)).toHaveProperty('tagName', 'INPUT');
    expect(screen.getByText('Between 1 and 3')).toBeTruthy();
    expect(screen.getByLabelText(/Gift wrap/)).toHaveProperty('type', 'checkbox');
    const extras = screen.getByRole('group', { name: /Extras/ });
    expect(within(extras).getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.getByRole('group', { name: /Address/ }).tagName).toBe('FIELDSET');
    expect(screen.getByText('As on the invoice')).toBeTruthy();
    // Required fields carry a marker and aria-required.
    expect(screen.getByLabelText(/Your name/).getAttribute('aria-required')).toBe('true');
    expect(container.querySelectorAll('.sf-req').length).toBeGreaterThanOrEqual(4);
  });

  it('orders fields by `required`, then alphabetically (not by JSON key order)', () => {
    const { container } = setup();
    const top = new Set(['Your name', 'Notes', 'Speed', 'City', 'Copies', 'Price', 'Gift wrap', 'Extras', 'Address']);
    const order = [...container.querySelectorAll('label, legend')]
      .map((el) => (el.textContent ?? '').replace(/\*/g, '').trim())
      .filter((t) => top.has(t));
    expect(order).toEqual(['Your name', 'Speed', 'Copies', 'Address', 'City', 'Extras', 'Gift wrap', 'Notes', 'Price']);
  });

  it('blocks submit with errors, then submits once valid (invalid-then-valid, as typed)', () => {
    const { onSubmit } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('4 answers need attention.')).toBeTruthy();

    const name = screen.getByLabelText(/Your name/);
    change(name, { target: { value: 'A' } });
    expect(screen.getByText('Enter at least 2 characters')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    change(name, { target: { value: 'Ada' } });
    expect(screen.queryByText('Enter at least 2 characters')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'fast' }));
    const copies = screen.getByLabelText(/Copies/);
    change(copies, { target: { value: '9' } });
    expect(screen.getByText('Must be at most 3')).toBeTruthy();
    change(copies, { target: { value: '1.5' } });
    expect(screen.getByText('Enter a whole number')).toBeTruthy();
    change(copies, { target: { value: 'two' } });
    expect(screen.getByText('Enter a number')).toBeTruthy();
    change(copies, { target: { value: '2' } });
    expect(screen.queryByText('Enter a number')).toBeNull();

    const zip = screen.getByLabelText(/ZIP/);
    change(zip, { target: { value: '12' } });
    expect(screen.getByText('This does not have the expected format')).toBeTruthy();
    change(zip, { target: { value: '75001' } });

    change(screen.getByLabelText(/City/), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText(/Gift wrap/));
    fireEvent.click(screen.getByRole('checkbox', { name: 'box' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'card' }));
    change(screen.getByLabelText(/Price/), { target: { value: '9.5' } });

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      name: 'Ada',
      speed: 'fast',
      city: 'Oslo',
      copies: 2,
      price: 9.5,
      gift: true,
      extras: ['card', 'box'],
      address: { zip: '75001' },
    });
  });

  it('a choice question has Clear choice (enabled once something is chosen); it resets the choice', () => {
    const onSubmit = vi.fn();
    render(<SchemaForm schema={{ type: 'string', enum: ['slow', 'fast'] }} onSubmit={onSubmit} />);
    const clear = screen.getByRole('button', { name: 'Clear choice' }) as HTMLButtonElement;
    expect(clear.disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'slow' }));
    expect((screen.getByRole('radio', { name: 'slow' }) as HTMLInputElement).checked).toBe(true);
    expect(clear.disabled).toBe(false);
    fireEvent.click(clear);
    expect((screen.getByRole('radio', { name: 'slow' }) as HTMLInputElement).checked).toBe(false);
  });

  it.each([
    ['a text question', { type: 'string', title: 'Your answer', format: 'multiline' }],
    ['a form', schema],
  ] as const)('%s has no Clear choice', (_name, s) => {
    render(<SchemaForm schema={s as Schema} onSubmit={vi.fn()} />);
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
  });

  it('Cancel calls onCancel, with the words given', () => {
    const { onCancel } = setup({ cancelLabel: 'Skip question' });
    fireEvent.click(screen.getByRole('button', { name: 'Skip question' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('shows the server error under the form', () => {
    setup({ serverError: 'Interrupt i-1 payload is invalid: speed' });
    expect(screen.getByRole('alert').textContent).toContain('payload is invalid');
  });

  it('falls back to a JSON editor for unsupported parts', () => {
    const onSubmit = vi.fn();
    render(
      <SchemaForm
        schema={{ type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } }}
        onSubmit={onSubmit}
      />,
    );
    const ta = screen.getByLabelText(/Rows \(JSON\)/);
    change(ta, { target: { value: '[{"a":' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText(/Not valid JSON/)).toBeTruthy();
    change(ta, { target: { value: '[{"a":1}]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({ rows: [{ a: 1 }] });
  });
});
