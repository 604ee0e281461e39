/**
 * The reference page's corrections to Swagger UI, served by the plugin as files of this origin (the
 * page's policy allows no inline style or script). What they cannot reach inside Swagger UI is
 * listed in docs/accessibility.md.
 */

/**
 * Colours of Swagger UI's own theme that fall short of WCAG AA's 4.5:1 contrast, each replaced by
 * a darker shade of the same hue: white on the method badges and version badges, the green of the
 * Authorize button, the red of Cancel, the blue of links and of the Execute button, the greys of
 * "Expand all" and of where a parameter goes.
 */
export const THEME_CSS = `.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0b63b8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #13795b; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a8590a; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c81e1e; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f7b6c; }
.swagger-ui .btn.authorize { border-color: #13795b; color: #13795b; }
.swagger-ui .btn.authorize svg { color: #13795b; fill: #13795b; }
.swagger-ui .btn.execute { background-color: #1a5fb4; border-color: #1a5fb4; }
.swagger-ui .info a, .swagger-ui .scopes h2 a { color: #1a5fb4; }
.swagger-ui .info .title small { background: #5b6270; }
.swagger-ui .info .title small.version-stamp { background-color: #4d7300; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #555; }
.swagger-ui .btn.cancel { border-color: #c81e1e; color: #c81e1e; }
.swagger-ui .parameter__in, .swagger-ui .parameter__extension, .swagger-ui .parameter__deprecated { color: #595959; }
`;

/**
 * Names Swagger UI leaves out, given as its parts appear (it draws the page after fetching the
 * document, and each operation when opened):
 * - the server choice gets a name (`select-name`), and so does each parameter's field (a list's
 *   text box, a choice's list: `label`, `select-name`), after its parameter, and the request body;
 * - an operation's path is a link inside the button that opens the operation, which a screen reader
 *   cannot reach as a link of its own (`nested-interactive`): it stays the button's text, not a
 *   second stop. Opening an operation still puts its address in the page's URL (deep linking).
 */
export const THEME_JS = `(() => {
  const name = () => {
    for (const select of document.querySelectorAll('select#servers:not([aria-label])')) {
      select.setAttribute('aria-label', 'Server');
    }
    for (const row of document.querySelectorAll('tr[data-param-name]')) {
      const fields = row.querySelectorAll(
        'input:not([aria-label]), select:not([aria-label]), textarea:not([aria-label])',
      );
      for (const field of fields) field.setAttribute('aria-label', row.dataset.paramName);
    }
    for (const body of document.querySelectorAll('textarea.body-param__text:not([aria-label])')) {
      body.setAttribute('aria-label', 'Request body');
    }
    for (const link of document.querySelectorAll('.opblock-summary-control a.nostyle[href]')) {
      link.removeAttribute('href');
    }
  };
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      name();
    });
  }).observe(document.body, { childList: true, subtree: true });
  name();
})();
`;
