/** The Galaxy page (demos/galaxy.html). */
import { runDemo } from '../shared/app';
import { galaxy } from './galaxy';

runDemo(galaxy);
