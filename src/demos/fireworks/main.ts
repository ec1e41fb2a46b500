/** The Fireworks page (demos/fireworks.html). */
import { runDemo } from '../shared/app';
import { fireworks } from './fireworks';

runDemo(fireworks);
