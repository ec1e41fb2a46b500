/** The Springs page (demos/springs.html). */
import { runDemo } from '../shared/app';
import { springs } from './springs';

runDemo(springs);
