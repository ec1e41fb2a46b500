// Cyclone's particle contacts (chapter 7), resolved by Jacobi iterations with
// mass splitting: each invocation gathers every contact of its particle (its
// links, then its neighbours in the grid), works out each contact's impulse
// and interpenetration move from the same state, and writes the sum as a
// correction that shaders/collide.wgsl (APPLY_DELTAS) applies. No float
// atomics, and a fixed order of summation: the result is the same every run.
// Mirrored by src/core/collisions/contacts.ts (the CPU twin): the same pairs in
// the same order, operation for operation; the twin walks the grid where this
// reads the per-step candidate lists (the same particles, see MODE_CANDIDATES).
// Prepended: the Particle struct and accessors, shaders/dispatch.wgsl, the Link
// struct generated from src/core/collisions/links.ts, shaders/gridHash.wgsl.

// MODE_COUNT: how many contacts of each particle are activeCounts (closing; penetrating).
// MODE_RESOLVE: the corrections, with each particle's inverse mass multiplied by
//   its number of activeCounts contacts (mass splitting), so a particle pressed by k
//   contacts at once is not pushed k times over, while an impulse is still
//   applied equal and opposite to both sides (momentum is conserved).
// MODE_LIST: the particle-particle contacts found, for the tests.
// MODE_CANDIDATES: once a step, after the grid: each particle's candidates, the
//   other particles in exactly the 27 cells around its own, in the order the
//   walk of the grid meets them (cell by cell, by index). The grid is fixed for
//   the step, so they are the very particles every iteration's walk would test:
//   the other modes test the same pairs in the same order, without the walk.
override MODE: u32 = 0u;
const MODE_COUNT: u32 = 0u;
const MODE_RESOLVE: u32 = 1u;
const MODE_LIST: u32 = 2u;
const MODE_CANDIDATES: u32 = 3u;
const MAX_LISTED: u32 = 8u;
// Room for the candidates of each particle (0: none, every mode walks the
// grid). A particle with more walks the grid instead: the same pairs, in the
// same order.
override CANDIDATES: u32 = 0u;
// The most CANDIDATES can be (src/gpu/contactPass.ts, MAX_CANDIDATES).
const MAX_CANDIDATES: u32 = 32u;

const NO_PARTICLE: u32 = 0xffffffffu;
const LINK_CABLE: u32 = 0u;
// The candidate test before the square root errs on the side of keeping a
// pair (relative slack far above float32 rounding); the exact test follows.
const REACH_SLACK: f32 = 1.0001;

// ContactParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: ContactParams;
@group(1) @binding(1) var<storage, read> links: array<Link>;
// The links of each particle: starts (count + 1 entries), then link indices.
@group(1) @binding(2) var<storage, read> linkIndex: array<u32>;
@group(1) @binding(3) var<storage, read> starts: array<u32>;
@group(1) @binding(4) var<storage, read> entries: array<u32>;
@group(1) @binding(5) var<storage, read> cells: array<vec4i>;
// Active contacts per particle: closing ones in the low 16 bits, penetrating
// ones above (capacity entries); then each particle's number of candidates
// (capacity entries), then their lists (CANDIDATES entries a particle). One
// binding for both, as a stage has only 8 storage buffers.
@group(1) @binding(6) var<storage, read_write> activeCounts: array<u32>;
// Two vec4 a particle: the position correction, then the velocity change, as
// float bits (shaders/collide.wgsl reads them as vec4f); in MODE_LIST, the
// neighbours found, as indices.
@group(1) @binding(7) var<storage, read_write> deltas: array<vec4u>;

var<private> closing: u32;
var<private> penetrating: u32;
var<private> moveSum: vec3f;
var<private> velocitySum: vec3f;
var<private> listed: u32;

