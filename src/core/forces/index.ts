/** Force generators: the data, the registry, and the CPU twins of shaders/forces/forces.wgsl and shaders/forces/springs.wgsl. */
export * from './generators';
export * from './records';
export * from './registry';
export { applyFieldForces } from './fieldForces';
export { applySpringForces } from './springForces';
export { FOURIER_MODES, turbulenceField } from './turbulence';
