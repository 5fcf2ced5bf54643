export { coreVersion } from '../workspace/version.js';
