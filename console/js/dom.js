// @ts-check
// Small DOM builders: every value is set as text, never parsed as HTML.

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`missing #${id}`);
  return element;
}

/**
 * @param {string} id
 * @returns {string}
 */
export function valueOf(id) {
  const element = /** @type {HTMLInputElement} */ (byId(id));
  return element.value.trim();
}

/**
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {{ text?: string | number | boolean | null, className?: string, attrs?: Record<string, string> }} [options]
 * @param {Node[]} [children]
 * @returns {HTMLElementTagNameMap[T]}
 */
export function el(tag, options = {}, children = []) {
  const element = document.createElement(tag);
  if (options.text !== undefined)
    element.textContent = options.text === null ? '' : String(options.text);
  if (options.className !== undefined) element.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {}))
    element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * A table in a keyboard-scrollable box: one caption, a header row, then the rows' cells.
 * @param {string} caption
 * @param {string[]} headings
 * @param {(Node | string)[][]} rows
 * @returns {HTMLElement}
 */
export function table(caption, headings, rows) {
  const head = el(
    'tr',
    {},
    headings.map((heading) => el('th', { text: heading, attrs: { scope: 'col' } })),
  );
  const body = rows.map((cells) =>
    el(
      'tr',
      {},
      cells.map((cell) =>
        typeof cell === 'string' ? el('td', { text: cell }) : el('td', {}, [cell]),
      ),
    ),
  );
  const grid = el('table', {}, [
    el('caption', { text: caption }),
    el('thead', {}, [head]),
    el('tbody', {}, body),
  ]);
  return el(
    'div',
    { className: 'scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': caption } },
    [grid],
  );
}

/**
 * A yes/no cell that says it in words, not only in colour.
 * @param {boolean} value
 * @returns {HTMLElement}
 */
export function verdict(value) {
  return el('span', { text: value ? 'valid' : 'invalid', className: value ? 'yes' : 'no' });
}

/**
 * A definition list of label/value pairs; null values are shown as a dash.
 * @param {[string, unknown][]} pairs
 * @returns {HTMLElement}
 */
export function facts(pairs) {
  return el(
    'dl',
    {},
    pairs.flatMap(([label, value]) => [
      el('dt', { text: label }),
      el('dd', {
        text: value === null || value === undefined || value === '' ? '—' : String(value),
      }),
    ]),
  );
}

/**
 * Replaces a region's content.
 * @param {string} id
 * @param {Node[]} nodes
 */
export function show(id, nodes) {
  byId(id).replaceChildren(...nodes);
}
