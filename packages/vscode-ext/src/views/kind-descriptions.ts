// Pure: what each kind of the shipped filing vocabulary is for, as the save picker and the language
// model tools explain it. Written from agentm's storage rules (memory types are what an agent should
// remember and recall; record kinds file records of work). A kind a vault's own rules add has no entry:
// the picker then says which register it is in.

/** The six memory types (written `type:`): what an agent recalls when it works. */
export const MEMORY_TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  preference: 'How you like things done: style, tools, tone (e.g. "prefer pnpm over npm")',
  convention: 'A rule or decision the project follows, and why (e.g. "errors name their fix")',
  reference: 'Facts to look up later: an API shape, a command, a link, a snippet',
  workflow: 'How to do a recurring task, step by step (a runbook or how-to)',
  fix: 'A problem and what solved it, so it is not debugged twice',
  idea: 'Something worth trying later, an insight, or a gap noticed',
};

/** Record kinds (written `kind:`): records of work rather than knowledge to recall. */
export const RECORD_KIND_DESCRIPTIONS: Readonly<Record<string, string>> = {
  brief: 'A brief for a piece of work: the ask, constraints and context',
  telemetry: 'Measurements an agent or tool recorded',
  'session-cost': 'What a session cost (tokens, time)',
  'session-brief': 'What a session set out to do',
  'session-findings': 'What a session found out',
  'session-handoff': 'Where a session stopped and what comes next',
  conversation: 'A conversation kept as a record',
  capture: 'A quick capture, to be filed later',
  'failure-incident': 'An incident: what failed, its impact and follow-ups',
  crystallized: 'Knowledge distilled from several notes',
  'opinion-supplement': 'An opinion added to another note',
  'handoff-artifact': 'An artifact handed from one agent or person to another',
  'handoff-index': 'An index of handoff artifacts',
  design: 'A design document: the problem, options and the choice',
  project: 'A project overview',
  'project-index': 'An index of a project’s notes',
  'project-summary': 'A summary of a project’s state',
  'arc-index': 'An index of a story arc or series of work',
  'dir-index': 'An index of a folder',
  'pilot-index': 'An index of a pilot or experiment',
  'research-index': 'An index of research notes',
  persona: 'A persona or role description',
  moc: 'A map of content linking related notes',
  'roadmap-integration': 'How work fits a roadmap',
  'skill-watchlist': 'Skills to watch or learn',
  'skill-watchlist-entry': 'One entry of a skill watchlist',
  'content-refresh-watchlist': 'Content due for a refresh',
  debt: 'Technical debt to pay back',
  'idea-incubator': 'An idea being incubated',
  'idea-incubator-summary': 'A summary of incubated ideas',
  'idea-incubator-research': 'Research for an incubated idea',
  'idea-incubator-runbook': 'How ideas move through the incubator',
};

/** The description of `kind`, or one naming its register when the rules add a kind this list lacks. */
export function kindDescription(kind: string, register: 'type' | 'record'): string {
  const known = register === 'type' ? MEMORY_TYPE_DESCRIPTIONS[kind] : RECORD_KIND_DESCRIPTIONS[kind];
  return known ?? (register === 'type' ? 'a memory type of your storage rules' : 'a record kind of your storage rules');
}
