/**
 * An orbit camera: a target, a distance, and two angles, turned into view and
 * projection matrices with gl-matrix (WebGPU's clip space: depth 0..1, hence
 * the `ZO` projections). gl-matrix style: the matrices are allocated once and
 * refilled by `update`, nothing allocates per frame.
 */
import { mat4, vec3 } from 'gl-matrix';

export type Projection = 'perspective' | 'orthographic';

export interface OrbitCameraState {
  target: [number, number, number];
  distance: number;
  /** Radians around +y; 0 looks from +z toward the target. */
  yaw: number;
  /** Radians above the horizon. */
  pitch: number;
}

const MAX_PITCH = Math.PI / 2 - 0.01;
const UP = vec3.fromValues(0, 1, 0);

export class OrbitCamera {
  readonly target = vec3.create();
  distance = 10;
  yaw = 0;
  pitch = 0.3;
  /** Vertical field of view (perspective), radians. */
  fovY = Math.PI / 4;
  near = 0.05;
  far = 2000;
  projection: Projection = 'perspective';
  minDistance = 0.1;
  maxDistance = 5000;
  /**
   * Lens shift in clip space (NDC units): the target is drawn at (shiftX,
   * shiftY) instead of the centre, e.g. to centre the scene in the part of the
   * canvas a side panel and a header leave free. The view direction does not change.
   */
  shiftX = 0;
  shiftY = 0;

  readonly eye = vec3.create();
  readonly view = mat4.create();
  readonly projectionMatrix = mat4.create();
  readonly viewProjection = mat4.create();

  constructor(state?: Partial<OrbitCameraState>) {
    if (state) this.set(state);
  }

  set(state: Partial<OrbitCameraState>): this {
    if (state.target) vec3.set(this.target, ...state.target);
    if (state.distance !== undefined) this.distance = state.distance;
    if (state.yaw !== undefined) this.yaw = state.yaw;
    if (state.pitch !== undefined) this.pitch = state.pitch;
    this.clamp();
    return this;
  }

  /** Rotates by an angle in radians (yaw right, pitch up). */
  orbit(deltaYaw: number, deltaPitch: number): void {
    this.yaw += deltaYaw;
    this.pitch += deltaPitch;
    this.clamp();
  }

  /** Moves toward the target: factor < 1 zooms in. */
  zoom(factor: number): void {
    this.distance *= factor;
    this.clamp();
  }

  /**
   * Slides the target in the view plane by a drag of (dx, dy) pixels on a
   * viewport `heightPx` tall, so the point under the pointer follows it.
   */
  pan(dx: number, dy: number, heightPx: number): void {
    const worldPerPixel = (2 * this.halfHeightAtTarget()) / Math.max(heightPx, 1);
    // The view matrix's first two rows are the camera's right and up axes in world space.
    const v = this.view;
    for (let c = 0; c < 3; c++) {
      const right = v[c * 4] as number;
      const up = v[c * 4 + 1] as number;
      this.target[c] = (this.target[c] as number) - right * dx * worldPerPixel + up * dy * worldPerPixel;
    }
  }

  /** Half the visible height at the target's distance (also the orthographic half-height). */
  halfHeightAtTarget(): number {
    return this.distance * Math.tan(this.fovY / 2);
  }

  /** Recomputes eye, view, projection and viewProjection for a viewport of aspect width/height. */
  update(aspect: number): void {
    const cosPitch = Math.cos(this.pitch);
    vec3.set(
      this.eye,
      this.target[0] + this.distance * cosPitch * Math.sin(this.yaw),
      this.target[1] + this.distance * Math.sin(this.pitch),
      this.target[2] + this.distance * cosPitch * Math.cos(this.yaw),
    );
    mat4.lookAt(this.view, this.eye, this.target, UP);
    const safeAspect = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
    if (this.projection === 'perspective') {
      mat4.perspectiveZO(this.projectionMatrix, this.fovY, safeAspect, this.near, this.far);
    } else {
      const h = this.halfHeightAtTarget();
      const w = h * safeAspect;
      // Depth range centred on the target so zooming never clips the scene.
      mat4.orthoZO(this.projectionMatrix, -w, w, -h, h, this.distance - this.far / 2, this.distance + this.far / 2);
    }
    if (this.shiftX !== 0 || this.shiftY !== 0) {
      // clip.xy += shift * clip.w: add the shift times the w row to the x and y rows (column-major).
      const p = this.projectionMatrix;
      for (let c = 0; c < 4; c++) {
        const w = p[c * 4 + 3] as number;
        p[c * 4] = (p[c * 4] as number) + this.shiftX * w;
        p[c * 4 + 1] = (p[c * 4 + 1] as number) + this.shiftY * w;
      }
    }
    mat4.multiply(this.viewProjection, this.projectionMatrix, this.view);
  }

  /**
   * Pixels per world unit at unit clip w: projection[1][1] * height / 2. A
   * sprite of world radius r at clip w is r * focalPixels / w pixels wide
   * (orthographic: w = 1).
   */
  focalPixels(heightPx: number): number {
    return ((this.projectionMatrix[5] as number) * heightPx) / 2;
  }

  private clamp(): void {
    this.pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, this.pitch));
    this.distance = Math.min(this.maxDistance, Math.max(this.minDistance, this.distance));
  }
}
