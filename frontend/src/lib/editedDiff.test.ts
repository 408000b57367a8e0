import { describe, expect, it } from 'vitest';
import { oldFromDiff, previewForEdit, splitLines, unifiedDiff } from './editedDiff';

// Written by Go's tools.UnifiedDiff (agent/tools/diff.go) for these texts.
const GO = [
  {
    old: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n',
    new: 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\nl',
    diff: '--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,5 +7,6 @@\n g\n h\n i\n-j\n+J\n k\n+l\n\\ No newline at end of file\n',
  },
  {
    old: 'one\ntwo',
    new: 'one\ntwo\nthree\n',
    diff: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n one\n-two\n\\ No newline at end of file\n+two\n+three\n',
  },
  { old: 'x\ny\n', new: 'x\nz\n', diff: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n' },
];

describe('editedDiff', () => {
  it('splitLines keeps newlines and adds no empty last line', () => {
    expect(splitLines('a\nb\n')).toEqual(['a\n', 'b\n']);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
    expect(splitLines('')).toEqual([]);
  });

  it('writes the same diff as Go and rebuilds the old text from it', () => {
    for (const c of GO) {
      expect(unifiedDiff('a/f.txt', 'b/f.txt', c.old, c.new)).toBe(c.diff);
      expect(oldFromDiff(c.diff, c.new)).toBe(c.old);
    }
  });

  it('round-trips random edits', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let k = 0; k < 200; k++) {
      const base = Array.from({ length: rnd(30) }, () => `l${rnd(6)}\n`);
      const edit = base.flatMap((l) => (rnd(5) === 0 ? [] : rnd(6) === 0 ? [l, `n${rnd(9)}\n`] : [l]));
      const a = base.join('') + (rnd(3) === 0 ? 'tail' : '');
      const b = edit.join('') + (rnd(3) === 0 ? 'end' : '');
      const d = unifiedDiff('a/f', 'b/f', a, b);
      if (a === b) expect(d).toBe('');
      else expect(oldFromDiff(d, b)).toBe(a);
    }
  });

  it('a diff that does not fit the content (truncated) gives null', () => {
    expect(oldFromDiff(GO[0]!.diff, 'other\n')).toBeNull();
    expect(oldFromDiff('No changes', 'x')).toBeNull();
  });

  const pv = { kind: 'diff', title: 'Edit f.txt', body: GO[2]!.diff, folder: '/w' };
  it('TestEditedWriteFileDiffFollowsTheEdit: the preview diffs the file against the edited content', () => {
    const model = { path: 'f.txt', content: 'x\nz\n' };
    expect(previewForEdit(pv, model, model)).toBe(pv);
    const got = previewForEdit(pv, model, { path: 'f.txt', content: 'x\ny\nmore\n' });
    expect(got.body).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n x\n y\n+more\n');
    // Back to what the file already holds: no changes.
    expect(previewForEdit(pv, model, { path: 'f.txt', content: 'x\ny\n' }).body).toMatch(/^No changes/);
    // "No changes" from Go: the file is the model's content.
    const same = { kind: 'diff', title: 'Edit f.txt', body: 'No changes: the file already has this content.', folder: '/w' };
    expect(previewForEdit(same, model, { path: 'f.txt', content: 'x\n' }).body).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,1 @@\n x\n-z\n');
    // A new file: everything is added.
    const create = { kind: 'diff', title: 'Create n.txt', body: unifiedDiff('/dev/null', 'b/n.txt', '', 'a\n'), folder: '/w' };
    expect(previewForEdit(create, { path: 'n.txt', content: 'a\n' }, { path: 'n.txt', content: 'b\n' }).body).toBe(
      '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+b\n',
    );
  });

  it('an edited path or an unrebuildable diff says the diff was of the model version', () => {
    const model = { path: 'f.txt', content: 'x\nz\n' };
    const moved = previewForEdit(pv, model, { path: 'g.txt', content: 'x\nz\n' });
    expect(moved.kind).toBe('note');
    expect(moved.body).toMatch(/path was edited/);
    const cut = { ...pv, body: GO[0]!.diff };
    expect(previewForEdit(cut, model, { path: 'f.txt', content: 'q' }).body).toMatch(/content was edited/);
  });
});
