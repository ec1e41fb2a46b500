/** The Fountain page (demos/fountain.html). */
import { runDemo } from '../shared/app';
import { fountain } from './fountain';

runDemo(fountain);
