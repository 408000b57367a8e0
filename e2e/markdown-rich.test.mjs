// User story: the model answers with math and diagrams. Math in every
// delimiter style ($…$, \(…\), $$…$$, \[…\]) is typeset by KaTeX with its
// bundled fonts, prices stay text, a Mermaid flowchart is drawn, a diagram
// that does not parse shows its source and the reason, and a hostile diagram
// runs nothing. All of it under the page's Content-Security-Policy: any
// violation fails the story. Screenshots (light and dark) go to
// e2e/artifacts/markdown-rich-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, launch, send, latestThread, openThread } from './harness.mjs';

const artifacts = join(import.meta.dirname, 'artifacts');

let app;
const violations = [];
const dialogs = [];
before(async () => {
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
  app = await launch({ open: false });
  const { page } = app;
  // Reported from the page's first script on, across reloads.
  await page.exposeFunction('__reportCsp', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCsp(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    }, true);
  });
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await app.open();
});
after(() => app?.close());

const lastAnswer = (page) => page.getByRole('article', { name: 'Juncture said' }).last();


// What the diagram host's shadow root holds, for the checks below.
function diagramReport(answer) {
  return answer.evaluate((root) => [...root.querySelectorAll('.md-mermaid')].map((host) => {
    const all = [...(host.shadowRoot?.querySelectorAll('*') ?? [])];
    const svg = host.shadowRoot?.querySelector('svg');
    return {
      svg: !!svg,
      text: svg?.textContent ?? '',
      width: svg?.getBoundingClientRect().width ?? 0,
      hostWidth: host.clientWidth,
      onAttrs: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
      active: all.filter((el) => /^(script|iframe|object|embed|img|image|a|set|animate)$/i.test(el.localName)).map((el) => el.localName),
      urls: all.flatMap((el) => ['href', 'xlink:href', 'src'].map((n) => el.getAttribute(n)).filter((v) => v && !v.startsWith('#'))),
    };
  }));
}

test('math in four delimiter styles and a Mermaid diagram render; a broken diagram shows its source', async () => {
  const { page } = app;
  await send(page, 'Show me some math');
  await page.getByText('End of the math sample.').waitFor({ timeout: 20000 });
  const tid = await latestThread(app);
  await app.waitThread(tid, (v) => !v.running);
  const answer = lastAnswer(page);

  // Every delimiter style became KaTeX; the TeX source is in the MathML annotation.
  const math = await answer.evaluate((root) => [...root.querySelectorAll('.katex')].map((k) => ({
    tex: k.querySelector('annotation')?.textContent?.trim() ?? '',
    display: !!k.closest('.katex-display'),
  })));
  const want = [
    ['r', false],
    ['A = \\pi r^2', false],
    ['e^{i\\pi} + 1 = 0', false], // \(…\)
    ['\\int_0^1 x^2 \\, dx = \\frac{1}{3}', true], // $$…$$
    ['\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}', true], // \[…\]
  ];
  assert.deepEqual(math.map((m) => [m.tex, m.display]), want);
  assert.equal(await answer.locator('.katex-error').count(), 0, 'KaTeX reported an error');
  // KaTeX's "vlist" spans share a class name with the virtual list: the app's
  // scroller styles must not clip them (denominators and limits would vanish).
  const clipped = await answer.evaluate((root) => [...root.querySelectorAll('.katex .vlist')].filter((el) => getComputedStyle(el).overflow !== 'visible').length);
  assert.equal(clipped, 0, 'KaTeX layout spans are clipped');
  // Prices are text, and math in a code span stays code.
  const text = await answer.innerText();
  assert.match(text, /Prices such as \$5 and \$10 stay plain text\./);
  assert.equal(await answer.locator('code', { hasText: '$x^2$' }).count(), 1);
  // KaTeX's own fonts are in use (bundled, loaded from 'self').
  await page.waitForFunction(() => document.fonts.status === 'loaded', null, { timeout: 10000 });
  const fonts = await page.evaluate(() => [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').map((f) => f.family));
  assert.ok(fonts.includes('KaTeX_Main'), `KaTeX fonts not loaded: ${fonts}`);

  // The flowchart is drawn (lazily: mermaid is its own chunk) and fits the column.
  await answer.locator('.md-mermaid svg').first().waitFor({ timeout: 20000 });
  const [diagram, ...rest] = await diagramReport(answer);
  assert.equal(rest.length, 0, 'the broken diagram was drawn');
  assert.match(diagram.text, /Question.*Has math\?.*KaTeX.*Plain text.*Answer/s);
  assert.ok(diagram.width > 100 && diagram.width <= diagram.hostWidth, `diagram ${diagram.width}px in a ${diagram.hostWidth}px column`);
  assert.deepEqual([diagram.onAttrs, diagram.active, diagram.urls], [[], [], []]);

  // The block that does not parse: its source as code, and why.
  const note = answer.getByRole('note').filter({ hasText: 'Diagram could not be rendered' });
  await note.waitFor({ timeout: 20000 });
  assert.match(await note.innerText(), /Diagram could not be rendered: Parse error/);
  assert.equal(await answer.locator('pre code.language-mermaid', { hasText: 'graph TD; A-->' }).count(), 1);
  // Nothing overflows the message sideways.
  const overflow = await answer.evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 1, `the answer overflows by ${overflow}px`);

  // Tall enough for the whole answer in one picture.
  await page.setViewportSize({ width: 1280, height: 1280 });
  await page.mouse.move(1, 1);
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(artifacts, 'markdown-rich-light.png'), animations: 'disabled', caret: 'hide' });

  // Dark theme: the thread reopened after a reload draws its diagram again, themed.
  const cur = await app.api('GetSettings');
  await app.api('SaveSettings', { ...cur.settings, theme: 'dark' });
  await page.reload();
  await openThread(page, (await app.api('GetThread', tid)).thread.title);
  await lastAnswer(page).locator('.md-mermaid svg').first().waitFor({ timeout: 20000 });
  await lastAnswer(page).getByRole('note').first().waitFor({ timeout: 20000 });
  await page.mouse.move(1, 1);
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(artifacts, 'markdown-rich-dark.png'), animations: 'disabled', caret: 'hide' });
  await app.api('SaveSettings', { ...cur.settings });
  await page.setViewportSize({ width: 1280, height: 800 });

  assert.deepEqual(violations, [], 'Content-Security-Policy violations');
  assert.deepEqual(app.consoleErrors, []);
});

