import { FakeTransport } from './fakeTransport';
import { emptyView, settingsView, thread, threadResponders } from './builders';

/**
 * The runtime behind a window with one empty chat ('th-1', titled `title`)
 * and a configured model: what the window bench (src/bench/window.bench.tsx)
 * and streamingRenders.test.tsx stream an answer into.
 */
export function oneChatTransport(title: string): FakeTransport {
  return new FakeTransport({
    Status: () => ({ mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'fake' }),
    GetSettings: () => settingsView({}, { baseUrl: 'environment', model: 'saved', loopGuard: 'default' }),
    ...threadResponders({ 'th-1': emptyView(thread('th-1', title)) }),
    SearchHistory: () => [],
  });
}
