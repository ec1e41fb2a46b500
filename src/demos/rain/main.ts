/** The Rain page (demos/rain.html). */
import { runDemo } from '../shared/app';
import { rain } from './rain';

runDemo(rain);
