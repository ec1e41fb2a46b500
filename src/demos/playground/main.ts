/**
 * The Playground page (demos/playground.html): a scene file in a code editor
 * (editor.ts) beside its live preview (playground.ts, run by the shared demo
 * app). The pane above the editor picks an example from public/scenes, opens
 * a file (picker or drag and drop), downloads the text, shares it in the
 * link (share.ts) and resets it to what was opened; the line under it says
 * whether the text is valid and, if not, parseScene's message.
 */
import { runDemo } from '../shared/app';
import { SceneEditor } from './editor';
import { DEFAULT_EXAMPLE, EXAMPLES, fetchExample, isExample, type ExampleId } from './examples';
import { playgroundDefinition, SceneSource, type PreviewReport } from './playground';
import { readHash, shareHash } from './share';
import type { Checked } from './validate';
import './playground.css';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The editor's pane: toolbar, editor, status line. */
function buildPane() {
  const pane = element('section', 'pg-pane');
  pane.setAttribute('aria-label', 'Scene file');
  const toolbar = element('div', 'pg-toolbar');
  const examples = element('select', 'pg-examples');
  examples.setAttribute('aria-label', 'Example');
  for (const example of EXAMPLES) examples.append(new Option(example.title, example.id));
  examples.append(new Option('Your file', 'file'));
  const button = (label: string, title: string) => {
    const b = element('button', 'pg-button', label);
    b.type = 'button';
    b.title = title;
    return b;
  };
  const open = button('Open…', 'Open a scene file (or drop one on the editor)');
  const download = button('Download', 'Save the text as a file');
  const share = button('Share link', 'Put the text in the link and copy it');
  const reset = button('Reset', 'Back to the example or file as opened');
  const picker = element('input', 'pg-picker');
  picker.type = 'file';
  picker.accept = '.json,application/json';
  picker.hidden = true;
  toolbar.append(examples, open, download, share, reset, picker);
  const host = element('div', 'pg-editor');
  const status = element('p', 'pg-status');
  status.setAttribute('role', 'status');
  pane.append(toolbar, host, status);
  document.body.append(pane);
  return { pane, examples, open, download, share, reset, picker, host, status };
}

const ui = buildPane();
/** What Reset goes back to: the example, file or shared text as it was opened. */
let opened = { text: '', name: 'scene.json' };
let lastPublished: string | null = null;
let refitNext = true;
let check: Checked | null = null;
let preview: PreviewReport | null = null;
let notice = '';

function showStatus(): void {
  const lines: string[] = [];
  let tone = 'ok';
  if (!check) lines.push('Loading…');
  else if (check.ok) lines.push(`✓ ${editor.name} is a valid scene`);
  else {
    tone = 'error';
    lines.push(check.message);
    lines.push('The preview shows the last valid text.');
  }
  if (preview && 'building' in preview && preview.building === editor.text) lines.push('Building its preview…');
  if (preview && 'failed' in preview && preview.text === editor.text) {
    tone = 'error';
    lines.push(`The preview could not be built: ${preview.failed}`);
  }
  if (notice) lines.push(notice);
  ui.status.className = `pg-status pg-${tone}`;
  ui.status.textContent = lines.join('\n');
}

const source = new SceneSource((report) => {
  preview = report;
  showStatus();
});

const editor = new SceneEditor({
  parent: ui.host,
  checked(result, text) {
    check = result;
    notice = '';
    if (result.ok && text !== lastPublished) {
      lastPublished = text;
      source.publish({ scene: result.scene, text, refit: refitNext });
    }
    refitNext = false;
    showStatus();
  },
});

/** Puts a new text in the editor (an example, a file, a shared link), to be framed anew. */
function openText(text: string, name: string, example: ExampleId | 'file'): void {
  opened = { text, name };
  ui.examples.value = example;
  refitNext = true;
  lastPublished = null;
  editor.setText(text, name);
}

async function openExample(id: ExampleId): Promise<void> {
  try {
    openText(await fetchExample(id), `${id}.json`, id);
    history.replaceState(null, '', `${location.pathname}${location.search}#example=${id}`);
  } catch (error) {
    notice = `Could not load the example: ${(error as Error).message}`;
    showStatus();
  }
}

async function openFile(file: File): Promise<void> {
  openText(await file.text(), file.name, 'file');
  history.replaceState(null, '', `${location.pathname}${location.search}`);
}

ui.examples.addEventListener('change', () => {
  const id = ui.examples.value;
  if (isExample(id)) void openExample(id);
});
ui.open.addEventListener('click', () => ui.picker.click());
ui.picker.addEventListener('change', () => {
  const file = ui.picker.files?.[0];
  if (file) void openFile(file);
  ui.picker.value = '';
});
ui.pane.addEventListener('dragover', (event) => {
  if (!event.dataTransfer?.types.includes('Files')) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
  ui.pane.classList.add('pg-dropping');
});
ui.pane.addEventListener('dragleave', () => ui.pane.classList.remove('pg-dropping'));
ui.pane.addEventListener('drop', (event) => {
  const file = event.dataTransfer?.files[0];
  ui.pane.classList.remove('pg-dropping');
  if (!file) return;
  event.preventDefault();
  void openFile(file);
});
ui.download.addEventListener('click', () => {
  const url = URL.createObjectURL(new Blob([editor.text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = editor.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
});
ui.share.addEventListener('click', () => {
  const hash = shareHash({ text: editor.text, name: editor.name });
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  notice = `The link holds the text (${location.href.length.toLocaleString('en-US')} characters)`;
  navigator.clipboard.writeText(location.href).then(
    () => {
      notice += ' and is copied.';
      showStatus();
    },
    () => {
      notice += ': copy it from the address bar.';
      showStatus();
    },
  );
  showStatus();
});
ui.reset.addEventListener('click', () => {
  refitNext = true;
  editor.setText(opened.text, opened.name);
});

/** The page's editor, for the browser test (read-only use elsewhere). */
declare global {
  interface Window {
    __playground?: { editor: SceneEditor; status: () => string };
  }
}
window.__playground = { editor, status: () => ui.status.textContent ?? '' };

async function start(): Promise<void> {
  const hash = readHash(location.hash);
  if (hash && 'shared' in hash) openText(hash.shared.text, hash.shared.name, 'file');
  else await openExample(hash && isExample(hash.example) ? hash.example : DEFAULT_EXAMPLE);
  runDemo(playgroundDefinition(source));
}

void start();
