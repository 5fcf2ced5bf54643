export { Workspace, openWorkspace } from './workspace.js';
export { configProviders, type ProviderSource, type WorkspaceOptions } from './options.js';
export type { HarnessServices, PlanRun, RunPlanOptions } from './harness-services.js';
export type { WorkspaceContext } from './context.js';
