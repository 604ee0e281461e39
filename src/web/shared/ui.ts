// The UI library every app is written with: Preact's components and hooks, written as htm's tagged
// templates (no JSX step: esbuild bundles the files as they are).
import htm from 'htm';
import { Component, type FunctionComponent, h } from 'preact';

export type { ComponentChildren } from 'preact';
export { render } from 'preact';
export { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

export const html = htm.bind(h);

/**
 * A component drawn again only when one of `parts(props)` is no longer the same (by identity):
 * for the items of long lists, where a live change touches one item of hundreds. The parts must
 * name everything the item shows that can change (its handlers may stay out: they only call the
 * page's setters).
 */
export function memo<P extends object>(
  component: FunctionComponent<P>,
  parts: (props: P) => readonly unknown[],
): FunctionComponent<P> {
  class Memo extends Component<P> {
    private seen: readonly unknown[] = [];
    override shouldComponentUpdate(next: P): boolean {
      const now = parts(next);
      return now.length !== this.seen.length || now.some((part, index) => part !== this.seen[index]);
    }
    override render(props: P) {
      this.seen = parts(props);
      return h(component, props);
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}
