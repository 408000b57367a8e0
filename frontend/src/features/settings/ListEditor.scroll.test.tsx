import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/preact';
import { EditorForm } from './ListEditor';

afterEach(() => vi.restoreAllMocks());

describe('EditorForm', () => {
  it('TestPresetEditFormScrolledIntoView: a form opened below the fold is brought into view', () => {
    const scroll = vi.fn();
    Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', { value: scroll, configurable: true, writable: true });
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('settings-body') ? new DOMRect(0, 0, 400, 500) : new DOMRect(0, 2000, 400, 300);
    });
    render(
      <div className="settings-body">
        <EditorForm label="Edit X" title="Edit X" formError={null} saving={false} saveLabel="Save" onSave={() => {}} onCancel={() => {}}>
          <input aria-label="Name" />
        </EditorForm>
      </div>,
    );
    expect(scroll).toHaveBeenCalledWith({ block: 'nearest' });
  });
});
