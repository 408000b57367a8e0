import { describe, expect, it } from 'vitest';
import { groupThreads } from './groupThreads';
import type { Thread } from '../transport/contract';

const now = new Date(2026, 2, 10, 15, 0, 0).getTime();
const day = 24 * 3600 * 1000;
const t = (id: string, updatedAt: number, pinned = false): Thread => ({ id, title: id, pinned, createdAt: 0, updatedAt, options: { systemPrompt: '' } });

describe('groupThreads', () => {
  it('puts pinned first and groups the rest by last activity', () => {
    const groups = groupThreads(
      [
        t('old', now - 30 * day),
        t('today', now - 3600 * 1000),
        t('pinned-old', now - 90 * day, true),
        t('yesterday', now - day),
        t('week', now - 4 * day),
        t('today2', now - 60 * 1000),
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.threads.map((x) => x.id)])).toEqual([
      ['Pinned', ['pinned-old']],
      ['Today', ['today2', 'today']],
      ['Yesterday', ['yesterday']],
      ['Previous 7 days', ['week']],
      ['Older', ['old']],
    ]);
  });
});
