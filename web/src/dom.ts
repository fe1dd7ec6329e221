/**
 * A few lines of DOM building instead of a framework: `h()` for HTML,
 * `svg()` for SVG. Text always goes in as text nodes, never as HTML, so
 * repository content cannot inject markup.
 */

/** What may appear as a child: nodes, text, nothing, or nested lists of those. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attributes: `class`, `on<event>` handlers, booleans (present when true), anything else as a string. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: any) => void)>;

function apply(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** Replaces an element's children. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.textContent = '';
  append(el, children);
}

/** A link-styled button: real buttons are keyboard-accessible without extra work. */
export function linkButton(label: Child, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const extra = typeof attrs.class === 'string' ? ` ${attrs.class}` : '';
  return h('button', { type: 'button', ...attrs, class: `link${extra}`, onclick: onClick }, label);
}

/** A plain error message box (role=alert so it is announced and easy to find). */
export function errorBox(message: string): HTMLElement {
  return h('div', { class: 'error', role: 'alert' }, message);
}

/** `0.5912` → `0.591`; null → `–`. */
export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

/**
 * The "path on the server, or upload" form of the trace and report views:
 * submitting calls `onPath` with the typed path.
 */
export function pathForm(
  pathInput: HTMLInputElement,
  fileInput: HTMLInputElement,
  button: { id: string; label: string },
  onPath: (path: string) => void,
): HTMLFormElement {
  return h(
    'form',
    {
      class: 'row path-form',
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        onPath(pathInput.value);
      },
    },
    pathInput,
    h('button', { type: 'submit', id: button.id }, button.label),
    h('label', { class: 'upload' }, 'or upload ', fileInput),
  );
}