fn dot3(a: vec3f, b: vec3f) -> f32 {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// One contact between A and B (B may be an anchor: inverse mass 0), seen from
// A when `selfIsA`, else from B. The normal points so that (vA - vB).n > 0 is
// separating. Cyclone's resolveVelocity and resolveInterpenetration, with the
// split inverse masses.
fn visitContact(
  selfIsA: bool,
  a: u32,
  b: u32,
  vA: vec3f,
  accA: vec3f,
  wA: f32,
  vB: vec3f,
  accB: vec3f,
  wB: f32,
  n: vec3f,
  penetration: f32,
  restitution: f32,
) {
  let separatingVelocity = dot3(vA - vB, n);
  let isClosing = separatingVelocity < 0.0;
  let isPenetrating = penetration > 0.0;
  if (MODE == MODE_COUNT) {
    closing += select(0u, 1u, isClosing);
    penetrating += select(0u, 1u, isPenetrating);
    return;
  }
  let countsA = activeCounts[a];
  var countsB = 0u;
  if (b != NO_PARTICLE) { countsB = activeCounts[b]; }
  // This particle's share: +wA for A, -wB for B (Cyclone's impulsePerIMass * -inverseMass).
  let share = select(-wB, wA, selfIsA);
  if (isClosing) {
    var newSepVelocity = -separatingVelocity * restitution;
    let accCausedSepVelocity = dot3(accA - accB, n) * params.dt;
    if (accCausedSepVelocity < 0.0) {
      newSepVelocity = newSepVelocity + restitution * accCausedSepVelocity;
      newSepVelocity = max(newSepVelocity, 0.0);
    }
    let deltaVelocity = newSepVelocity - separatingVelocity;
    let splitInverseMass = wA * f32(countsA & 0xffffu) + wB * f32(countsB & 0xffffu);
    if (splitInverseMass > 0.0) {
      let impulsePerIMass = n * (deltaVelocity / splitInverseMass);
      velocitySum = velocitySum + impulsePerIMass * share;
    }
  }
  if (isPenetrating) {
    let splitInverseMass = wA * f32(countsA >> 16u) + wB * f32(countsB >> 16u);
    if (splitInverseMass > 0.0) {
      let movePerIMass = n * (penetration / splitInverseMass);
      moveSum = moveSum + movePerIMass * share;
    }
  }
}

// Cables and rods (Cyclone's ParticleCable, ParticleRod and their anchored
// ParticleConstraint forms) touching particle `me`, in link order.
fn visitLinks(me: u32) {
  let first = linkIndex[me];
  let end = linkIndex[me + 1u];
  for (var r = first; r < end; r++) {
    let link = links[linkIndex[params.linkRefs + r]];
    let pa = particles[link.a];
    let pA = getPosition(pa);
    var pB = link.anchor;
    var vB = vec3f(0.0);
    var accB = vec3f(0.0);
    var wB = 0.0;
    if (link.b != NO_PARTICLE) {
      let pb = particles[link.b];
      pB = getPosition(pb);
      vB = getVelocity(pb);
      accB = getAcceleration(pb);
      wB = getInverseMass(pb);
    }
    let d = pB - pA;
    let length2 = dot3(d, d);
    // Coincident ends have no direction to push along: skipped.
    if (!(length2 > 0.0)) { continue; }
    // safeLength (shaders/safeLength.wgsl): a link whose squared length overflows stays finite.
    let currentLength = safeLength(d, length2);
    let direction = d / currentLength;
    var n = direction;
    var penetration = currentLength - link.length;
    var restitution = link.restitution;
    if (link.kind == LINK_CABLE) {
      // A cable only pulls: a contact once it is (within the skin of) taut.
      if (!(penetration > -params.skin)) { continue; }
    } else {
      // A rod pulls when stretched and pushes when compressed, never bouncing.
      // No equality test: at exactly its length it is a contact with no depth.
      if (!(currentLength > link.length)) {
        n = -direction;
        penetration = link.length - currentLength;
      }
      restitution = 0.0;
    }
    visitContact(me == link.a, link.a, link.b, getVelocity(pa), getAcceleration(pa), getInverseMass(pa), vB, accB, wB, n, penetration, restitution);
  }
}

// Particle-particle contacts between spheres: every particle in the 27 cells
// around this one's (cells built at the start of the step), each pair seen
// the same way from both sides (A is the lower index), so the impulses are
// equal and opposite bit for bit. A candidate's position and radius are read
// first; the rest of it only for a contact. The candidates come from the list
// MODE_CANDIDATES made this step when it has them all, else from the walk: the
// same particles in the same order either way.
fn visitNeighbours(me: u32, selfParticle: Particle) {
  let home = cells[me];
  if (home.w < 0) { return; }
  let found = activeCounts[params.capacity + me];
  if (found <= CANDIDATES) {
    // The few in reach first, in order, then their contacts: the contact's
    // code runs for them alone (a software adapter runs it for every lane).
    let first = 2u * params.capacity + me * CANDIDATES;
    var near: array<u32, MAX_CANDIDATES>;
    var nearCount = 0u;
    for (var j = 0u; j < found; j++) {
      let other = activeCounts[first + j];
      if (mayReach(selfParticle, other)) {
        near[nearCount] = other;
        nearCount += 1u;
      }
    }
    for (var j = 0u; j < nearCount; j++) {
      visitCandidate(me, selfParticle, near[j]);
    }
    return;
  }
  for (var k = 0u; k < 27u; k++) {
    let cell = home.xyz + vec3i(i32(k % 3u) - 1, i32((k / 3u) % 3u) - 1, i32(k / 9u) - 1);
    let bucket = bucketOf(cell, params.bucketMask);
    let end = starts[bucket + 1u];
    for (var s = starts[bucket]; s < end; s++) {
      let other = entries[s];
      // Only particles in this very cell: another cell in the same bucket is a hash collision.
      if (other == me || any(cells[other].xyz != cell)) { continue; }
      visitCandidate(me, selfParticle, other);
    }
  }
}

// Writes the candidates of `me` (as many as fit) and their number.
fn listCandidates(me: u32) {
  let home = cells[me];
  var found = 0u;
  if (home.w >= 0) {
    let first = 2u * params.capacity + me * CANDIDATES;
    for (var k = 0u; k < 27u; k++) {
      let cell = home.xyz + vec3i(i32(k % 3u) - 1, i32((k / 3u) % 3u) - 1, i32(k / 9u) - 1);
      let bucket = bucketOf(cell, params.bucketMask);
      let end = starts[bucket + 1u];
      for (var s = starts[bucket]; s < end; s++) {
        let other = entries[s];
        if (other == me || any(cells[other].xyz != cell)) { continue; }
        if (found < CANDIDATES) { activeCounts[first + found] = other; }
        found += 1u;
      }
    }
  }
  activeCounts[params.capacity + me] = found;
}

// True unless visitCandidate surely finds no contact with `other`: its reach
// test, looser by REACH_SLACK again (far above any rounding difference between
// the two places the test is compiled).
fn mayReach(selfParticle: Particle, other: u32) -> bool {
  let candidate = particles[other].positionInverseMass;
  let r = particles[other].accelerationRadius.w;
  let myRadius = getRadius(selfParticle);
  if (r < 0.0 || myRadius < 0.0) { return false; }
  let reach = r + myRadius;
  let d = candidate.xyz - getPosition(selfParticle);
  let limit = reach + params.skin;
  return dot3(d, d) < limit * limit * (REACH_SLACK * REACH_SLACK);
}

// One candidate `other` of particle `me`: the exact test, then the contact.
fn visitCandidate(me: u32, selfParticle: Particle, other: u32) {
  let myPosition = getPosition(selfParticle);
  let myRadius = getRadius(selfParticle);
  let candidate = Particle(particles[other].positionInverseMass, vec4f(0.0), particles[other].accelerationRadius, vec4f(0.0));
  let selfIsA = me < other;
  let rA = select(getRadius(candidate), myRadius, selfIsA);
  let rB = select(myRadius, getRadius(candidate), selfIsA);
  // Killed during this step (negative radius): no longer there.
  if (rA < 0.0 || rB < 0.0) { return; }
  let reach = rA + rB;
  if (!(reach > 0.0)) { return; }
  let pA = select(getPosition(candidate), myPosition, selfIsA);
  let pB = select(myPosition, getPosition(candidate), selfIsA);
  let d = pA - pB;
  let distance2 = dot3(d, d);
  let limit = reach + params.skin;
  if (!(distance2 < limit * limit * REACH_SLACK)) { return; }
  let distance = sqrt(distance2);
  // Coincident centres separate along y.
  var n = vec3f(0.0, 1.0, 0.0);
  if (distance > 0.0) { n = d / distance; }
  let penetration = reach - distance;
  if (!(penetration > -params.skin)) { return; }
  if (MODE == MODE_LIST) {
    if (listed < MAX_LISTED) { deltas[2u * me + listed / 4u][listed % 4u] = other; }
    listed += 1u;
    return;
  }
  let otherParticle = particles[other];
  var pa = selfParticle;
  var pb = otherParticle;
  var a = me;
  var b = other;
  if (!selfIsA) {
    pa = otherParticle;
    pb = selfParticle;
    a = other;
    b = me;
  }
  visitContact(selfIsA, a, b, getVelocity(pa), getAcceleration(pa), getInverseMass(pa), getVelocity(pb), getAcceleration(pb), getInverseMass(pb), n, penetration, params.restitution);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  if (MODE == MODE_CANDIDATES) {
    listCandidates(index);
    return;
  }
  closing = 0u;
  penetrating = 0u;
  moveSum = vec3f(0.0);
  velocitySum = vec3f(0.0);
  listed = 0u;
  let particle = particles[index];
  if (MODE == MODE_LIST) {
    deltas[2u * index] = vec4u(NO_PARTICLE);
    deltas[2u * index + 1u] = vec4u(NO_PARTICLE);
    if (params.pairs != 0u && getRadius(particle) >= 0.0) { visitNeighbours(index, particle); }
    activeCounts[index] = listed;
    return;
  }
  // Immovable (and dead) particles are never moved: no contacts to gather.
  if (getInverseMass(particle) > 0.0) {
    visitLinks(index);
    if (params.pairs != 0u) { visitNeighbours(index, particle); }
  }
  if (MODE == MODE_COUNT) {
    activeCounts[index] = min(closing, 0xffffu) | (min(penetrating, 0xffffu) << 16u);
  } else {
    deltas[2u * index] = bitcast<vec4u>(vec4f(moveSum, 0.0));
    deltas[2u * index + 1u] = bitcast<vec4u>(vec4f(velocitySum, 0.0));
  }
}
