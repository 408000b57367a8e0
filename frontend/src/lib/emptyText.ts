import { options, type VNode } from 'preact';

/**
 * An empty string among an element's children renders nothing, as React
 * renders it: no text node.
 *
 * Why: Preact makes an empty text node for `''` (what `{name && <b/>}`
 * gives when name is empty, or `{cond ? text : ''}`) and sets its data
 * again on every render of its component, even to the same `''`: a DOM
 * mutation each time. While an answer streams, App renders once a frame,
 * and the header's and the screen-reader announcer's empty texts were
 * mutated 60-120 times a second (a mutation observer saw them in Chromium).
 * WebKitGTK's CPU per streamed token did not move with this change (the
 * conversation's own repaint dominates: bench/README.md); it is kept so
 * the DOM changes only where something changed, as under React, for live
 * regions and mutation observers alike.
 *
 * Only element children are rewritten (a component's children reach an
 * element in the end); an array is copied before it is changed, never
 * changed in place, since it may be the caller's. Imported once, by
 * main.tsx and by the tests' setup, before anything renders.
 */
type Child = unknown;

function withoutEmpty(children: Child): Child {
  if (children === '') return null;
  if (!Array.isArray(children)) return children;
  let out: Child[] | null = null;
  for (let i = 0; i < children.length; i++) {
    const c: Child = children[i];
    const d = c === '' ? null : Array.isArray(c) ? withoutEmpty(c) : c;
    if (d !== c) {
      out ??= children.slice();
      out[i] = d;
    }
  }
  return out ?? children;
}

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  if (typeof vnode.type === 'string') {
    const props = vnode.props as { children?: Child };
    if (props.children !== undefined) {
      const c = withoutEmpty(props.children);
      if (c !== props.children) props.children = c;
    }
  }
  previous?.(vnode);
};
