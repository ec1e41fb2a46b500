/** The Integrators page (demos/integrators.html). */
import { runDemo } from '../shared/app';
import { integrators } from './integrators';

runDemo(integrators);