test('a hostile diagram runs nothing, links nowhere and cannot restyle the app, even without the CSP', async () => {
  const { page, browser } = app;
  await page.reload();
  const before = violations.length;
  await send(page, 'Show a hostile diagram');
  await page.getByText('End of the hostile diagram.').waitFor({ timeout: 20000 });
  const tid = await latestThread(app);
  await app.waitThread(tid, (v) => !v.running);

  // Drawn (the %%{init}%% asking for "loose" and a themeCSS is ignored), and inert.
  const check = async (p) => {
    const answer = lastAnswer(p);
    await answer.locator('.md-mermaid svg').first().waitFor({ timeout: 20000 });
    await p.waitForTimeout(300); // let any onerror fire
    const [d] = await diagramReport(answer);
    assert.deepEqual([d.onAttrs, d.active, d.urls], [[], [], []], 'active content in the diagram');
    assert.match(d.text, /link/); // the label's text survives; its markup does not
    assert.notEqual(await p.evaluate(() => getComputedStyle(document.body).display), 'none', 'themeCSS applied');
    // Clicking every node does nothing: no callback, no navigation, no dialog.
    const url = p.url();
    const nodes = answer.locator('.md-mermaid .node');
    for (let i = 0; i < await nodes.count(); i++) await nodes.nth(i).click({ timeout: 2000 }).catch(() => {});
    await p.waitForTimeout(300);
    assert.equal(p.url(), url, 'a diagram link navigated the app');
    assert.equal(await p.evaluate(() => window.__pwned), undefined, 'a payload ran');
  };
  await check(page);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(app.consoleErrors, []);
  // The only CSP reports are Chromium's for the label's onerror while
  // DOMPurify (inside mermaid) parses it in an inert DOMParser document: the
  // handler is refused before it could ever be compiled, and is not in the
  // SVG. Anything else fails the story.
  const fresh = violations.slice(before);
  const sanitizer = fresh.filter((v) => /^script-src-attr inline \S*\/assets\/mermaid\.core-[\w-]+\.js:\d+$/.test(v));
  const echoes = fresh.filter((v) => v.startsWith('Executing inline event handler violates')); // the console's copy
  assert.equal(echoes.length, sanitizer.length, 'inline handlers refused outside the sanitizer');
  assert.deepEqual(fresh.filter((v) => !sanitizer.includes(v) && !echoes.includes(v)), [], 'Content-Security-Policy violations');

  // The same without the CSP (Playwright bypasses it): still nothing runs,
  // so the CSP is the second line of defence, not the only one.
  const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
  try {
    const open = await ctx.newPage();
    const ctxDialogs = [];
    open.on('dialog', (dl) => { ctxDialogs.push(dl.message()); void dl.dismiss(); });
    await open.goto(app.url);
    await openThread(open, (await app.api('GetThread', tid)).thread.title);
    await check(open);
    assert.deepEqual(ctxDialogs, []);
  } finally {
    await ctx.close();
  }
});
