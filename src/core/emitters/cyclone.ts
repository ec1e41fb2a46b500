/**
 * Cyclone's fireworks demo (src/demos/fireworks/fireworks.cpp), as firework
 * rules: FireworksDemo::initFireworkRules' nine rules, their payloads
 * (children of children: type 1 bursts into 3s and 5s, and each 5 into more
 * 3s), the colours of FireworksDemo::display, and Firework::update's death
 * below the ground (floor 0). Every rule has mass 1 and GRAVITY, as
 * FireworkRule::create sets. Cyclone launches a firework from x in
 * {-5, 0, 5} when a key is pressed; `cycloneLaunchers` gives one emitter per
 * type, rate 0, so `emitters.burst(type - 1, 1)` is that key press.
 */
import type { EmitterInit, FireworkRuleInit } from './types';

const COLORS: Record<number, [number, number, number]> = {
  1: [1, 0, 0],
  2: [1, 0.5, 0],
  3: [1, 1, 0],
  4: [0, 1, 0],
  5: [0, 1, 1],
  6: [0.4, 0.4, 1],
  7: [1, 0, 1],
  8: [1, 1, 1],
  9: [1, 0.5, 0.5],
};

function rule(
  type: number,
  fuse: [number, number],
  min: [number, number, number],
  max: [number, number, number],
  damping: number,
  payload: { type: number; count: number }[] = [],
): FireworkRuleInit {
  return { type, fuse, velocity: { min, max }, damping, payload, color: COLORS[type], floor: 0 };
}

/** FireworksDemo::initFireworkRules, rule for rule. */
export const CYCLONE_FIREWORK_RULES: readonly FireworkRuleInit[] = [
  rule(1, [0.5, 1.4], [-5, 25, -5], [5, 28, 5], 0.1, [
    { type: 3, count: 5 },
    { type: 5, count: 5 },
  ]),
  rule(2, [0.5, 1.0], [-5, 10, -5], [5, 20, 5], 0.8, [{ type: 4, count: 2 }]),
  rule(3, [0.5, 1.5], [-5, -5, -5], [5, 5, 5], 0.1),
  rule(4, [0.25, 0.5], [-20, 5, -5], [20, 5, 5], 0.2),
  rule(5, [0.5, 1.0], [-20, 2, -5], [20, 18, 5], 0.01, [{ type: 3, count: 5 }]),
  rule(6, [3, 5], [-5, 5, -5], [5, 10, 5], 0.95),
  rule(7, [4, 5], [-5, 50, -5], [5, 60, 5], 0.01, [{ type: 8, count: 10 }]),
  rule(8, [0.25, 0.5], [-1, -1, -1], [1, 1, 1], 0.01),
  rule(9, [3, 5], [-15, 10, -5], [15, 15, 5], 0.95),
];

/**
 * One launcher per rule, in type order (emitter i launches type i + 1): the
 * launch line x in [-5, 5] at the ground, rate `rate` per second each.
 * Cyclone picks x from {-5, 0, 5}; a thin box spans the same line.
 */
export function cycloneLaunchers(rate = 0, seed = 1): EmitterInit[] {
  return CYCLONE_FIREWORK_RULES.map((r, i) => ({
    firework: r.type,
    rate,
    shape: { type: 'box', center: [0, 0, 0], halfExtents: [5, 0, 0] },
    seed: seed + i,
  }));
}
