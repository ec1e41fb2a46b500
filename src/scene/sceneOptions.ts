/**
 * A checked scene's parts as the systems take them: particles, capacity,
 * collisions, forces, emitters and firework rules, and the look.
 */
import type { ColliderInit } from '../core/collisions/colliders';
import type { LinkInit } from '../core/collisions/links';
import type { CollisionOptions } from '../core/collisions/world';
import type { LifecycleOptions } from '../core/emitters/options';
import type { EmitterInit, FireworkRuleInit } from '../core/emitters/types';
import type { ParticleInit } from '../core/particles';
import { sceneForces, type SceneForces } from './forces';
import { sceneLook, withoutLook, type SceneLook } from './look';
import { hasLifecycle, type Scene } from './sceneSchema';

/** The scene's look (the top level's and each spawn rule's), checked and split into draws: see src/scene/look.ts. */
export function sceneToLook(scene: Scene): SceneLook {
  return sceneLook(scene.look, scene.emitters, scene.fireworks);
}

/** Particle slots: the scene's `capacity`, else its particle count. */
export function sceneCapacity(scene: Scene): number {
  return scene.capacity ?? scene.particles.length;
}

/**
 * The scene's emitters and firework rules as the systems take them, the
 * scene's particles being the permanent ones; {} without emitters or fireworks.
 */
export function sceneToLifecycle(scene: Scene): LifecycleOptions {
  if (!hasLifecycle(scene)) return {};
  return {
    // A rule's `look` is the renderer's (sceneToLook), not the emitters'.
    emitters: (scene.emitters ?? []).map(withoutLook) as EmitterInit[],
    fireworks: (scene.fireworks ?? []).map(withoutLook) as FireworkRuleInit[],
    permanent: scene.particles.length,
  };
}

/** The scene's force generators (with their targets) and pair springs, as the systems take them. */
export function sceneToForces(scene: Scene): SceneForces {
  return sceneForces(scene.forces, scene.particles.length);
}

/** The scene's particles as the systems take them (defaults are the core's; the scene-wide radius fills in). */
export function sceneToParticles(scene: Scene): ParticleInit[] {
  return scene.particles.map(({ slot: _slot, age: _age, lifetime: _lifetime, ...particle }) => ({
    ...particle,
    // simulate's output gives both; the stored inverse mass is the exact one (the schema checked they agree).
    ...(particle.mass !== undefined && particle.inverseMass !== undefined ? { mass: undefined } : {}),
    ...(particle.radius === undefined && scene.radius !== undefined ? { radius: scene.radius } : {}),
  }));
}

/** The scene's colliders, links and contact settings as the systems take them, or undefined without any. */
export function sceneToCollisions(scene: Scene): CollisionOptions | undefined {
  if (!scene.colliders && !scene.links && !scene.collisions) return undefined;
  return {
    ...(scene.collisions as CollisionOptions | undefined),
    ...(scene.colliders ? { colliders: scene.colliders as ColliderInit[] } : {}),
    ...(scene.links ? { links: scene.links as LinkInit[] } : {}),
  };
}
