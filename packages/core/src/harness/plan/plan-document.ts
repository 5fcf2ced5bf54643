import { UnknownStepError } from '../errors.js';
import { findFrontmatter, planMeta, type Frontmatter, type PlanMeta } from './frontmatter.js';
import { parseInlineFields, STEP_FIELDS, stripInlineFields } from './inline-fields.js';
import { joinLines, splitLines, type Line } from './lines.js';
import { scanMarkdown, type ScannedLine } from './markdown-scan.js';
import { findCycle } from './plan-graph.js';
import { assignStepIds } from './step-ids.js';
import { statusOfSymbol, type StoredStatus } from './step-status.js';

/** One checklist item of a PLAN file. */
export interface PlanStep {
  readonly id: string;
  /** Whether the id is written as `[id:: …]` (else derived from the title). */
  readonly idExplicit: boolean;
  /** The item's text without inline fields, whitespace collapsed. */
  readonly title: string;
  /** The checkbox symbol as written, and the status it means (`[/]` without `[agent:: …]`: pending, never claimed). */
  readonly symbol: string;
  readonly stored: StoredStatus;
  /** 0-based line index in `PlanDocument.lines`. */
  readonly line: number;
  /** Offsets inside that line: the checkbox symbol, and where the content (title and fields) starts. */
  readonly symbolOffset: number;
  readonly contentStart: number;
  readonly indent: number;
  /** The enclosing step's id, for a sub-step. */
  readonly parent?: string;
  /** Direct sub-steps' ids. */
  readonly children: readonly string[];
  /** Heading texts enclosing the step, outermost first. */
  readonly headings: readonly string[];
  /**
   * The step's own dependencies as written: `[after:: a, b]`, then the Tasks plugin's
   * `[dependsOn:: a,b]` (its Dataview format), read as a synonym. Writers only ever write `after`.
   */
  readonly after: readonly string[];
  /** Effective dependencies: `after`, the ancestors' `after`, and the direct sub-steps (a parent waits for them). */
  readonly deps: readonly string[];
  readonly attempt: number;
  readonly agent?: string;
  readonly role?: string;
  readonly cmd?: string;
  readonly key?: string;
  readonly started?: string;
  /** Every inline field by lower-cased key (first occurrence wins). */
  readonly fields: Readonly<Record<string, string>>;
  /** Indented prose lines under the item before its first sub-item (the step's notes). */
  readonly details: string;
}

export interface PlanProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** A parsed PLAN file. `text` and `lines` are the exact input; nothing is normalized. */
export interface PlanDocument {
  readonly text: string;
  readonly lines: readonly Line[];
  readonly frontmatter?: Frontmatter;
  readonly meta: PlanMeta;
  readonly steps: readonly PlanStep[];
  readonly problems: readonly PlanProblem[];
}

interface RawItem {
  readonly scanned: ScannedLine;
  readonly parentIndex: number;
  readonly headings: string[];
  readonly fields: Record<string, string>;
  readonly explicitId?: string;
  readonly title: string;
  readonly details: string[];
}

