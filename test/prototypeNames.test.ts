/**
 * Names that Object's prototype carries (constructor, __proto__, toString,
 * ...) are not types (issue 17, item 2): through the API and the scene file, a
 * force, an emitter shape or a collider of such a type is refused with a
 * SparkworksInputError naming it, nothing is registered, and the GPU system
 * (whose force WGSL is generated from the registry) keeps stepping.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { parseScene } from '../src/scene/scene';
import { useDevice } from './support/gpu';
import { refusal } from './support/refusal';

const gpu = useDevice();
const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'] as const;

describe.each(NAMES)('the prototype name %s', (name) => {
  it('is not a force type on either backend, and the GPU system still steps', async () => {
    const cpu = new CpuParticleSystem({ capacity: 4 });
    expect(refusal(() => cpu.forces.add({ type: name } as never)).message).toContain(`type = "${name}"`);
    expect(cpu.forces.size).toBe(0);
    const system = await ParticleSystem.create(gpu.get().device, { capacity: 4 });
    try {
      expect(refusal(() => system.forces.add({ type: name } as never)).message).toContain(`"${name}"`);
      expect(system.forces.size).toBe(0);
      await system.writeParticles(0, [{ position: [0, 0, 0], velocity: [1, 0, 0] }]);
      await system.stepMany(0.5, 2);
      expect((await system.read(0, 1)).position[0]).toBe(1);
    } finally {
      system.destroy();
    }
  });

  it('is not an emitter shape or a collider type', () => {
    const shape = refusal(() => new CpuParticleSystem({ capacity: 4, emitters: [{ shape: { type: name } } as never] }));
    expect(shape.message).toContain(`emitters[0].shape.type = "${name}"`);
    const collider = refusal(
      () => new CpuParticleSystem({ capacity: 4, collisions: { colliders: [{ type: name } as never] } }),
    );
    expect(collider.message).toContain(`colliders[0].type = "${name}"`);
  });

  it('is refused in a scene file with its JSON path, never a TypeError', () => {
    const scene = (body: string) => `{"particles": [{"position": [0, 0, 0]}], ${body}}`;
    expect(refusal(() => parseScene(scene(`"forces": [{"type": "${name}"}]`), 's.json')).message).toMatch(
      /s\.json: \$\.forces\[0\]\.type: must be one of/,
    );
    expect(
      refusal(() => parseScene(scene(`"capacity": 8, "emitters": [{"shape": {"type": "${name}"}}]`), 's.json')).message,
    ).toMatch(/\$\.emitters\[0\]\.shape\.type/);
  });
});
