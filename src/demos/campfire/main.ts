/** The Campfire page (demos/campfire.html). */
import { runDemo } from '../shared/app';
import { campfire } from './campfire';

runDemo(campfire);
