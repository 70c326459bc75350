export { SingleFlight } from './single-flight.js';
