import { useContext, useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { TransportContext, toJunctureError } from '../../transport';
import { isPdfData, toInput, type PendingFile } from '../../lib/attachments';

/**
 * Asks Go, once per attached PDF, what the model will get of it
 * (InspectPDF: pages, and whether any text was found), so its chip can
 * say before sending when the model will not be able to read it (a scan).
 * A PDF a send would refuse gets Go's reason as its refusal. Any other
 * failure says nothing: the send checks again.
 */
export function usePdfCheck(files: readonly PendingFile[], setFiles: Dispatch<SetStateAction<PendingFile[]>>) {
  const transport = useContext(TransportContext);
  const asked = useRef(new Set<string>());
  useEffect(() => {
    if (!transport) return;
    const update = (key: string, change: Partial<PendingFile>) => setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, ...change } : f)));
    for (const f of files) {
      // Go reads a file as a PDF by its first bytes, whatever its name.
      if (f.kind !== 'pdf' || f.pdf || f.refusal || asked.current.has(f.key) || !isPdfData(f.data)) continue;
      asked.current.add(f.key);
      transport.call('InspectPDF', toInput(f)).then(
        (pdf) => update(f.key, { pdf }),
        (e: unknown) => {
          const err = toJunctureError(e);
          if (err.details?.code === 'attachment-refused') update(f.key, { refusal: err.message });
        },
      );
    }
  }, [transport, files, setFiles]);
}
