/**
 * Life events of the conversational-memory source: work, learning, family, home, health, community, identity (see quality-dialogue-events.mjs for
 * what an event holds).
 */
export const LIFE_EVENTS = [
  {
    group: 'work',
    slots: {
      role: ['product designer', 'data analyst', 'nurse manager', 'sous chef'],
      company: ['Brightline', 'Harbor Health', 'Oakridge Labs', 'Copper Kettle'],
    },
    say: [
      'I accepted the offer, I am the new {role} at {company} starting Monday!',
      'Signed the contract, officially a {role} at {company}.',
    ],
    ask: ['What job did {P} accept?', 'Which company hired {P}?'],
    when: ['When did {P} start at {company}?'],
    feel: ['The new job is exhausting some days but I really love my team at {company}.'],
    feelAsk: ['How does {P} feel about working at {company}?'],
    echo: ['Congrats!! {company} is lucky to have you.', 'A {role}? That suits you so well.'],
  },
  {
    group: 'work',
    slots: {
      topic: ['accessibility', 'supply chains', 'sleep research', 'climate policy'],
      event: ['a panel', 'a conference talk', 'a workshop'],
    },
    say: [
      'I gave {event} on {topic} today and my hands only shook a little.',
      'Presented {event} about {topic}, people asked so many questions after.',
    ],
    ask: ['What topic did {P} present on?', 'What kind of presentation did {P} give?'],
    when: ['When did {P} give the {topic} presentation?'],
    echo: ['{topic} is such an important subject.', 'Public speaking is my nightmare, well done.'],
  },
  {
    group: 'learning',
    slots: {
      course: [
        'a night course in accounting',
        'an online statistics certificate',
        'Spanish classes',
        'a coding bootcamp',
      ],
      reason: ['switch careers', 'talk to my grandparents', 'get promoted'],
    },
    say: [
      'I enrolled in {course}, I want to {reason} eventually.',
      'Started {course} because I really want to {reason}.',
    ],
    ask: ['What did {P} enroll in?', 'Why did {P} start {course}?'],
    when: ['When did {P} enroll in {course}?'],
    echo: ['Going back to school takes guts.', 'You will be great at that.'],
  },
  {
    group: 'family',
    slots: {
      relative: ['my brother', 'my best friend', 'my cousin Ana'],
      event: ['got engaged', 'had a baby girl', 'bought their first house'],
    },
    say: ['Huge family news: {relative} {event}!', 'So {relative} {event} last week, we are all over the moon.'],
    ask: ['What news did {P} share about {relative}?', 'Who {event}?'],
    when: ['When did {relative} of {P} share the news?'],
    echo: ['Tell them congratulations from me!', 'That is the best kind of news.'],
  },
  {
    group: 'family',
    slots: {
      elder: ['my grandmother', 'my dad', 'my aunt'],
      issue: ['hip surgery', 'a bad fall', 'a heart procedure'],
    },
    say: [
      '{elder} had {issue}, I have been driving to the hospital after work.',
      'Rough week, {elder} went in for {issue}.',
    ],
    ask: ['Who in {P}’s family had {issue}?', 'What happened to {elder} of {P}?'],
    when: ['When did {elder} of {P} have {issue}?'],
    feel: ['Watching {elder} recover slowly has made me so much more patient, honestly.'],
    feelAsk: ['How has the recovery of {elder} affected {P}?'],
    echo: ['Sending love to your family.', 'Hospitals are so draining, take care of yourself too.'],
  },
  {
    group: 'home',
    slots: {
      city: ['Denver', 'Pittsburgh', 'Sacramento', 'Raleigh'],
      kind: ['a small townhouse', 'a loft apartment', 'an old farmhouse'],
    },
    say: ['We are moving to {city}! Found {kind} near a park.', 'Packing boxes for the move to {city}, we got {kind}.'],
    ask: ['Which city is {P} moving to?', 'What kind of home did {P} find?'],
    when: ['When did {P} move to {city}?'],
    echo: ['{city} has great coffee, I hear.', 'Moving is so stressful, hang in there.'],
  },
  {
    group: 'home',
    slots: {
      room: ['the kitchen', 'the bathroom', 'the attic'],
      material: ['blue tiles', 'reclaimed wood shelves', 'a skylight'],
    },
    say: [
      'Renovating {room}, we went with {material} after weeks of arguing.',
      'Finished redoing {room}, the {material} turned out amazing.',
    ],
    ask: ['Which room did {P} renovate?', 'What did {P} put in {room}?'],
    when: ['When did {P} finish redoing {room}?'],
    echo: ['Renovations always take twice as long.', '{material} sounds gorgeous.'],
  },
  {
    group: 'health',
    slots: {
      habit: ['quit coffee', 'started waking up at six', 'went vegetarian', 'stopped using my phone in bed'],
      result: ['I sleep way better', 'my headaches are gone', 'I have so much more energy'],
    },
    say: ['I {habit} a month ago and {result}.', 'Small update: {habit}, and {result}.'],
    ask: ['What habit did {P} change?', 'What happened after {P} {habit}?'],
    when: ['When did {P} {habit}?'],
    echo: ['I could never give that up.', 'That takes discipline, proud of you.'],
  },
  {
    group: 'health',
    slots: {
      injury: ['sprained my ankle', 'broke my wrist', 'tore a muscle in my back'],
      cause: ['tripping on the stairs', 'a bike accident', 'moving a couch'],
    },
    say: ['Ugh, I {injury} from {cause}.', 'So I {injury}, all thanks to {cause}.'],
    ask: ['What injury did {P} get?', 'How did {P} get hurt?'],
    when: ['When did {P} get injured?'],
    echo: ['Oh no, rest up!', 'Ouch, feel better soon.'],
  },
  {
    group: 'community',
    slots: {
      cause: ['the animal shelter', 'a food bank', 'a literacy program', 'an LGBTQ youth center'],
      task: ['walking dogs', 'sorting donations', 'tutoring kids', 'running a support group'],
    },
    say: [
      'I started volunteering at {cause}, mostly {task} on Saturdays.',
      'Spent my Saturday at {cause} {task} again, it fills my cup.',
    ],
    ask: ['Where does {P} volunteer?', 'What does {P} do when volunteering?'],
    when: ['When did {P} start volunteering at {cause}?'],
    feel: ['Volunteering at {cause} reminds me how lucky I am, it keeps me grounded.'],
    feelAsk: ['What does volunteering mean to {P}?'],
    echo: ['That is so generous of you.', 'I should volunteer more, honestly.'],
  },
  {
    group: 'community',
    slots: {
      event: ['a charity 5K', 'a bake sale', 'a neighborhood cleanup'],
      amount: ['$800', '$1,500', 'forty bags of trash'],
    },
    say: ['We organized {event} and raised {amount}!', 'The {event} we put together brought in {amount}.'],
    ask: ['What did {P} organize?', 'How much did the {event} bring in?'],
    when: ['When did {P} organize the {event}?'],
    echo: ['Community stuff like that matters so much.', 'Count me in for the next one.'],
  },
  {
    group: 'identity',
    slots: {
      step: ['came out to my parents', 'started going by my new name', 'shared my transition story at work'],
      reaction: ['they hugged me', 'everyone was supportive', 'it went better than I feared'],
    },
    say: ['I {step} this weekend and {reaction}.', 'Deep breath: I {step}, and {reaction}.'],
    ask: ['What personal step did {P} take?', 'How did people react when {P} {step}?'],
    when: ['When did {P} {step}?'],
    feel: ['After I {step} I felt lighter than I have in years, like I could finally just be me.'],
    feelAsk: ['How did {P} feel after taking that step?'],
    echo: ['I am so proud of you.', 'You are so brave, truly.'],
  },
];
