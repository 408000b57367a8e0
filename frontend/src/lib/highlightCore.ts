// The highlighter core, loaded on demand by ./highlight.ts (its own chunk):
// lowlight on highlight.js/lib/core, with no grammar registered.
import { createLowlight } from 'lowlight';

export function newLowlight() {
  return createLowlight();
}
