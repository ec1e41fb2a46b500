/**
 * Mouse, wheel and touch input for an OrbitCamera, through Pointer Events:
 * one pointer drags to orbit (right button, or shift, pans), two pointers
 * pinch to zoom and move together to pan, the wheel zooms. `dispose()`
 * removes every listener it added.
 */
import type { OrbitCamera } from './camera';

/** How fast OrbitControls turns and zooms, and whom it tells of a change. */
export interface OrbitControlsOptions {
  /** Radians per CSS pixel dragged. */
  rotateSpeed?: number;
  /** Zoom factor per wheel notch (100 delta units). */
  wheelZoom?: number;
  /** Called after every change, e.g. to redraw a paused scene. */
  onChange?: () => void;
}

interface TrackedPointer {
  x: number;
  y: number;
  pan: boolean;
}

/**
 * Mouse, wheel and touch input for an OrbitCamera: drag to orbit, right button
 * or shift to pan, wheel or pinch to zoom, two fingers to pan.
 */
export class OrbitControls {
  private readonly pointers = new Map<number, TrackedPointer>();
  private pinchDistance = 0;
  private readonly rotateSpeed: number;
  private readonly wheelZoom: number;
  private readonly abort = new AbortController();

  constructor(
    private readonly element: HTMLElement,
    private readonly camera: OrbitCamera,
    private readonly options: OrbitControlsOptions = {},
  ) {
    this.rotateSpeed = options.rotateSpeed ?? 0.006;
    this.wheelZoom = options.wheelZoom ?? 1.12;
    const signal = this.abort.signal;
    // The page must not scroll or zoom while the canvas is being dragged.
    element.style.touchAction = 'none';
    element.addEventListener('pointerdown', (e) => this.down(e), { signal });
    element.addEventListener('pointermove', (e) => this.move(e), { signal });
    element.addEventListener('pointerup', (e) => this.up(e), { signal });
    element.addEventListener('pointercancel', (e) => this.up(e), { signal });
    element.addEventListener('wheel', (e) => this.wheel(e), { signal, passive: false });
    element.addEventListener('contextmenu', (e) => e.preventDefault(), { signal });
  }

  private down(event: PointerEvent): void {
    this.element.setPointerCapture?.(event.pointerId);
    this.pointers.set(event.pointerId, {
      x: event.clientX,
      y: event.clientY,
      pan: event.button === 2 || event.shiftKey,
    });
    if (this.pointers.size === 2) this.pinchDistance = this.spread();
  }

  private move(event: PointerEvent): void {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    const dx = event.clientX - pointer.x;
    const dy = event.clientY - pointer.y;
    if (this.pointers.size === 1) {
      if (pointer.pan) this.camera.pan(dx, dy, this.element.clientHeight);
      else this.camera.orbit(-dx * this.rotateSpeed, dy * this.rotateSpeed);
    } else if (this.pointers.size === 2) {
      // Two fingers: the midpoint pans (half the move each), the spread zooms.
      this.camera.pan(dx / 2, dy / 2, this.element.clientHeight);
    }
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (this.pointers.size === 2) {
      const spread = this.spread();
      if (this.pinchDistance > 0 && spread > 0) this.camera.zoom(this.pinchDistance / spread);
      this.pinchDistance = spread;
    }
    this.options.onChange?.();
  }

  private up(event: PointerEvent): void {
    this.pointers.delete(event.pointerId);
    this.pinchDistance = this.pointers.size === 2 ? this.spread() : 0;
  }

  private wheel(event: WheelEvent): void {
    event.preventDefault();
    // deltaMode 1 is lines (Firefox), about 33 pixels each.
    const delta = event.deltaY * (event.deltaMode === 1 ? 33 : 1);
    this.camera.zoom(Math.pow(this.wheelZoom, delta / 100));
    this.options.onChange?.();
  }

  private spread(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  }

  /** Removes every listener it added. */
  dispose(): void {
    this.abort.abort();
    this.pointers.clear();
  }
}
