/** The look of particles as data: curves over life and sprites (pure; the renderer draws it). */
export * from './curves';
export * from './sprite';
export * from './shapes';
export * from './records';
