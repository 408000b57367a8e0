import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import './emptyText';

async function mutationsOfRerender(ui: (n: number) => preact.ComponentChild) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  render(ui(1), host);
  const recs: string[] = [];
  const mo = new MutationObserver((ms) => ms.forEach((m) => recs.push(`${m.type} ${JSON.stringify(m.oldValue)} → ${JSON.stringify(m.target.textContent)}`)));
  mo.observe(host, { subtree: true, characterData: true, characterDataOldValue: true, childList: true, attributes: true });
  render(ui(2), host);
  await Promise.resolve();
  mo.disconnect();
  const html = host.innerHTML;
  const texts = [...host.querySelectorAll('*')].flatMap((e) => [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent));
  host.remove();
  return { recs, html, texts };
}

describe('emptyText', () => {
  it('renders an empty string child as nothing, so a render that changes nothing elsewhere touches nothing', async () => {
    const name = '';
    const text = '';
    const r = await mutationsOfRerender((n) => (
      <div>
        <b>{n}</b>
        {name && <i />}
        <span>{text}</span>
        <span>Instructions{name && <i />}</span>
        <p>{['a', '', ['', 'b']]}</p>
      </div>
    ));
    // Only the number changed.
    expect(r.recs).toEqual(['characterData "1" → "2"']);
    expect(r.texts).not.toContain('');
    expect(r.html).toBe('<div><b>2</b><span></span><span>Instructions</span><p>ab</p></div>');
  });

  it("never changes the caller's array", () => {
    const parts = ['x', ''];
    const host = document.createElement('div');
    render(<p>{parts}</p>, host);
    expect(parts).toEqual(['x', '']);
    expect(host.innerHTML).toBe('<p>x</p>');
  });

  it('leaves a text that becomes empty and then not, and a 0, as they are', async () => {
    const host = document.createElement('div');
    render(<p>{'a'}{0}</p>, host);
    render(<p>{''}{0}</p>, host);
    expect(host.innerHTML).toBe('<p>0</p>');
    render(<p>{'b'}{0}</p>, host);
    expect(host.innerHTML).toBe('<p>b0</p>');
  });
});
