// The contact resolver's position copy (src/gpu/contactPass.ts,
// positionCopyIndex): from vec4 `base` of its corrections buffer, two vec4 a
// particle, its position and radius, then its velocity, the records' own
// bits. Written by the candidate lists' dispatch (shaders/contacts.wgsl) and
// by the apply pass (shaders/collide.wgsl) for what it moves; read by the
// count, whose candidate test reads the first vec4 alone (16 bytes where a
// record is 64).

// Where particle i's two vec4 start.
fn positionCopyAt(base: u32, i: u32) -> u32 {
  return base + 2u * i;
}

// Particle i's two vec4 from its position, radius and velocity.
fn positionCopyLanes(position: vec3f, radius: f32, velocity: vec3f) -> array<vec4f, 2> {
  return array<vec4f, 2>(vec4f(position, radius), vec4f(velocity, 0.0));
}