function list(...values: Array<string | undefined>): string[] {
  return [
    ...new Set(
      values
        .filter((value): value is string => value !== undefined)
        .flatMap((value) => value.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** The last text parsed and its document (documents are immutable, so it is shared). */
let lastParsed: { readonly text: string; readonly doc: PlanDocument } | undefined;

/** The Tasks plugin's dependency field (Dataview format), lower-cased as fields are looked up. */
const TASKS_DEPENDS_ON = 'dependson';

/**
 * A step's own dependencies: `[after:: …]` and the Tasks plugin's `[dependsOn:: …]` (Tasks writes it,
 * comma-separated, when its task format is "Dataview"; keys are case-insensitive, as Dataview reads
 * them). Tasks' emoji form (`⛔ id`) is not read: titles a model or a goal wrote are neutralized for
 * `::` only (`neutralizeFields`), and an emoji has no Markdown escape, so reading it would let such a
 * title gate a step; Dataview does not read it either.
 */
function ownDeps(fields: Readonly<Record<string, string>>): string[] {
  return list(fields['after'], fields[TASKS_DEPENDS_ON]);
}

/**
 * Parses any Markdown text as a plan. Never throws: oddities are reported in `problems` (errors are
 * what `agentm run` refuses: duplicate ids and dependency cycles). `serializePlan(parsePlan(t)) === t`.
 * A reconcile tick reads the same plan several times (validate, recover, promote, settle, claim); the
 * last document is reused while the text is unchanged, so a long plan is parsed once per change.
 */
export function parsePlan(text: string): PlanDocument {
  if (lastParsed?.text === text) return lastParsed.doc;
  const doc = parseText(text);
  lastParsed = { text, doc };
  return doc;
}

function parseText(text: string): PlanDocument {
  const lines = splitLines(text);
  const frontmatter = findFrontmatter(lines);
  const scanned = scanMarkdown(lines, frontmatter ? frontmatter.end + 1 : 0);
  const problems: PlanProblem[] = frontmatter?.error ? [{ severity: 'warning', message: frontmatter.error }] : [];
  const items: RawItem[] = [];
  const headings: Array<{ level: number; text: string }> = [];
  let stack: Array<{ indent: number; item: number }> = [];
  let detailsOf: RawItem | undefined;
  for (const s of scanned) {
    if (s.kind === 'heading') {
      while (headings.length > 0 && headings[headings.length - 1]!.level >= s.headingLevel!) headings.pop();
      headings.push({ level: s.headingLevel!, text: s.headingText! });
      stack = [];
      detailsOf = undefined;
      continue;
    }
    if (s.kind === 'task' || s.kind === 'list') {
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= s.indent) stack.pop();
      if (s.kind === 'list') {
        stack.push({ indent: s.indent, item: -1 });
        if (detailsOf && s.indent > detailsOf.scanned.indent) detailsOf.details.push(lines[s.index]!.text.trim());
        else detailsOf = undefined;
        continue;
      }
      let parent: { indent: number; item: number } | undefined;
      for (let k = stack.length - 1; k >= 0 && !parent; k--) if (stack[k]!.item >= 0) parent = stack[k];
      const content = lines[s.index]!.text.slice(s.task!.contentStart);
      const fields: Record<string, string> = {};
      for (const f of parseInlineFields(content, STEP_FIELDS)) if (!(f.name in fields)) fields[f.name] = f.value;
      const item: RawItem = {
        scanned: s,
        parentIndex: parent ? parent.item : -1,
        headings: headings.map((h) => h.text),
        fields,
        explicitId: fields['id'] || undefined,
        title: stripInlineFields(content, STEP_FIELDS),
        details: [],
      };
      stack.push({ indent: s.indent, item: items.length });
      items.push(item);
      detailsOf = item;
      continue;
    }
    if (s.kind === 'text' && detailsOf && s.indent > detailsOf.scanned.indent) {
      detailsOf.details.push(lines[s.index]!.text.trim());
      continue;
    }
    if (s.kind === 'text' && s.indent === 0 && scanned[s.index - 1]?.kind === 'blank') stack = [];
    if (s.kind !== 'blank') detailsOf = undefined;
  }

  const ids = assignStepIds(items);
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    if (!items[i]!.explicitId) continue;
    const first = seen.get(ids[i]!);
    if (first !== undefined) {
      problems.push({
        severity: 'error',
        message: `duplicate step id "${ids[i]}" (lines ${items[first]!.scanned.index + 1} and ${items[i]!.scanned.index + 1})`,
      });
    } else seen.set(ids[i]!, i);
  }
  const children = items.map(() => [] as string[]);
  items.forEach((item, i) => {
    if (item.parentIndex >= 0) children[item.parentIndex]!.push(ids[i]!);
  });
  // The ancestors' `after`, nearest first. A parent always precedes its children, so one pass in
  // document order computes it without recursion (a 10 000-level nesting once overflowed the stack).
  const inherited: string[][] = [];
  items.forEach((item, i) => {
    const p = item.parentIndex;
    inherited[i] = p < 0 ? [] : [...ownDeps(items[p]!.fields), ...inherited[p]!];
  });
  const steps: PlanStep[] = items.map((item, i) => {
    const f = item.fields;
    const after = ownDeps(f);
    const attemptText = f['attempt'];
    let attempt = 0;
    if (attemptText !== undefined && attemptText !== '') {
      if (/^\d+$/.test(attemptText)) attempt = Number(attemptText);
      else
        problems.push({
          severity: 'warning',
          message: `step "${ids[i]}": attempt "${attemptText}" is not a whole number; read as 0`,
        });
    }
    let stored = statusOfSymbol(item.scanned.task!.symbol);
    // memQL refuses a step that starts life running; every claim (agentm run, update_step, the editors)
    // writes [agent:: …]. A [/] no one claimed is pending, or a run would wait on it forever.
    if (stored === 'running' && !f['agent']) {
      stored = 'pending';
      problems.push({
        severity: 'warning',
        message: `step "${ids[i]}" is marked [/] but no one claimed it (no [agent:: …]): read as pending until agentm run or update_step starts it`,
      });
    }
    if (stored === 'unknown') {
      problems.push({
        severity: 'warning',
        message: `step "${ids[i]}": unknown status symbol [${item.scanned.task!.symbol}] (use [ ] [/] [x] [!] [?] [-])`,
      });
    }
    const deps = [...new Set([...after, ...inherited[i]!, ...children[i]!])].filter((d) => d !== ids[i]);
    return {
      id: ids[i]!,
      idExplicit: item.explicitId !== undefined,
      title: item.title,
      symbol: item.scanned.task!.symbol,
      stored,
      line: item.scanned.index,
      symbolOffset: item.scanned.task!.symbolOffset,
      contentStart: item.scanned.task!.contentStart,
      indent: item.scanned.indent,
      ...(item.parentIndex >= 0 ? { parent: ids[item.parentIndex]! } : {}),
      children: children[i]!,
      headings: item.headings,
      after,
      deps,
      attempt,
      ...(f['agent'] ? { agent: f['agent'] } : {}),
      ...(f['role'] ? { role: f['role'] } : {}),
      ...(f['cmd'] ? { cmd: f['cmd'] } : {}),
      ...(f['key'] ? { key: f['key'] } : {}),
      ...(f['started'] ? { started: f['started'] } : {}),
      fields: f,
      details: item.details.join('\n'),
    };
  });
  const known = new Set(ids);
  for (const step of steps) {
    for (const dep of step.after) {
      if (!known.has(dep))
        problems.push({
          severity: 'warning',
          message: `step "${step.id}" comes after unknown step "${dep}" (it can never run)`,
        });
    }
  }
  const cycle = findCycle(steps);
  if (cycle) problems.push({ severity: 'error', message: `dependency cycle through step "${cycle}"` });
  return { text, lines, ...(frontmatter ? { frontmatter } : {}), meta: planMeta(frontmatter), steps, problems };
}

/** The exact text of a plan (its lines and their original endings). */
export function serializePlan(doc: PlanDocument): string {
  return joinLines(doc.lines);
}

/** The step with `id`; throws `UnknownStepError` when absent or ambiguous. */
export function findStep(doc: PlanDocument, id: string): PlanStep {
  const matches = doc.steps.filter((s) => s.id === id);
  if (matches.length === 0) throw new UnknownStepError(id);
  if (matches.length > 1)
    throw new UnknownStepError(id, `${matches.length} checklist items share this id; give each a distinct [id:: …]`);
  return matches[0]!;
}
