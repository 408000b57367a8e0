import './styles/global.css';
import './lib/effectTiming'; // before anything renders
import './lib/emptyText'; // before anything renders
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { TokenGate } from './features/connection/TokenMissing';
import { TransportContext, createTransport } from './transport';
import { markStartup, watchComposer } from './lib/startupMarks';
import { type FontPinCache, pinFontStacks } from './lib/fontStack';

const FONT_RECHECK_MS = 10_000;

markStartup('main'); // the bundle ran
watchComposer();
pinFontStacks(document, undefined, fontPinCache()); // before the first layout: see lib/fontStack.ts
markStartup('fonts');

// The last launch's font probe, checked again once start-up is long over.
function fontPinCache(): FontPinCache | undefined {
  try {
    return { storage: window.localStorage, later: (check) => window.setTimeout(check, FONT_RECHECK_MS) };
  } catch {
    return undefined; // no storage in this page: probe every launch
  }
}

const transport = createTransport();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <TransportContext.Provider value={transport}>
        <TokenGate transport={transport}>
          <App />
        </TokenGate>
      </TransportContext.Provider>
    </StrictMode>,
  );
}
