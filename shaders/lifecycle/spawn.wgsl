// Sampling a new particle from its spawn rule: the shape, the velocity and
// the ranges. Mirrored line for line by src/core/emitters/sampling.ts (the
// CPU reference), operation for operation in the same order, so the two
// differ only by what WGSL lets a GPU do differently (fused multiply-adds,
// and sin, cos, sqrt, pow within the accuracies the WGSL spec allows).
// Prepended: the lifecycle records (src/core/emitters/gpuRecords.ts) and
// shaders/shared/pcg.wgsl with the draw indices.

// The float32 just below 2*pi: (u - 0.5) * TAU_BELOW stays inside [-pi, pi],
// the interval on which WGSL bounds sin and cos (absolute error 2^-11).
const TAU_BELOW: f32 = 6.2831850051879883;
// f32(1/3), for the cube roots of volume sampling.
const ONE_THIRD: f32 = 0.3333333432674408;

// The shapes and velocity modes some spawn rule of the system uses (bit
// SHAPE_*, bit VELOCITY_*: src/core/emitters/spawnRules.ts, shapes and
// velocityModes); the others' code is compiled out, as the software adapter
// runs every case under a lane mask whether a lane takes it or not.
override SPAWN_SHAPES: u32 = 0xffffffffu;
override SPAWN_VELOCITY_MODES: u32 = 0xffffffffu;

fn spawnsShape(shape: u32) -> bool {
  return (SPAWN_SHAPES & (1u << shape)) != 0u;
}

fn spawnsVelocity(mode: u32) -> bool {
  return (SPAWN_VELOCITY_MODES & (1u << mode)) != 0u;
}

// min + span * u, never past max (a rounded-up span must not push a damping of 1 past 1).
fn within(low: f32, span: f32, high: f32, u: f32) -> f32 {
  return min(low + span * u, high);
}

// sqrt with sqrt(0) = 0 exactly: WGSL defines sqrt's accuracy through
// inverseSqrt, whose domain excludes 0.
fn safeSqrt(x: f32) -> f32 {
  return select(sqrt(x), 0.0, x <= 0.0);
}

// A uniform direction: z uniform in (-1, 1], the turn uniform in [-pi, pi).
// 1 - z^2 is written 4a(1 - a), exact up to one rounding, with no
// cancellation near the poles.
fn unitVector(a: f32, b: f32) -> vec3f {
  let z = 1.0 - 2.0 * a;
  let rxy = 2.0 * safeSqrt(a * (1.0 - a));
  let turn = (b - 0.5) * TAU_BELOW;
  return vec3f(rxy * cos(turn), rxy * sin(turn), z);
}

fn samplePosition(rule: SpawnRule, center: vec3f, key: u32) -> vec3f {
  let a = uniform01(draw(key, DRAW_SHAPE_0));
  let b = uniform01(draw(key, DRAW_SHAPE_1));
  let c = uniform01(draw(key, DRAW_SHAPE_2));
  switch rule.shape {
    case SHAPE_SPHERE: {
      if (spawnsShape(SHAPE_SPHERE)) {
        // A ball: the radius as the cube root of a uniform share, for a uniform density.
        let r = rule.radius * pow(open01(draw(key, DRAW_SHAPE_2)), ONE_THIRD);
        return center + unitVector(a, b) * r;
      }
    }
    case SHAPE_SPHERESURFACE: {
      if (spawnsShape(SHAPE_SPHERESURFACE)) { return center + unitVector(a, b) * rule.radius; }
    }
    case SHAPE_BOX: {
      if (spawnsShape(SHAPE_BOX)) { return center + rule.halfExtents * (vec3f(a, b, c) * 2.0 - 1.0); }
    }
    case SHAPE_DISC: {
      if (spawnsShape(SHAPE_DISC)) {
        let r = rule.radius * safeSqrt(open01(draw(key, DRAW_SHAPE_0)));
        let turn = (b - 0.5) * TAU_BELOW;
        return center + rule.shapeX * (r * cos(turn)) + rule.shapeY * (r * sin(turn));
      }
    }
    case SHAPE_CONE: {
      if (spawnsShape(SHAPE_CONE)) {
        // Distance from the apex as a cube root (the cross-section grows as its square),
        // then uniform over that cross-section's disc.
        let along = rule.height * pow(open01(draw(key, DRAW_SHAPE_0)), ONE_THIRD);
        let r = (along * rule.tanAngle) * safeSqrt(open01(draw(key, DRAW_SHAPE_1)));
        let turn = (c - 0.5) * TAU_BELOW;
        return center + rule.shapeZ * along + rule.shapeX * (r * cos(turn)) + rule.shapeY * (r * sin(turn));
      }
    }
    default: {}
  }
  // A point (or a shape no rule uses).
  return center;
}

