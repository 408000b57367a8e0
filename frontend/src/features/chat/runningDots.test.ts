// The desktop window paints in software: an animation that changes in every
// frame repaints its element in every frame for as long as it runs. The dots
// that show a run going (the chat header's pill, the sidebar row) blink in
// steps instead (issue 26: the window's CPU while an answer streams).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

// read as text (the test setup gives CSS imports no content)
const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8');
const chatCss = read('./ChatView.css');
const sidebarCss = read('../sidebar/Sidebar.css');

function animationOf(css: string, selector: string): string {
  const rule = css.split('\n').find((l) => l.startsWith(`${selector} {`)) ?? '';
  return /animation:\s*([^;]+);/.exec(rule)?.[1] ?? '';
}

describe('TestRunningDotsBlinkInSteps', () => {
  it.each([
    ['.chat-pill-dot', chatCss],
    ['.titem-activity.running', sidebarCss],
  ])('%s changes twice a cycle, not in every frame', (selector, css) => {
    const a = animationOf(css, selector);
    expect(a).toMatch(/infinite/);
    expect(a).toMatch(/steps\(/);
  });
});
