import { type ComponentChildren, html, useEffect, useRef } from './ui.ts';

/**
 * A modal dialog (the browser's own `<dialog>`: focus kept inside, Escape closes it), open while
 * it is rendered; `onClose` hears Escape and the close button.
 */
export function Dialog(props: {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children?: ComponentChildren;
}) {
  const element = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = element.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return html`<dialog
    ref=${element}
    aria-labelledby="dialog-title"
    onCancel=${(event: Event) => {
      event.preventDefault();
      props.onClose();
    }}
  >
    <h2 id="dialog-title">${props.title}</h2>
    ${props.children}
    <p class="actions">
      <button type="button" class="secondary" onClick=${props.onClose}>${props.closeLabel}</button>
    </p>
  </dialog>`;
}
