import type { PlanDocument } from './plan-document.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** The first ATX heading of the plan's body (outside frontmatter and fenced code), if any. Pure. */
export function firstHeading(doc: Pick<PlanDocument, 'lines' | 'frontmatter'>): string | undefined {
  let fence: string | undefined;
  for (const { text } of doc.lines.slice(doc.frontmatter?.end ?? 0)) {
    const open = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      if (open !== undefined && open[0] === fence[0] && open.length >= fence.length) fence = undefined;
      continue;
    }
    if (open !== undefined) {
      fence = open;
      continue;
    }
    const title = HEADING.exec(text)?.[1]?.trim();
    if (title) return title;
  }
  return undefined;
}

/**
 * What a plan is called where people see it (every front end's listing, a run's messages): its
 * frontmatter `goal`, else its first heading, else its name (`PLAN`, `build`). Pure.
 */
export function planTitle(doc: Pick<PlanDocument, 'lines' | 'frontmatter' | 'meta'>, name: string): string {
  const goal = doc.meta.goal?.trim();
  return goal || firstHeading(doc) || name;
}
