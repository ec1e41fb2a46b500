/**
 * The page around the canvas: a header with the demo's title, a note on what
 * is a stand-in, a notice (e.g. that the demo continued after a lost
 * device), a line of statistics, and a message box for missing WebGPU,
 * GPU errors and a lost device (with a button to restart).
 */

export interface HudOptions {
  title: string;
  /** What is a stand-in until a later issue lands, in plain words. */
  note?: string;
  /** Link back to the gallery. */
  galleryHref: string;
}

export interface MessageOptions {
  tone: 'info' | 'error';
  lines?: string[];
  button?: { label: string; onClick: () => void };
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Hud {
  readonly root: HTMLElement;
  readonly stats: HTMLElement;
  readonly overlay: HTMLElement;
  private readonly message: HTMLElement;
  readonly noteElement: HTMLElement;
  readonly noticeElement: HTMLElement;

  constructor(options: HudOptions) {
    this.root = element('header', 'sw-hud');
    const title = element('div', 'sw-title');
    const back = element('a', 'sw-back', '← Gallery');
    back.href = options.galleryHref;
    title.append(back, element('h1', undefined, options.title));
    this.noteElement = element('p', 'sw-note', options.note ?? '');
    this.noteElement.hidden = !options.note;
    this.stats = element('div', 'sw-stats', 'Starting WebGPU…');
    this.stats.setAttribute('aria-live', 'polite');
    this.noticeElement = element('p', 'sw-note sw-notice');
    this.noticeElement.setAttribute('role', 'status');
    this.noticeElement.hidden = true;
    this.root.append(title, this.noteElement, this.noticeElement, this.stats);
    // Labels laid over the canvas by a demo (e.g. viewport captions).
    this.overlay = element('div', 'sw-overlay');
    this.message = element('div', 'sw-message');
    this.message.setAttribute('role', 'alert');
    this.message.hidden = true;
    document.body.append(this.root, this.overlay, this.message);
  }

  setStats(text: string): void {
    this.stats.textContent = text;
  }

  /** A line that stays under the note until replaced. */
  setNotice(text: string): void {
    this.noticeElement.textContent = text;
    this.noticeElement.hidden = text === '';
  }

  showMessage(title: string, options: MessageOptions): void {
    this.message.replaceChildren();
    this.message.className = `sw-message sw-${options.tone}`;
    const box = element('div', 'sw-message-box');
    box.append(element('h2', undefined, title));
    for (const line of options.lines ?? []) box.append(element('p', undefined, line));
    if (options.button) {
      const button = element('button', 'sw-button', options.button.label);
      button.type = 'button';
      button.addEventListener('click', options.button.onClick, { once: true });
      box.append(button);
    }
    this.message.append(box);
    this.message.hidden = false;
  }

  hideMessage(): void {
    this.message.hidden = true;
    this.message.replaceChildren();
  }

  get messageShown(): boolean {
    return !this.message.hidden;
  }

  dispose(): void {
    this.root.remove();
    this.overlay.remove();
    this.message.remove();
  }
}
