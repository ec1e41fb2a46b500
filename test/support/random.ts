/** The tests' seeded generator is the library's (mulberry32), so test scenes are the same every run. */
export { seededRandom } from '../../src/core/random';
