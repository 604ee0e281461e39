// The UI library every app is written with: Preact's components and hooks, written as htm's tagged
// templates (no JSX step: esbuild bundles the files as they are).
import htm from 'htm';
import { h } from 'preact';

export type { ComponentChildren } from 'preact';
export { render } from 'preact';
export { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';

export const html = htm.bind(h);
