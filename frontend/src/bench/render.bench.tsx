import { bench, describe } from 'vitest';
import { createRoot } from 'react-dom/client';
import { act } from 'react';
import { ThreadView } from '../components/ThreadView';
import { threadReducer } from '../state/threadReducer';
import { deriveThread } from '../state/derive';
import { emptyThreadState } from '../state/types';
import { bigThreadView } from '../test/builders';

// React's act() environment flag, so updates flush synchronously in the bench.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = bigThreadView('big', 2000);
const noop = () => undefined;

describe('rendering a 2,000-message thread (jsdom)', () => {
  bench(
    'GetThread result → reducer → first render of the windowed list',
    () => {
      const host = document.createElement('div');
      host.style.height = '800px';
      document.body.appendChild(host);
      const root = createRoot(host);
      const state = threadReducer(emptyThreadState('big'), { type: 'load', view });
      act(() => {
        root.render(
          <ThreadView
            threadId="big"
            view={deriveThread(state)}
            highlight={null}
            onContinue={noop}
            onRegenerate={noop}
            onEditLast={noop}
          />,
        );
      });
      if (!host.querySelector('.vlist-row')) throw new Error('nothing rendered');
      act(() => root.unmount());
      host.remove();
    },
    { time: 3000 },
  );
});