// The velocity: a direction uniform over the spherical cap of the spread
// around velocityZ, times a speed in range; or Cyclone's randomVector(min,
// max). Plus the inherited share of the emitter's (or the parent's) velocity.
fn sampleVelocity(rule: SpawnRule, inheritFrom: vec3f, key: u32) -> vec3f {
  var v: vec3f;
  // Where only one mode is used, the test is a constant.
  let box = spawnsVelocity(VELOCITY_BOX) & ((rule.velocityMode == VELOCITY_BOX) | !spawnsVelocity(VELOCITY_CONE));
  if (box) {
    let u = vec3f(
      uniform01(draw(key, DRAW_BOX_X)),
      uniform01(draw(key, DRAW_BOX_Y)),
      uniform01(draw(key, DRAW_BOX_Z)),
    );
    v = min(rule.boxMin + rule.boxSpan * u, rule.boxMax);
  } else {
    // cos of the angle off the axis uniform in [cos(spread), 1]; sin from
    // w(2 - w) with w = 1 - cos, no cancellation near the axis.
    let w = uniform01(draw(key, DRAW_SPREAD_ANGLE)) * rule.oneMinusCosSpread;
    let cosAngle = 1.0 - w;
    let sinAngle = safeSqrt(w * (2.0 - w));
    let turn = (uniform01(draw(key, DRAW_SPREAD_TURN)) - 0.5) * TAU_BELOW;
    let direction = rule.velocityX * (sinAngle * cos(turn)) + rule.velocityY * (sinAngle * sin(turn)) + rule.velocityZ * cosAngle;
    let speed = within(rule.speedMin, rule.speedSpan, rule.speedMax, uniform01(draw(key, DRAW_SPEED)));
    v = direction * speed;
  }
  return v + inheritFrom * rule.inherit;
}

// Cyclone's FireworkRule::create, generalised: the whole particle and its life record.
fn spawnParticle(rule: SpawnRule, center: vec3f, inheritFrom: vec3f, key: u32) -> Particle {
  let mass = within(rule.massMin, rule.massSpan, rule.massMax, uniform01(draw(key, DRAW_MASS)));
  let damping = within(rule.dampingMin, rule.dampingSpan, rule.dampingMax, uniform01(draw(key, DRAW_DAMPING)));
  var p: Particle;
  setPosition(&p, samplePosition(rule, center, key));
  setInverseMass(&p, 1.0 / mass);
  setVelocity(&p, sampleVelocity(rule, inheritFrom, key));
  setDamping(&p, damping);
  setAcceleration(&p, rule.acceleration);
  setRadius(&p, rule.collisionRadius);
  setForceAccum(&p, vec3f(0.0));
  return p;
}

fn spawnLifetime(rule: SpawnRule, key: u32) -> f32 {
  return within(rule.lifetimeMin, rule.lifetimeSpan, rule.lifetimeMax, uniform01(draw(key, DRAW_LIFETIME)));
}

fn spawnSize(rule: SpawnRule, key: u32) -> f32 {
  return within(rule.sizeMin, rule.sizeSpan, rule.sizeMax, uniform01(draw(key, DRAW_SIZE)));
}
