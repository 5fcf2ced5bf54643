/**
 * The vocabulary-mismatch source of the recall-quality bench: engineers' notes about settings they
 * changed ("Lowered the backoff interval of the sync worker for the migration, in the production
 * database, because …"), and questions that name the change in other words than the note — a synonym,
 * another inflection, an abbreviation (or its long form), a code identifier for prose (or prose for an
 * identifier). Each question shares one or two concepts with its note word for word and names one more
 * in the mismatched form; the distractors share the same words (the same component, the same setting
 * elsewhere), so only an engine that bridges the mismatch tells the note from them. Word lists:
 * quality-lexicon.mjs.
 */
import { rng } from './corpus.mjs';
import {
  ABBREVIATIONS,
  ACTIONS,
  COMPONENTS,
  FILLER,
  INFLECTIONS,
  PLACES,
  REASONS,
  SUBJECTS,
} from './quality-lexicon.mjs';
import { fill, NoteWriter } from './quality-notes.mjs';

const DAY = 86_400_000;
const TYPES = ['convention', 'fix', 'reference', 'workflow'];
export const VOCABULARY_CLASSES = ['synonym', 'inflection', 'abbreviation', 'identifier'];

const camel = (words) =>
  words
    .split(' ')
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)))
    .join('');
const constant = (words) => words.toUpperCase().replaceAll(' ', '_');
const slugOf = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const plural = (words) => (words.endsWith('s') ? words : `${words}s`);

/**
 * Writes the vault under `root` (project `shop`, a fifth of the notes global) and returns the graded
 * queries. `perClass` targets per class, `background` unrelated notes; `now` dates the newest note.
 */
export function writeVocabularyVault(root, { seed, perClass, background, now }) {
  const random = rng(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chance = (p) => random() < p;
  const writer = new NoteWriter(root);
  const used = new Set();
  const queries = [];

  /** A change: each concept with the form the note will use. */
  const change = (over = {}) => ({
    subject: pick(SUBJECTS),
    component: pick(COMPONENTS),
    action: pick(ACTIONS),
    process: pick(INFLECTIONS),
    abbr: pick(ABBREVIATIONS),
    place: pick(PLACES),
    reason: pick(REASONS),
    value: `${int(2, 900)}`,
    ...over,
  });

  /**
   * The note of a change. `forms` picks how each concept is written: subject `prose` | `synonym` |
   * `identifier`; process inflection index; abbreviation `long` | `short`; action index.
   */
  const writeNote = (c, forms) => {
    const subject =
      forms.subject === 'identifier'
        ? `\`${chance(0.75) ? camel(c.subject[0]) : constant(c.subject[0])}\``
        : forms.subject === 'synonym'
          ? c.subject[1]
          : c.subject[0];
    const place = fill(c.place, { abbr: forms.abbr === 'short' ? c.abbr[1] : c.abbr[0] });
    const action = c.action[forms.action ?? 0];
    const process = c.process[forms.process ?? 1];
    const statement = `${action[0].toUpperCase()}${action.slice(1)} the ${subject} of the ${c.component} to ${c.value} for the ${process} ${place}, ${c.reason}.`;
    const filler = Array.from({ length: int(1, 4) }, () => pick(FILLER));
    filler.splice(int(0, filler.length), 0, statement);
    const headed = chance(0.6);
    const title = `${c.component} ${forms.subject === 'identifier' ? c.subject[0] : subject.replaceAll('`', '')}`;
    const slugBase = slugOf(chance(0.5) ? title : `${c.component} ${c.process[0]}`);
    let key;
    const owner = chance(0.8) ? 'desk/projects/shop' : 'memory';
    for (let n = 1; ; n++) {
      key = `${owner}/${pick(TYPES)}/${slugBase}${n === 1 ? '' : `-${n}`}.md`;
      if (!used.has(key)) break;
    }
    used.add(key);
    const body = `${headed ? `# ${title[0].toUpperCase()}${title.slice(1)}\n\n` : ''}${filler.join(' ')}`;
    return writer.note({ key, body, timeMs: now - int(1, 720) * DAY - int(0, 23) * 3_600_000, group: owner, tags: [] });
  };

  const question = (words) =>
    fill(
      pick([
        'how did we handle the {a} for the {b}',
        '{a} {b}',
        'what is the {a} on the {b} now',
        'why was the {a} changed in the {b}',
        'remind me about {a} and {b}',
      ]),
      { a: words[0], b: words.slice(1).join(' ') },
    );

  for (let i = 0; i < perClass; i++) {
    for (const cls of VOCABULARY_CLASSES) {
      const c = change();
      const forms = { subject: 'prose', process: int(0, 3), abbr: chance(0.5) ? 'long' : 'short', action: 0 };
      // What the question calls each concept: the mismatched one, then the shared ones (word for word).
      let asked;
      if (cls === 'synonym') {
        forms.subject = chance(0.5) ? 'synonym' : 'prose';
        asked = [forms.subject === 'synonym' ? c.subject[0] : c.subject[1], c.component];
      } else if (cls === 'inflection') {
        const other = (forms.process + int(1, 3)) % 4;
        asked = [chance(0.5) ? plural(c.subject[0]) : c.subject[0], c.process[other]];
      } else if (cls === 'abbreviation') {
        asked = [c.subject[0], forms.abbr === 'long' ? c.abbr[1] : c.abbr[0]];
      } else {
        forms.subject = chance(0.5) ? 'identifier' : 'prose';
        const id = chance(0.75) ? camel(c.subject[0]) : constant(c.subject[0]);
        asked = [forms.subject === 'identifier' ? c.subject[0] : id, c.component];
      }
      const target = writeNote(c, forms);
      // Distractors: the same component with another setting, for the same process and place;
      // the same component and place with the place written the other way; the setting itself in
      // another component, written the way the question writes it.
      writeNote(change({ component: c.component, process: c.process }), {
        subject: 'prose',
        process: forms.process,
        abbr: forms.abbr,
      });
      writeNote(change({ component: c.component, abbr: c.abbr }), {
        subject: 'prose',
        abbr: forms.abbr === 'long' ? 'short' : 'long',
      });
      const askedForm =
        cls === 'identifier' && forms.subject === 'prose'
          ? 'identifier'
          : cls === 'synonym' && forms.subject === 'prose'
            ? 'synonym'
            : 'prose';
      writeNote(change({ subject: c.subject }), { subject: askedForm, process: int(0, 3) });
      queries.push({
        id: queries.length,
        cls,
        text: question(asked),
        project: 'shop',
        judgments: new Map([[target, 3]]),
        forbidden: new Set(),
      });
    }
  }
  for (let i = 0; i < background; i++)
    writeNote(change(), {
      subject: pick(['prose', 'prose', 'synonym', 'identifier']),
      process: int(0, 3),
      abbr: chance(0.5) ? 'long' : 'short',
      action: int(0, 1),
    });
  return { notes: writer.notes, queries };
}
