import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { Composer } from './Composer';

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

function setup(model: string) {
  const onAllow = vi.fn(() => Promise.resolve());
  const r = render(
    <Composer
      status="idle"
      configured
      onOpenSettings={() => {}}
      queued={[]}
      onRemoveQueued={() => Promise.resolve()}
      onSend={() => Promise.resolve()}
      onStop={() => Promise.resolve()}
      acceptsImages={false}
      imagesAsk={{ model, onAllow }}
    />,
  );
  const attach = () =>
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), {
      clipboardData: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] },
    });
  return { ...r, onAllow, attach };
}

afterEach(() => localStorage.clear());

describe('Images attached while the model is not known to accept them', () => {
  it('TestKnownVisionModelOffersImages: a known vision model is offered in one click', async () => {
    const { onAllow, attach } = setup('gpt-4o-mini');
    expect(screen.queryByRole('group', { name: 'Images and this model' })).toBeNull();
    attach();
    const ask = await screen.findByRole('group', { name: 'Images and this model' });
    expect(ask.textContent).toContain('gpt-4o-mini reads images');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send images' }));
    });
    expect(onAllow).toHaveBeenCalledTimes(1);
  });

  it('TestUnknownModelAskedOnce: another model is asked once; No is remembered for it', async () => {
    const first = setup('my-local-model');
    first.attach();
    await screen.findByText(/accept images\?/);
    expect(screen.getByRole('button', { name: 'Yes, it does' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(screen.queryByRole('group', { name: 'Images and this model' })).toBeNull();
    first.unmount();
    const again = setup('my-local-model');
    again.attach();
    await screen.findByRole('button', { name: 'Remove shot.png' });
    expect(screen.queryByRole('group', { name: 'Images and this model' })).toBeNull();
    expect(again.onAllow).not.toHaveBeenCalled();
  });
});
