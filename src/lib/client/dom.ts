/**
 * A few lines of DOM building for the site-wide page scripts (account menu, save hearts, admin notice,
 * review delete, bio toggle). They are plain module scripts rather than React islands so that a page
 * whose only interactive parts are these loads no React at all.
 */

type Child = Node | string | null | undefined | false;
type AttrValue = string | number | boolean | null | undefined;

/**
 * An element with attributes and children. `true` writes an empty attribute, `false`/null/undefined
 * leave it out; `on` holds event listeners. Text children are text nodes (never parsed as HTML).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  children: Child[] = [],
  on: { [E in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[E]) => void } = {},
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  for (const [type, listener] of Object.entries(on)) el.addEventListener(type, listener as EventListener);
  return el;
}

/** Sets or removes attributes as `h` does. */
export function setAttrs(el: Element, attrs: Record<string, AttrValue>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) el.removeAttribute(name);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

/** An SVG icon from our own constant markup (never from data). */
export function icon(markup: string): SVGSVGElement {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  return template.content.firstElementChild as SVGSVGElement;
}

/** Runs `refresh` now and whenever elements are added anywhere in the page (cards rendered later by an island). */
export function watchPage(refresh: () => void): void {
  refresh();
  let queued = false;
  new MutationObserver(() => {
    // Many additions in one task (a page of search results) make one refresh.
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      refresh();
    });
  }).observe(document.body, { childList: true, subtree: true });
}
