import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Composer } from '../chat/Composer';
import { AttachmentList } from './AttachmentList';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { JunctureError } from '../../transport';
import { kindOf, MAX_FILE_BYTES, problemsOf, type PendingFile } from '../../lib/attachments';
import { change } from '../../test/change';

// The composer's files: paste, the file picker and drop make chips (a
// preview for images), each with a remove button; what cannot be sent is
// said before sending, and Send waits until it is removed.

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

function setup(acceptsImages: boolean) {
  const onSend = vi.fn<(text: string, files?: readonly PendingFile[]) => Promise<void>>(() => Promise.resolve());
  render(
    <Composer
      status="idle"
      configured
      onOpenSettings={() => {}}
      queued={[]}
      onRemoveQueued={() => Promise.resolve()}
      onSend={onSend}
      onStop={() => Promise.resolve()}
      acceptsImages={acceptsImages}
    />,
  );
  return { onSend, input: screen.getByRole('textbox', { name: 'Message' }) };
}

describe('Composer attachments', () => {
  it('attaches a pasted image with a preview, sends it with the text, and clears the chips', async () => {
    const { onSend, input } = setup(true);
    fireEvent.paste(input, { clipboardData: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } });
    const chip = await screen.findByRole('button', { name: 'Remove shot.png' });
    expect(chip.closest('li')?.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    change(input, { target: { value: 'what is this?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send (Enter)' }));
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    const [text, files] = onSend.mock.calls[0]!;
    expect(text).toBe('what is this?');
    expect(files?.map((f) => [f.name, f.mimeType, f.kind])).toEqual([['shot.png', 'image/png', 'image']]);
    expect(files?.[0]?.data).toMatch(/^iVBOR/);
    expect(screen.queryByRole('button', { name: 'Remove shot.png' })).toBeNull();
  });

  it('says before sending that the model does not take images; removing the chip allows the send', async () => {
    const { onSend, input } = setup(false);
    fireEvent.paste(input, { clipboardData: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('shot.png: the current model does not accept images');
    change(input, { target: { value: 'hello' } });
    const send = screen.getByRole('button', { name: 'Send (Enter)' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove shot.png' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(send);
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('hello'));
  });

  it('takes files from the picker and from a drop, and refuses unknown types with a reason', async () => {
    const { input } = setup(true);
    const picker = screen.getByLabelText('Choose files to attach');
    change(picker, { target: { files: [new File(['package main\n'], 'main.go', { type: '' })] } });
    expect(await screen.findByRole('button', { name: 'Remove main.go' })).toBeTruthy();
    const section = input.closest('section')!;
    fireEvent.drop(section, { dataTransfer: { types: ['Files'], files: [new File([new Uint8Array([0, 1, 2, 255])], 'blob.bin', { type: 'application/octet-stream' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('blob.bin: this type of file (application/octet-stream) cannot be sent');
    expect(screen.getByRole('button', { name: 'Attach files' }).getAttribute('title')).toContain('20 MiB a file');
  });
});

// Item 13 of issue 22: a PDF with no text (a scan) is said on its chip
// before sending, from what Go reads of it (InspectPDF, the same reading
// a send does); a PDF Go would refuse is refused before sending.
describe('Composer PDF chips', () => {
  const pdf = (name: string) => new File(['%PDF-1.4\n1 0 obj\n'], name, { type: 'application/pdf' });
  function setupWith(t: FakeTransport) {
    const onSend = vi.fn<(text: string, files?: readonly PendingFile[]) => Promise<void>>(() => Promise.resolve());
    render(
      <TransportContext.Provider value={t}>
        <Composer status="idle" configured onOpenSettings={() => {}} queued={[]} onRemoveQueued={() => Promise.resolve()} onSend={onSend} onStop={() => Promise.resolve()} />
      </TransportContext.Provider>,
    );
    return { onSend, input: screen.getByRole('textbox', { name: 'Message' }) };
  }
  const chipOf = async (name: string) => (await screen.findByRole('button', { name: `Remove ${name}` })).closest('li')!;

  it('says on the chip that the model will not be able to read a PDF with no text, and still sends it', async () => {
    const t = new FakeTransport({ InspectPDF: (f) => (f.name === 'scan.pdf' ? { pages: 1, hasText: false } : { pages: 2, hasText: true }) });
    const { onSend, input } = setupWith(t);
    change(screen.getByLabelText('Choose files to attach'), { target: { files: [pdf('scan.pdf'), pdf('report.pdf')] } });
    const scan = await chipOf('scan.pdf');
    await waitFor(() => expect(scan.textContent).toContain('PDF · 1 page'));
    expect(scan.textContent).toContain('No text found: the model will not be able to read it');
    const report = await chipOf('report.pdf');
    await waitFor(() => expect(report.textContent).toContain('PDF · 2 pages'));
    expect(report.textContent).not.toContain('No text found');
    expect(t.callsOf('InspectPDF').map(([f]) => (f as { name: string; mimeType: string; data: string }).name)).toEqual(['scan.pdf', 'report.pdf']);
    expect((t.callsOf('InspectPDF')[0]![0] as { data: string }).data).toBe(btoa('%PDF-1.4\n1 0 obj\n'));
    expect(screen.queryByRole('alert')).toBeNull();
    change(input, { target: { value: 'read these' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send (Enter)' }));
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    expect(onSend.mock.calls[0]![1]?.map((f) => f.name)).toEqual(['scan.pdf', 'report.pdf']);
    expect(t.callsOf('InspectPDF')).toHaveLength(2);
  });

  it('refuses before sending a PDF Go would refuse, with its words; a file named .pdf that is not one is not asked about', async () => {
    const t = new FakeTransport({
      InspectPDF: () => {
        throw new JunctureError('invalid-argument', 'bad.pdf: the PDF cannot be read (malformed PDF).', { code: 'attachment-refused', name: 'bad.pdf' });
      },
    });
    const { onSend, input } = setupWith(t);
    change(screen.getByLabelText('Choose files to attach'), { target: { files: [pdf('bad.pdf'), new File(['just text'], 'notes.pdf', { type: '' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('bad.pdf: the PDF cannot be read (malformed PDF).');
    expect((await chipOf('bad.pdf')).className).toContain('is-refused');
    expect(t.callsOf('InspectPDF')).toHaveLength(1);
    change(input, { target: { value: 'x' } });
    expect((screen.getByRole('button', { name: 'Send (Enter)' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove bad.pdf' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send (Enter)' }));
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
  });
});

describe('attachment checks', () => {
  it('knows kinds and limits', () => {
    const enc = new TextEncoder();
    expect(kindOf('a.pdf', '', enc.encode('%PDF-1.4'))).toBe('pdf');
    expect(kindOf('x.rs', '', enc.encode('fn main() {}'))).toBe('text');
    expect(kindOf('x', '', new Uint8Array([0, 0]))).toBe('other');
    const big: PendingFile = { key: 'k', name: 'big.txt', mimeType: 'text/plain', size: MAX_FILE_BYTES + 1, kind: 'text', data: '' };
    expect(problemsOf([big], true)).toEqual(['big.txt is 20.0 MiB: at most 20 MiB a file.']);
  });
});

describe('AttachmentList', () => {
  it('shows a stored image from GetAttachment, opens it full size, and a PDF chip with its page count', async () => {
    const t = new FakeTransport({
      GetAttachment: (_threadId, id) => ({ id: String(id), name: 'x', mimeType: 'image/png', size: 70, data: 'iVBORw0KGgo=' }),
    });
    render(
      <TransportContext.Provider value={t}>
        <AttachmentList
          threadId="th-1"
          attachments={[
            { id: 'h-img', name: 'shot.png', mimeType: 'image/png', size: 70 },
            { id: 'h-pdf', name: 'report.pdf', mimeType: 'application/pdf', size: 904, pages: 2 },
          ]}
        />
      </TransportContext.Provider>,
    );
    const thumb = await screen.findByRole('img', { name: 'shot.png' });
    expect(thumb.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(t.callsOf('GetAttachment')).toEqual([['th-1', 'h-img']]);
    expect(screen.getByRole('button', { name: 'Save report.pdf (PDF · 2 pages · 904 B)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show full size: shot.png' }));
    expect(await screen.findByRole('button', { name: 'Close image' })).toBeTruthy();
  });
});
