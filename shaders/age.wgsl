// Ageing: one invocation per live particle (indirect dispatch over the live
// list). Cyclone's Firework::update after the step: the age grows by dt, and
// the particle dies once it has outlived its lifetime (Cyclone: the fuse left
// drops below 0), falls below its rule's floor (Cyclone: position.y < 0), or
// was killed by a collider (its radius is negative). Writes, per live index,
// (1 if it lives on, its payload's child count if it dies) for the scan.
// Mirrored by src/core/emitters/lifecycle.ts (age).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/dispatch.wgsl.

override CAPACITY: u32;

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read_write> flags: array<vec2u>;
@group(1) @binding(3) var<storage, read> counters: LifeCounters;
@group(1) @binding(4) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
@group(2) @binding(0) var<uniform> frame: FrameParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let k = particleIndex(invocation);
  if (k >= counters.live) { return; }
  let slot = liveLists[counters.parity * CAPACITY + k];
  // Fields and lanes by name, only what is needed (a whole particle is 64 bytes):
  // a layout change that moves them renames the lanes and fails to compile here.
  let age = life[slot].age + frame.dt;
  life[slot].age = age;
  var dies = age > life[slot].lifetime || particles[slot].accelerationRadius.w < 0.0;
  var children = 0u;
  let ruleIndex = life[slot].rule;
  if (ruleIndex != NO_RULE) {
    let rule = rules[ruleIndex];
    dies = dies || particles[slot].positionInverseMass.y < rule.floor;
    if (dies) {
      let counts = rule.payloadCounts;
      children = counts.x + counts.y + counts.z + counts.w;
    }
  }
  let alive = select(1u, 0u, dies);
  life[slot].alive = alive;
  flags[k] = vec2u(alive, children);
}
