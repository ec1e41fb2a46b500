// The contact resolver's position copy (src/gpu/collisions/contactPass.ts,
// positionCopyIndex): from vec4 `base` of its corrections buffer, two vec4 an
// entry, one entry a particle: the particle's position and radius, then its
// velocity and inverse mass, the records' own bits. Written by the candidate
// lists' dispatch (shaders/collisions/contacts.wgsl) and by the apply pass
// (shaders/collisions/collide.wgsl) for what it moves; read by the count.
//
// Where each particle's entry is, for the apply pass: the w lane of its
// velocity change (the corrections' second vec4, `deltas[2 * i + 1]`), as u32
// bits (NO_ENTRY: none), written by each resolve with the correction: the
// particle itself.

// A particle without an entry.
const NO_ENTRY: u32 = 0xffffffffu;

// Where entry e's two vec4 start.
fn positionCopyAt(base: u32, e: u32) -> u32 {
  return base + 2u * e;
}

// An entry's two vec4 from its particle's position, radius, velocity and inverse mass.
fn positionCopyLanes(position: vec3f, radius: f32, velocity: vec3f, inverseMass: f32) -> array<vec4f, 2> {
  return array<vec4f, 2>(vec4f(position, radius), vec4f(velocity, inverseMass));
}
