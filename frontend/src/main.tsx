import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { TokenGate } from './features/connection/TokenMissing';
import { TransportContext, createTransport } from './transport';
import { markStartup, watchComposer } from './lib/startupMarks';
import { pinFontStacks } from './lib/fontStack';

markStartup('main'); // the bundle ran
watchComposer();
pinFontStacks(); // before the first layout: see lib/fontStack.ts
markStartup('fonts');

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
