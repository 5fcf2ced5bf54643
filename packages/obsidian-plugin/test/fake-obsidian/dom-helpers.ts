/**
 * Obsidian's additions to the DOM (declared globally in obsidian.d.ts): `createEl`/`createDiv`/
 * `createSpan`/`createSvg` on every node and as globals, `empty`, `detach`, `setText`, class and
 * attribute helpers, `show`/`hide`, `find`/`findAll`, `onClickEvent`. Installed on the happy-dom
 * prototypes. None of them parses HTML: text goes in as text nodes.
 */
import './dom-environment.js';

type Info = DomElementInfo | string | undefined;

function applyInfo(el: Element, info: DomElementInfo | SvgElementInfo): void {
  if (info.cls !== undefined) el.addClasses(Array.isArray(info.cls) ? info.cls : info.cls.split(' ').filter(Boolean));
  if (info.attr) el.setAttrs(info.attr);
  const html = info as DomElementInfo;
  if (html.text !== undefined) el.setText(html.text);
  if (html.title !== undefined) el.setAttribute('title', html.title);
  if (html.value !== undefined) (el as HTMLInputElement).value = html.value;
  if (html.type !== undefined) el.setAttribute('type', html.type);
  if (html.placeholder !== undefined) el.setAttribute('placeholder', html.placeholder);
  if (html.href !== undefined) el.setAttribute('href', html.href);
}

function place(parent: Node | undefined, el: Element, prepend: boolean | undefined): void {
  if (!parent) return;
  if (prepend) parent.insertBefore(el, parent.firstChild);
  else parent.appendChild(el);
}

function make<T extends Element>(
  doc: Document,
  parent: Node | undefined,
  el: T,
  o: Info | SvgElementInfo,
  cb?: (el: T) => void,
): T {
  const info = typeof o === 'string' ? { cls: o } : (o ?? {});
  applyInfo(el, info);
  place(info.parent ?? parent, el, info.prepend);
  cb?.(el);
  void doc;
  return el;
}

const proto = Node.prototype;

proto.createEl = function <K extends keyof HTMLElementTagNameMap>(
  this: Node,
  tag: K,
  o?: DomElementInfo | string,
  callback?: (el: HTMLElementTagNameMap[K]) => void,
) {
  const doc = this.ownerDocument ?? (this as unknown as Document);
  return make(doc, this, doc.createElement(tag), o, callback);
};
proto.createDiv = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLDivElement) => void) {
  return this.createEl('div', o, callback);
};
proto.createSpan = function (this: Node, o?: DomElementInfo | string, callback?: (el: HTMLSpanElement) => void) {
  return this.createEl('span', o, callback);
};
proto.createSvg = function <K extends keyof SVGElementTagNameMap>(
  this: Node,
  tag: K,
  o?: SvgElementInfo | string,
  callback?: (el: SVGElementTagNameMap[K]) => void,
) {
  const doc = this.ownerDocument ?? (this as unknown as Document);
  return make(doc, this, doc.createElementNS('http://www.w3.org/2000/svg', tag), o, callback);
};
proto.empty = function (this: Node) {
  while (this.firstChild) this.removeChild(this.firstChild);
};
proto.detach = function (this: Node) {
  this.parentNode?.removeChild(this);
};
proto.appendText = function (this: Node, val: string) {
  this.appendChild((this.ownerDocument ?? document).createTextNode(val));
};
proto.instanceOf = function <T>(this: Node, type: { new (): T }): boolean {
  return this instanceof (type as unknown as abstract new () => unknown);
} as Node['instanceOf'];

const el = Element.prototype;
el.getText = function (this: Element) {
  return this.textContent ?? '';
};
el.setText = function (this: Element, val: string | DocumentFragment) {
  this.empty();
  if (typeof val === 'string') this.appendText(val);
  else this.appendChild(val);
};
el.addClass = function (this: Element, ...classes: string[]) {
  this.classList.add(...classes);
};
el.addClasses = function (this: Element, classes: string[]) {
  this.classList.add(...classes);
};
el.removeClass = function (this: Element, ...classes: string[]) {
  this.classList.remove(...classes);
};
el.removeClasses = function (this: Element, classes: string[]) {
  this.classList.remove(...classes);
};
el.toggleClass = function (this: Element, classes: string | string[], value: boolean) {
  for (const c of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(c, value);
};
el.hasClass = function (this: Element, cls: string) {
  return this.classList.contains(cls);
};
el.setAttr = function (this: Element, name: string, value: string | number | boolean | null) {
  if (value === null) this.removeAttribute(name);
  else this.setAttribute(name, String(value));
};
el.setAttrs = function (this: Element, obj: { [key: string]: string | number | boolean | null }) {
  for (const [name, value] of Object.entries(obj)) this.setAttr(name, value);
};
el.getAttr = function (this: Element, name: string) {
  return this.getAttribute(name);
};
el.find = function (this: Element, selector: string) {
  return this.querySelector(selector);
} as Element['find'];
el.findAll = function (this: Element, selector: string) {
  return Array.from(this.querySelectorAll<HTMLElement>(selector));
};

const html = HTMLElement.prototype;
html.show = function (this: HTMLElement) {
  this.style.display = '';
};
html.hide = function (this: HTMLElement) {
  this.style.display = 'none';
};
html.toggle = function (this: HTMLElement, show: boolean) {
  if (show) this.show();
  else this.hide();
};
html.isShown = function (this: HTMLElement) {
  return this.style.display !== 'none' && this.isConnected;
};
html.setCssStyles = function (this: HTMLElement, styles: Partial<CSSStyleDeclaration>) {
  Object.assign(this.style, styles);
};
html.setCssProps = function (this: HTMLElement, props: Record<string, string>) {
  for (const [name, value] of Object.entries(props)) this.style.setProperty(name, value);
};
html.onClickEvent = function (
  this: HTMLElement,
  listener: (this: HTMLElement, ev: MouseEvent) => unknown,
  options?: boolean | AddEventListenerOptions,
) {
  this.addEventListener('click', listener as EventListener, options);
};

const g = globalThis as unknown as Record<string, unknown>;
g['createEl'] = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  o?: DomElementInfo | string,
  cb?: (el: HTMLElementTagNameMap[K]) => void,
) => make(document, undefined, document.createElement(tag), o, cb);
g['createDiv'] = (o?: DomElementInfo | string, cb?: (el: HTMLDivElement) => void) =>
  make(document, undefined, document.createElement('div'), o, cb);
g['createSpan'] = (o?: DomElementInfo | string, cb?: (el: HTMLSpanElement) => void) =>
  make(document, undefined, document.createElement('span'), o, cb);
g['createFragment'] = (cb?: (el: DocumentFragment) => void) => {
  const fragment = document.createDocumentFragment();
  cb?.(fragment);
  return fragment;
};
g['activeWindow'] = globalThis;
g['activeDocument'] = document;
g['sleep'] = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
