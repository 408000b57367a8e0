import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { ImageViewer } from './ToolParts';

function Host() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Show full size
      </button>
      {open && <ImageViewer src="data:image/png;base64,AAAA" alt="shot.png" onClose={() => setOpen(false)} />}
    </>
  );
}

describe('ImageViewer', () => {
  it('TestImageViewerReturnsFocus: closing gives focus back to the thumbnail that opened it', () => {
    render(<Host />);
    const thumb = screen.getByRole('button', { name: 'Show full size' });
    thumb.focus();
    fireEvent.click(thumb);
    fireEvent.click(screen.getByRole('button', { name: 'Close image' }));
    expect(screen.queryByRole('button', { name: 'Close image' })).toBeNull();
    expect(document.activeElement).toBe(thumb);
  });
});
