import { parse as parseYaml } from 'yaml';
import { yamlScalar } from '../../memory/notes/yaml-scalar.js';
import { dominantEol, type Line } from './lines.js';

/** Where the frontmatter sits and what it says. Lines `[0, end]` are the block including both fences. */
export interface Frontmatter {
  readonly end: number;
  readonly data: Readonly<Record<string, unknown>>;
  /** Set when the YAML does not parse (or is not a mapping); `data` is then empty. */
  readonly error?: string;
}

/** The plan-level fields a PLAN file's frontmatter may carry (agentm: `depends_on`, `touches`). */
export interface PlanMeta {
  readonly goal?: string;
  readonly status?: string;
  readonly dependsOn: readonly string[];
  readonly touches: readonly string[];
  /** The raw `budget` value; `budgetFromMeta` interprets it. */
  readonly budget?: unknown;
}

const OPEN = /^\uFEFF?---[ \t]*$/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/;

/** Finds a YAML frontmatter block at the top of the file, if there is a closed one. */
export function findFrontmatter(lines: readonly Line[]): Frontmatter | undefined {
  if (lines.length === 0 || !OPEN.test(lines[0]!.text)) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (!CLOSE.test(lines[i]!.text)) continue;
    const yaml = lines
      .slice(1, i)
      .map((l) => l.text)
      .join('\n');
    try {
      const data: unknown = yaml.trim() === '' ? {} : parseYaml(yaml);
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        return { end: i, data: {}, error: 'the frontmatter is not a YAML mapping (key: value lines)' };
      }
      return { end: i, data: data as Record<string, unknown> };
    } catch (error) {
      return {
        end: i,
        data: {},
        error: `the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
      };
    }
  }
  return undefined;
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value))
    return value
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((v) => String(v).trim())
      .filter(Boolean);
  return [];
}

/** Reads the plan-level fields, tolerating absent or odd values (a wrong type reads as absent). */
export function planMeta(front: Frontmatter | undefined): PlanMeta {
  const data = front?.data ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined);
  return {
    goal: text(data['goal']),
    status: text(data['status'])?.toLowerCase(),
    dependsOn: stringList(data['depends_on']),
    touches: stringList(data['touches']),
    budget: data['budget'],
  };
}

const STATUS_LINE = /^(status[ \t]*:[ \t]*)(.*?)([ \t]*)$/;

/**
 * Lines with the frontmatter's top-level `status` set to `status`: the existing `status:` line is
 * rewritten in place, or one line is added before the closing fence, or a three-line block is added at
 * the top of a file without frontmatter. No other line changes.
 */
export function withFrontmatterStatus(lines: readonly Line[], front: Frontmatter | undefined, status: string): Line[] {
  const value = yamlScalar(status);
  const out = [...lines];
  const eol = dominantEol(lines);
  if (!front) {
    // A byte-order mark stays the first character of the file.
    const bom = out[0]?.text.startsWith('\uFEFF') ? '\uFEFF' : '';
    if (bom) out[0] = { ...out[0]!, text: out[0]!.text.slice(1) };
    return [{ text: `${bom}---`, eol }, { text: `status: ${value}`, eol }, { text: '---', eol }, ...out];
  }
  for (let i = 1; i < front.end; i++) {
    const m = STATUS_LINE.exec(out[i]!.text);
    if (m) {
      out[i] = { text: `${m[1]}${value}${m[3]}`, eol: out[i]!.eol };
      return out;
    }
  }
  out.splice(front.end, 0, { text: `status: ${value}`, eol: out[front.end - 1]!.eol || eol });
  return out;
}
