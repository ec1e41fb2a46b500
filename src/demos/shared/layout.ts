/**
 * Where on the canvas a demo's scene goes: the canvas minus the parameter
 * panel's column on the right (while the panel is open and the canvas wide
 * enough) and the header's band at the top, in device pixels.
 */
import type GUI from 'lil-gui';
import type { CanvasTarget, PixelRect } from '../../render/canvasTarget';

export class SceneLayout {
  /** Whether the panel is open: lil-gui opens it at creation and reports each change through onOpenClose. */
  private panelOpen = true;
  /** The header's depth over the canvas, for the canvas size it was measured at. */
  private headerFor = { width: 0, height: 0, top: 0 };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly gui: GUI,
    private readonly header: HTMLElement,
  ) {
    // The callback hears the panel and each of its folders, and only when one of them
    // changes between open and closed: a change of the panel itself flips its state.
    gui.onOpenClose((changed) => {
      if (changed === gui) this.panelOpen = !this.panelOpen;
    });
  }

  /** The part of `target` the panel and the header leave free. */
  freeRect(target: CanvasTarget): PixelRect {
    const canvas = this.canvas.getBoundingClientRect();
    if (canvas.width === 0 || canvas.height === 0) return target.fullRect();
    const panel = this.gui.domElement.getBoundingClientRect();
    let right = canvas.width;
    const covered = canvas.right - panel.left + 8;
    if (this.panelOpen && panel.width > 0 && covered > 0 && covered < canvas.width * 0.45) right -= covered;
    const header = this.header.getBoundingClientRect();
    // The statistics line wraps differently as its numbers change: keep the deepest header seen at
    // this canvas size, so the picture does not jump up and down with the text.
    const measured = Math.min(Math.max(0, header.bottom + 6 - canvas.top), canvas.height * 0.3);
    if (canvas.width !== this.headerFor.width || canvas.height !== this.headerFor.height) {
      this.headerFor = { width: canvas.width, height: canvas.height, top: 0 };
    }
    const top = (this.headerFor.top = Math.max(this.headerFor.top, measured));
    const scale = target.width / canvas.width;
    return {
      x: 0,
      y: Math.round(top * scale),
      width: Math.max(1, Math.round(right * scale)),
      height: Math.max(1, Math.round((canvas.height - top) * scale)),
    };
  }
}
