/**
 * The life events of the conversational-memory source (quality-conversation.mjs): what a speaker tells
 * the other over months of chats, and the questions a reader would later ask about it. Each event has
 * slots (one value drawn per telling), the ways the speaker says it (`say`), the questions whose
 * evidence is that turn (`ask`: single-hop; `when`: temporal), a feeling the speaker may add in a later
 * turn with the question about it (`feel`/`feelAsk`: open-ended), and what the other speaker answers
 * (`echo`: shares the event's words, answers nothing). `group` names the category a multi-hop question
 * gathers across sessions ("What sports has Mel tried?"). Questions are worded the way people ask —
 * often with other words than the turn used — never from any engine's output.
 */

import { LEISURE_EVENTS } from './quality-dialogue-leisure.mjs';
import { LIFE_EVENTS } from './quality-dialogue-life.mjs';

// In the order the generator has always drawn them (a seed gives the same conversations).
export const EVENTS = [
  ...LEISURE_EVENTS.slice(0, 10),
  ...LIFE_EVENTS.slice(0, 11),
  ...LEISURE_EVENTS.slice(10),
  ...LIFE_EVENTS.slice(11),
];

/** What people say between the events: greetings, reactions, small talk (shares the common words). */
export const CHATTER = [
  'Hey! How have you been?',
  'Hi! Long time no talk, how are things?',
  'That sounds amazing, honestly.',
  'Haha, I know right?',
  'Oh wow, tell me more!',
  'Anyway, I should get going, talk soon!',
  'How was your week?',
  'Work has been so busy lately, meeting after meeting.',
  'The weather has been lovely, I went for a long walk yesterday.',
  'I have been so tired, I think I need a real vacation.',
  'Did you end up watching that show I told you about?',
  'Thanks for checking in, it means a lot.',
  'Same here, nothing too exciting this week.',
  'That is so good to hear.',
  'I am making soup tonight, it is finally cold enough.',
  'My phone died all day yesterday, it was weirdly peaceful.',
  'We should catch up in person soon.',
  'Ha, classic.',
  'Fingers crossed for you!',
  'I spent the whole weekend cleaning the house.',
  'Traffic this morning was unbelievable.',
  'How is your family doing?',
  'I keep meaning to call my parents more often.',
  'Honestly I just needed a quiet night in.',
  'That reminds me, I still owe you lunch.',
  'Ok, talk to you next week!',
  'Yes! Exactly how I feel.',
  'Wait, really? That is wild.',
];

/** Multi-hop question wording per group ("What … has {P} …?"): the answer gathers every event of the group. */
export const GROUP_QUESTIONS = {
  pets: ['What pets does {P} have?', 'What animals live with {P}?'],
  sports: ['What sports has {P} tried?', 'What athletic activities has {P} done this year?'],
  hobbies: ['What hobbies has {P} picked up?', 'What creative things does {P} do in free time?'],
  trips: ['Where has {P} traveled?', 'What trips has {P} taken?'],
  work: ['What has happened in {P}’s career?', 'What milestones has {P} had at work?'],
  learning: ['What has {P} been studying?'],
  family: ['What family news has {P} shared?', 'What has been going on with {P}’s relatives?'],
  home: ['What changes has {P} made to where they live?'],
  health: ['What health changes has {P} gone through?'],
  community: ['How does {P} give back to the community?', 'What volunteer work has {P} done?'],
  media: ['What books and music has {P} enjoyed lately?'],
  food: ['What has {P} learned to cook?'],
  identity: ['What personal milestones has {P} shared?'],
};

export const NAMES = [
  'Caroline',
  'Melanie',
  'Jon',
  'Gina',
  'Priya',
  'Marcus',
  'Elena',
  'Tomas',
  'Aisha',
  'Derek',
  'Yuki',
  'Rosa',
  'Nate',
  'Fatima',
  'Owen',
  'Lena',
  'Ravi',
  'Claire',
  'Hector',
  'Joanna',
  'Samir',
  'Nina',
  'Felix',
  'Maya',
];
