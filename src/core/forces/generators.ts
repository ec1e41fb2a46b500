/**
 * Force generators' parameters: which each type takes, the rule each must
 * pass and its default, and the validation of a generator into its stored
 * form, once for every backend and for the scene file. The types themselves
 * are in generatorTypes.ts, their targets in targets.ts, the pair springs in
 * springLinks.ts.
 */
import { isFiniteFloat32, validator, type Validator } from '../validation';
import { FORCE_RULES, passesRule, type ParameterRule } from './forceRules';
import type { ForceGenerator, ForceType, StoredGenerator } from './generatorTypes';

export type {
  AnchoredBungeeForce,
  AnchoredSpringForce,
  AttractorForce,
  BuoyancyForce,
  DragForce,
  ForceGenerator,
  ForceType,
  GravityForce,
  StiffSpringForce,
  StoredGenerator,
  TurbulenceForce,
  VortexForce,
  WindForce,
} from './generatorTypes';
export { FORCE_RULES, passesRule } from './forceRules';
export { checkTarget, type ForceTarget } from './targets';
export { checkLink, checkLinks, SPRING_KINDS, type SpringLink } from './springLinks';

/** The parameters of each type: the rule it must pass and, for optional ones, its default. */
interface ParameterSpec {
  readonly rule: ParameterRule;
  readonly default?: number | readonly [number, number, number];
}

export const FORCE_PARAMETERS = {
  gravity: { g: { rule: 'vector' } },
  drag: { k1: { rule: 'nonNegative' }, k2: { rule: 'nonNegative' } },
  anchoredSpring: {
    anchor: { rule: 'vector' },
    restLength: { rule: 'nonNegative' },
    stiffness: { rule: 'nonNegative' },
  },
  anchoredBungee: {
    anchor: { rule: 'vector' },
    restLength: { rule: 'nonNegative' },
    stiffness: { rule: 'nonNegative' },
  },
  buoyancy: {
    maxDepth: { rule: 'positive' },
    volume: { rule: 'nonNegative' },
    waterHeight: { rule: 'finite' },
    liquidDensity: { rule: 'nonNegative', default: 1000 },
    gravity: { rule: 'nonNegative', default: 9.81 },
  },
  stiffSpring: { anchor: { rule: 'vector' }, stiffness: { rule: 'nonNegative' }, damping: { rule: 'nonNegative' } },
  attractor: { position: { rule: 'vector' }, strength: { rule: 'finite' }, softening: { rule: 'softening' } },
  vortex: {
    position: { rule: 'vector' },
    axis: { rule: 'axis' },
    strength: { rule: 'finite' },
    softening: { rule: 'softening' },
  },
  wind: { force: { rule: 'vector' } },
  turbulence: {
    strength: { rule: 'finite' },
    frequency: { rule: 'positive' },
    seed: { rule: 'seed' },
    offset: { rule: 'vector', default: [0, 0, 0] },
  },
} as const satisfies Record<ForceType, Record<string, ParameterSpec>>;

/** Every generator type a system accepts. */
export const FORCE_TYPES = Object.keys(FORCE_PARAMETERS) as ForceType[];

/** The forces' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
const check: Validator = validator();

export function refuse(what: string, value: unknown, rule: string): never {
  return check.refuse(what, value, rule);
}

function storedVector(what: string, value: unknown, rule: 'vector' | 'axis'): [number, number, number] {
  const out = check.vector(what, value, FORCE_RULES[rule], { componentRule: FORCE_RULES.vector });
  if (rule === 'axis' && out.every((x) => Math.fround(x) === 0)) check.refuse(what, out, FORCE_RULES.axis);
  return out as [number, number, number];
}

/**
 * Validates a generator and returns its stored form (a fresh, frozen object).
 * Throws SparkworksInputError naming the field (`what.field`) and the rule;
 * unknown types and unknown fields are refused too, so a typo is not ignored.
 */
export function checkGenerator(generator: ForceGenerator, what = 'generator'): StoredGenerator {
  const input = check.object(what, generator);
  const type = check.oneOf(`${what}.type`, input.type, FORCE_TYPES);
  const specs: Record<string, ParameterSpec> = FORCE_PARAMETERS[type];
  check.keys(what, input, Object.keys(specs), { kind: type, ignore: ['type'] });
  const stored: Record<string, unknown> = { type };
  for (const [name, spec] of Object.entries(specs)) {
    let value = input[name];
    if (value === undefined && spec.default !== undefined) value = spec.default;
    const at = `${what}.${name}`;
    if (spec.rule === 'vector' || spec.rule === 'axis') {
      stored[name] = Object.freeze(storedVector(at, value, spec.rule));
    } else {
      if (!passesRule(spec.rule, value)) check.refuse(at, value, FORCE_RULES[spec.rule]);
      stored[name] = value;
    }
  }
  checkDerived(stored as StoredGenerator, what);
  return Object.freeze(stored) as StoredGenerator;
}

/**
 * The most an attractor's strength / softening³ (a vortex's strength /
 * softening²) may be: the factor the force applies at the centre (on the
 * axis), float32's largest over 16, leaving room for the GPU's inverseSqrt
 * and division errors. Past it a particle at the centre gets 0 x infinity =
 * NaN (issue 17, item 5): the softening floor for the strength.
 */
const MAX_CENTRE_FACTOR = 3.4028234663852886e38 / 16;

/** Values the host derives from several parameters must fit a float32 too. */
function checkDerived(g: StoredGenerator, what: string): void {
  if (g.type === 'attractor' || g.type === 'vortex') {
    const power = g.type === 'attractor' ? 3 : 2;
    const factor = Math.abs(g.strength) / g.softening ** power;
    if (!(factor <= MAX_CENTRE_FACTOR)) {
      const floor = (Math.abs(g.strength) / MAX_CENTRE_FACTOR) ** (1 / power);
      check.refuse(
        `${what}.softening`,
        g.softening,
        `must be >= ${floor.toPrecision(3)} for strength ${g.strength}: |strength| / softening${power === 3 ? '³' : '²'}, ` +
          `the force's factor at the ${g.type === 'attractor' ? 'centre' : 'axis'}, must stay finite as a float32`,
      );
    }
  }
  if (g.type === 'buoyancy') {
    const full = g.liquidDensity * g.volume * g.gravity;
    if (!isFiniteFloat32(full)) {
      check.refuse(
        `${what}.volume`,
        g.volume,
        `liquidDensity * volume * gravity = ${full} must be finite as a float32`,
      );
    }
    if (!isFiniteFloat32(g.waterHeight + g.maxDepth) || Math.fround(1 / (2 * g.maxDepth)) === 0) {
      check.refuse(
        `${what}.maxDepth`,
        g.maxDepth,
        'waterHeight + maxDepth and 1/(2 maxDepth) must be finite, nonzero float32s',
      );
    }
  }
}
