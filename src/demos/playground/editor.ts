/**
 * The playground's code editor: CodeMirror 6 with JSON syntax, folding
 * (basicSetup's gutter), completion of keys and enum values from the scene
 * format's JSON Schema (codemirror-json-schema), and a lint mark: each edit is
 * checked by parseScene (validate.ts) a moment after typing stops, and its
 * refusal is marked at its JSON path with parseScene's own message.
 */
import { json, jsonLanguage } from '@codemirror/lang-json';
import { ensureSyntaxTree } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { disableErrorLogging } from 'best-effort-json-parser';
import { basicSetup } from 'codemirror';
import { jsonCompletion, stateExtensions } from 'codemirror-json-schema';
import { sceneJsonSchema } from '../../scene/jsonSchema';
import { checkScene, type Checked } from './validate';

// codemirror-json-schema reads the text being typed with best-effort-json-parser, which logs a console
// error for every half-written value; the lint mark already says what is wrong.
disableErrorLogging();

/** How long typing must pause before the text is checked, ms. */
const CHECK_DELAY_MS = 250;

export interface SceneEditorOptions {
  parent: HTMLElement;
  /** Called with each check's result (the text it checked with it). */
  checked: (result: Checked, text: string) => void;
}

export class SceneEditor {
  readonly view: EditorView;
  /** The name messages give the text (`bridge.json`, or the opened file's). */
  name = 'scene.json';
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last result, for the page and the tests. */
  last: Checked | null = null;

  constructor(private readonly options: SceneEditorOptions) {
    this.view = new EditorView({
      parent: options.parent,
      state: EditorState.create({
        doc: '',
        extensions: [
          basicSetup,
          json(),
          jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
          // The schema's type is json-schema's JSONSchema7 (no types installed): the generated object is one.
          stateExtensions(sceneJsonSchema() as Parameters<typeof stateExtensions>[0]),
          lintGutter(),
          EditorView.lineWrapping,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) this.schedule();
          }),
          EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { overflow: 'auto' } }),
        ],
      }),
    });
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Replaces the whole text (a new example or file) and checks it at once. */
  setText(text: string, name: string): void {
    this.name = name;
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
    this.checkNow();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.checkNow(), CHECK_DELAY_MS);
  }

  /** Checks the text now, marks its refusal (or clears the mark) and reports the result. */
  checkNow(): Checked {
    clearTimeout(this.timer);
    const state = this.view.state;
    const text = state.doc.toString();
    // The whole tree, not just the part parsed so far (the mark may be anywhere).
    const tree = ensureSyntaxTree(state, state.doc.length, 1000);
    const result = tree
      ? checkScene(text, this.name, tree)
      : checkScene(text, this.name, jsonLanguage.parser.parse(text));
    const diagnostics: Diagnostic[] = result.ok
      ? []
      : [{ from: result.from, to: result.to, severity: 'error', message: result.message, source: result.path }];
    this.view.dispatch(setDiagnostics(state, diagnostics));
    this.last = result;
    this.options.checked(result, text);
    return result;
  }

  destroy(): void {
    clearTimeout(this.timer);
    this.view.destroy();
  }
}
