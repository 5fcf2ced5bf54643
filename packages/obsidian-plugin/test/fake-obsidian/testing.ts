/** Test-only aids of the fake (not part of the `obsidian` API). */
export { FakeApp, finishStartup, loadPlugin, startApp, unloadPlugin } from './app.js';
export { liveDomListeners } from './dom-environment.js';
export { modalsSettled, nextModal } from './modal.js';
export { shownNotices } from './notice.js';
export { htmlWritesSince, leaksSince, liveCounts, snapshot, type Snapshot } from './tracking.js';
