// The contact resolver's position copy (src/gpu/contactPass.ts,
// positionCopyIndex): from vec4 `base` of its corrections buffer, two vec4 an
// entry: the entry's particle's position and radius, then its velocity and
// inverse mass, the records' own bits. An entry is a particle itself, or with
// the resolver's tables by grid entry (ContactOrder 'entries') a grid entry
// (the particles in cell order, as the grid's `entries` lists them), whose
// candidates are then a few runs of consecutive entries. Written by the
// candidate lists' dispatch (shaders/contacts.wgsl) and by the apply pass
// (shaders/collide.wgsl) for what it moves; read by the count.
//
// Where each particle's entry is, for the apply pass: the w lane of its
// velocity change (the corrections' second vec4, `deltas[2 * i + 1]`), as u32
// bits (NO_ENTRY: none, out of the grid), written by each resolve with the
// correction (by particle, the particle itself); by grid entry, also by the
// candidate lists, for the resolve's and the list probe's lookups. By grid
// entry without links, a particle out of the grid keeps what its lane held:
// only killed and free particles are out of it, immovable, and the apply
// pass returns for those before it reads the lane.

// A particle without an entry (out of the grid, with the tables by grid entry).
const NO_ENTRY: u32 = 0xffffffffu;

// Where entry e's two vec4 start.
fn positionCopyAt(base: u32, e: u32) -> u32 {
  return base + 2u * e;
}

// An entry's two vec4 from its particle's position, radius, velocity and inverse mass.
fn positionCopyLanes(position: vec3f, radius: f32, velocity: vec3f, inverseMass: f32) -> array<vec4f, 2> {
  return array<vec4f, 2>(vec4f(position, radius), vec4f(velocity, inverseMass));
}
