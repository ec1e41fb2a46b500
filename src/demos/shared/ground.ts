/**
 * A demo's ground grid (src/render/ground.ts's spec from its size and
 * colours) bound on the app's grid pass: drawn under the particles each
 * frame, freed with the demo's scene.
 */
import { groundGrid } from '../../render/ground';
import type { GridBinding, GridPass, GridSpec } from '../../render/gridPass';
import type { DrawView } from '../../render/particleLook';
import type { RenderPasses } from './demo';

export class DemoGround {
  readonly spec: GridSpec;
  private readonly grid: GridPass;
  private readonly binding: GridBinding;

  constructor(passes: RenderPasses, label: string, spec: Parameters<typeof groundGrid>[0]) {
    this.spec = groundGrid(spec);
    this.grid = passes.grid;
    this.binding = passes.grid.bind(label);
  }

  draw(pass: GPURenderPassEncoder, view: DrawView): void {
    this.grid.draw(pass, this.binding, this.spec, view);
  }

  destroy(): void {
    this.binding.destroy();
  }
}
